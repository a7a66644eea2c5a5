import datetime as dt

import pytest
import time_machine

from bookings.availability import wall_to_instant
from tests.factories import haircut_at, one_chair_salon

# Monday 30 November 2026, 08:00 UTC (08:00 in Lisbon). Wednesday 2 December is bookable.
NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
WEDNESDAY = dt.date(2026, 12, 2)


@pytest.fixture
def frozen_now():
    with time_machine.travel(NOW, tick=False):
        yield NOW


@pytest.fixture
def salon(db):
    return one_chair_salon()


@pytest.fixture
def haircut(salon):
    return haircut_at(salon)


def lisbon(day: dt.date, wall: str) -> dt.datetime:
    from zoneinfo import ZoneInfo

    return wall_to_instant(day, dt.time.fromisoformat(wall), ZoneInfo("Europe/Lisbon"))
