import pytest

from agent.services import grants_set
from tests.bookings.conftest import NOW, WEDNESDAY, frozen_now, haircut, lisbon, salon  # noqa: F401


@pytest.fixture
def shop(salon, haircut):  # noqa: F811 - the imported fixtures, by name
    """The salon with its agent's default grants and one bookable service."""
    salon.country = "PT"
    salon.save()
    grants_set(business=salon)
    return salon


__all__ = ["NOW", "WEDNESDAY", "lisbon"]

from tests.payments.conftest import fake_stripe  # noqa: E402, F401
