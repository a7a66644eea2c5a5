"""The public API (/api/v1/), an HTTP surface above the shell: the booking endpoints (the
widget's and other clients' door to the booking core) and the chat's (``conversations``,
``verification``), composed by ``ordina.api_urls``.

Views here translate HTTP to the services' and selectors' keyword arguments and back; they decide
nothing about bookings. Every endpoint is public: no authentication, no session, no cookies,
JSON in and out, rate-limited per client address.
"""
