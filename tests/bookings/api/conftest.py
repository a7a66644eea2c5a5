import pytest
import time_machine
from django.core.cache import cache
from django.test import Client as HttpClient

from tests.payments.conftest import fake_stripe  # noqa: F401  (the deposit tests' Stripe)

from .salon import NOW, Salon, salon_in

# A closed port on this machine: the SDK's requests are refused at once, never sent out.
NOWHERE = "http://127.0.0.1:9"


@pytest.fixture(autouse=True)
def no_real_stripe(settings):
    """No API test reaches Stripe: unless a test takes ``fake_stripe`` (which points the SDK at
    itself), a deposit booked by mistake fails against a closed local port (a 503), and the
    internet is never asked."""
    settings.STRIPE_API_BASE = NOWHERE


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """The throttle's history lives in the cache; each test starts with a clean slate."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def frozen_now():
    with time_machine.travel(NOW, tick=False):
        yield NOW


@pytest.fixture
def salon(db, frozen_now) -> Salon:
    return salon_in()


@pytest.fixture
def api() -> HttpClient:
    return HttpClient()
