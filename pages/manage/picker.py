"""The reschedule picker's day: which day is shown, and the days either side of it, within the
days a client may book (today to the booking horizon, in the business's zone). Pure.

A day the client typed is read as ``YYYY-MM-DD`` only; anything else, or a day outside the
bookable ones, is not guessed at: the picker says so and shows the nearest day it can.
"""

import datetime as dt
import re
from dataclasses import dataclass

DAY_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class DayProblem:
    """Why the asked-for day is not the one shown."""

    unreadable: bool  # not a YYYY-MM-DD date at all
    too_early: bool  # before today
    too_late: bool  # past the booking horizon


@dataclass(frozen=True)
class PickerDay:
    day: dt.date
    first: dt.date  # today, in the business's zone
    last: dt.date  # the last day the horizon reaches
    problem: DayProblem | None = None

    @property
    def previous(self) -> dt.date | None:
        return self.day - dt.timedelta(days=1) if self.day > self.first else None

    @property
    def next(self) -> dt.date | None:
        return self.day + dt.timedelta(days=1) if self.day < self.last else None


def read_day(text: str) -> dt.date | None:
    if not DAY_SHAPE.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def picker_day(
    asked: str | None, *, today: dt.date, horizon_days: int, appointment_day: dt.date
) -> PickerDay:
    """The day to show: the one asked for if it can be booked; with nothing asked, the
    appointment's own day (or today, if that has passed)."""
    last = today + dt.timedelta(days=horizon_days)
    if asked is None or asked == "":
        return PickerDay(min(max(appointment_day, today), last), today, last)
    day = read_day(asked)
    if day is None:
        problem = DayProblem(unreadable=True, too_early=False, too_late=False)
        return PickerDay(min(max(appointment_day, today), last), today, last, problem)
    if day < today:
        return PickerDay(today, today, last, DayProblem(False, too_early=True, too_late=False))
    if day > last:
        return PickerDay(last, today, last, DayProblem(False, too_early=False, too_late=True))
    return PickerDay(day, today, last)
