import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from bookings.availability import wall_to_instant
from tests.factories import BusinessFactory, OpeningHoursFactory, ServiceFactory

# Monday 30 November 2026, 08:00 UTC (08:00 in Lisbon). Wednesday 2 December is bookable.
NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
WEDNESDAY = dt.date(2026, 12, 2)


@pytest.fixture
def frozen_now():
    with time_machine.travel(NOW, tick=False):
        yield NOW


@pytest.fixture
def salon(db):
    """A Lisbon salon open 09:00–17:00 every day, one chair, 30-minute slots."""
    business = BusinessFactory(
        time_zone="Europe/Lisbon",
        capacity=1,
        slot_interval_minutes=30,
        min_notice_minutes=60,
        booking_horizon_days=30,
        hold_minutes=10,
    )
    for weekday in range(7):
        OpeningHoursFactory(
            business=business, weekday=weekday, opens_at=dt.time(9), closes_at=dt.time(17)
        )
    return business


@pytest.fixture
def haircut(salon):
    return ServiceFactory(
        business=salon,
        name="Haircut",
        duration_minutes=60,
        buffer_after_minutes=0,
        list_price=Decimal("60.00"),
        price_floor=Decimal("50.00"),
    )


def lisbon(day: dt.date, wall: str) -> dt.datetime:
    from zoneinfo import ZoneInfo

    return wall_to_instant(day, dt.time.fromisoformat(wall), ZoneInfo("Europe/Lisbon"))
