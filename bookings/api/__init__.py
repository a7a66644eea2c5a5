"""The public booking API (/api/v1/): the widget's and other clients' door to the booking core.

Views here translate HTTP to the services' and selectors' keyword arguments and back; they decide
nothing about bookings. Every endpoint is public: no authentication, no session, no cookies,
JSON in and out, rate-limited per client address.
"""
