"""Flows that cross apps, and the only callers of the core's writers outside the core.

The layers, lowest first: the project's plumbing → ``bookings`` (the core) → ``payments``,
``reminders`` and ``knowledge`` beside it (never imported by it) → this package → ``agent`` (the
shell) → the HTTP surfaces. The core changes an appointment and runs whatever its caller hands
it in the same transaction (``bookings.services.in_step``); here that is the reminders, so
every appointment has pending reminders exactly while it is live, whoever changed it — the
API, the chat, the dashboard, payments' webhooks and sweeps, commands, demo data.

- ``appointment_changes``: the core's doors (book, move, cancel, outcome, deposit paid or not),
  with the reminders kept in step;
- ``booking_with_deposit``: a booking whose service may ask a deposit, and its Checkout;
- ``deposit_settlement``: payments' facts (webhooks, asking Stripe, the unpaid sweep) moving
  appointments on, with the reminders kept in step.
"""
