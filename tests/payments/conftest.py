import pytest

from devtools.fake_stripe import SECRET_KEY, WEBHOOK_SECRET, start_fake_stripe


@pytest.fixture
def fake_stripe(settings):
    """A local Stripe the real SDK talks to over HTTP; no test reaches the internet."""
    fake, server = start_fake_stripe()
    settings.STRIPE_API_BASE = fake.base_url
    settings.STRIPE_SECRET_KEY = SECRET_KEY
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    yield fake
    server.shutdown()
    server.server_close()


# The Lisbon salon of the booking tests, frozen on Monday 30 November 2026.
from tests.bookings.conftest import frozen_now, haircut, salon  # noqa: E402, F401
