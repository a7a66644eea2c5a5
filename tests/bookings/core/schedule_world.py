"""A week with exceptions, shared by the schedule-reading test and its SQLite script."""

import datetime as dt

from bench.harness import open_salon
from bookings.availability import Schedule
from bookings.models import DateOverride, OpeningHours

MONDAY = dt.date(2026, 12, 7)
SUNDAY = MONDAY + dt.timedelta(days=6)


def week_with_exceptions():
    """Open 09:00–17:00 every day, plus 18:00–20:00 on Thursdays; closed on Tuesday; 10:00–12:00
    and 14:00–16:00 on Wednesday; an override outside the week that must not be read."""
    business = open_salon(slug="schedule-salon")
    OpeningHours.objects.create(
        business=business, weekday=3, opens_at=dt.time(18), closes_at=dt.time(20)
    )
    tuesday, wednesday = MONDAY + dt.timedelta(days=1), MONDAY + dt.timedelta(days=2)
    DateOverride.objects.create(business=business, date=tuesday)
    for opens, closes in ((14, 16), (10, 12)):
        DateOverride.objects.create(
            business=business, date=wednesday, opens_at=dt.time(opens), closes_at=dt.time(closes)
        )
    DateOverride.objects.create(business=business, date=SUNDAY + dt.timedelta(days=1))
    return business


def as_json(schedule: Schedule) -> dict:
    def ranges(found) -> list[list[str]]:
        return [[opens.isoformat(), closes.isoformat()] for opens, closes in found]

    return {
        "weekly": {str(day): ranges(found) for day, found in sorted(schedule.weekly.items())},
        "overrides": {
            day.isoformat(): ranges(found) for day, found in sorted(schedule.overrides.items())
        },
    }
