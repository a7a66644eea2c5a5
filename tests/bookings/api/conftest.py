import pytest
import time_machine
from django.core.cache import cache
from django.test import Client as HttpClient

from .salon import NOW, Salon, salon_in


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
