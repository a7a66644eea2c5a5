"""The date range an analytics page covers, from the query string: whole days in one time zone,
the last 30 by default, at most 366. Pure: a refused range says why, in words for the owner.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bookings.availability import wall_to_instant

DEFAULT_DAYS = 30
MAX_DAYS = 366
MIDNIGHT = dt.time(0)


class PeriodRefused(ValueError):
    """A range the page cannot show; the message says why."""


@dataclass(frozen=True)
class Period:
    first: dt.date
    last: dt.date  # included

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    def bounds(self, zone: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
        """The instants [start, end) of the period's days in ``zone``."""
        end_day = self.last + dt.timedelta(days=1)
        return wall_to_instant(self.first, MIDNIGHT, zone), wall_to_instant(end_day, MIDNIGHT, zone)

    def week_starts(self) -> list[dt.date]:
        """The Monday of every week the period touches, in order."""
        monday = self.first - dt.timedelta(days=self.first.weekday())
        weeks = []
        while monday <= self.last:
            weeks.append(monday)
            monday += dt.timedelta(days=7)
        return weeks


def default_period(today: dt.date) -> Period:
    return Period(today - dt.timedelta(days=DEFAULT_DAYS - 1), today)


def period_from(query: Mapping[str, str], *, today: dt.date) -> Period:
    """The period ``from``/``to`` (YYYY-MM-DD) name; either left out, the default's."""
    default = default_period(today)
    first = _date(query.get("from", ""), "start", default.first)
    last = _date(query.get("to", ""), "end", default.last)
    if first > last:
        raise PeriodRefused("The start date is after the end date.")
    if (last - first).days + 1 > MAX_DAYS:
        raise PeriodRefused(f"A range is at most {MAX_DAYS} days; choose a shorter one.")
    return Period(first, last)


def _date(text: str, which: str, default: dt.date) -> dt.date:
    text = text.strip()
    if not text:
        return default
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise PeriodRefused(f"The {which} date is not a date like 2026-12-31.") from None
    if not dt.date(2000, 1, 1) <= day <= dt.date(2999, 12, 31):
        raise PeriodRefused(f"The {which} date is out of range.")
    return day
