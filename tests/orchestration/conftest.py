# The Lisbon salon of the booking tests, frozen on Monday 30 November 2026, and the local Stripe.
from tests.bookings.conftest import frozen_now, haircut, salon  # noqa: F401
from tests.payments.conftest import fake_stripe  # noqa: F401
from tests.payments.test_webhooks import awaiting_deposit  # noqa: F401
