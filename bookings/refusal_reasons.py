"""Why a start time cannot be booked, named rule by rule, on plain values.

``bookings.availability.is_open_slot`` answers yes or no; this module answers *which* rules a
refused start breaks, from the same inputs (rules, schedule, service, what is taken, now), so a
person booking by hand reads "outside opening hours" or "full — all 2 places are taken" instead
of a bare refusal. The two always agree: a start breaks no rule here exactly when it is an open
slot there (tests/bookings/dashboard/test_booking_by_hand_reasons.py holds them together).

It also decides what an owner's walk-in override may set aside: the calendar's rules (hours,
notice, horizon, grid, busy blocks), never a place that is not free ("full", "held") and never
a time already past. Nothing here reads the database or the clock.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bookings.availability import (
    BookingRules,
    Schedule,
    ServiceShape,
    Taken,
    candidate_starts,
    wall_to_instant,
)


class RefusalCode(StrEnum):
    PAST = "past"
    MIN_NOTICE = "min_notice"
    HORIZON = "horizon"
    CLOSED = "closed"
    OUTSIDE_HOURS = "outside_hours"
    OFF_GRID = "off_grid"
    BUSY = "busy"
    FULL = "full"
    HELD = "held"


# What a walk-in booked by an owner may set aside. Capacity ("full", "held": a client is about
# to book that place) is never among them: the exclusion constraint and the lock hold a place
# for one appointment, whoever books. A time already past is not a booking but a record.
OVERRIDABLE: frozenset[RefusalCode] = frozenset(
    {
        RefusalCode.MIN_NOTICE,
        RefusalCode.HORIZON,
        RefusalCode.CLOSED,
        RefusalCode.OUTSIDE_HOURS,
        RefusalCode.OFF_GRID,
        RefusalCode.BUSY,
    }
)


@dataclass(frozen=True, slots=True)
class Refusal:
    """One rule a start breaks: a stable code, and words for the person booking."""

    code: RefusalCode
    message: str

    @property
    def overridable(self) -> bool:
        return self.code in OVERRIDABLE


def slot_refusals(
    start: dt.datetime,
    *,
    rules: BookingRules,
    schedule: Schedule,
    service: ServiceShape,
    taken: Taken,
    now: dt.datetime,
) -> list[Refusal]:
    """Every rule ``start`` breaks, in the order a person would want them named: when (past,
    notice, horizon), then the day's hours and grid, then the calendar (busy, full, held).
    Empty exactly when ``is_open_slot`` holds for the same inputs."""
    tz = rules.time_zone
    day = start.astimezone(tz).date()
    today = now.astimezone(tz).date()
    found: list[Refusal] = []

    if start < now:
        found.append(Refusal(RefusalCode.PAST, "that time has already passed"))
    elif start < now + rules.min_notice:
        notice = _duration_words(rules.min_notice)
        found.append(Refusal(RefusalCode.MIN_NOTICE, f"within the minimum notice of {notice}"))
    if day > today + dt.timedelta(days=rules.horizon_days):
        days = _count(rules.horizon_days, "day")
        found.append(Refusal(RefusalCode.HORIZON, f"beyond the booking horizon of {days}"))

    found.extend(_hours_refusals(start, day, rules=rules, schedule=schedule, service=service))
    found.extend(_calendar_refusals(start, rules=rules, service=service, taken=taken))
    return found


def standing_refusal(refusals: Sequence[Refusal], *, walk_in: bool) -> Refusal | None:
    """The refusal that stands, or None when the start may be booked: with no refusal at all,
    or — for an owner's walk-in — when every one of them may be overridden. A walk-in that is
    refused is refused for a rule no override sets aside, and that is the one named."""
    if not refusals:
        return None
    if not walk_in:
        return refusals[0]
    return next((refusal for refusal in refusals if not refusal.overridable), None)


def _hours_refusals(
    start: dt.datetime,
    day: dt.date,
    *,
    rules: BookingRules,
    schedule: Schedule,
    service: ServiceShape,
) -> list[Refusal]:
    ranges = schedule.ranges_on(day)
    if not ranges:
        return [Refusal(RefusalCode.CLOSED, "the business is closed that day")]
    tz = rules.time_zone
    fits = any(
        wall_to_instant(day, opens, tz) <= start
        and start + service.duration <= wall_to_instant(day, closes, tz, latest=True)
        for opens, closes in ranges
    )
    if not fits:
        hours = ", ".join(f"{opens:%H:%M}–{closes:%H:%M}" for opens, closes in ranges)
        return [Refusal(RefusalCode.OUTSIDE_HOURS, f"outside opening hours ({hours} that day)")]
    if start not in set(candidate_starts(day, schedule, service, rules)):
        every = _duration_words(rules.slot_interval)
        return [
            Refusal(
                RefusalCode.OFF_GRID,
                f"not on the slot grid (a start every {every} from opening)",
            )
        ]
    return []


def _calendar_refusals(
    start: dt.datetime, *, rules: BookingRules, service: ServiceShape, taken: Taken
) -> list[Refusal]:
    # The same counting as availability.has_room, told apart: a busy block closes the time
    # outright; otherwise appointments' seats and other clients' holds share the capacity.
    window = service.occupancy(start)
    found: list[Refusal] = []
    if taken.blocked.any_overlapping(window):
        found.append(
            Refusal(
                RefusalCode.BUSY,
                "marked busy (an event in the connected calendar, or a busy block)",
            )
        )
    seated = len(taken.seated.seats_overlapping(window))
    if seated >= rules.capacity:
        places = (
            "the only place is taken"
            if rules.capacity == 1
            else f"all {rules.capacity} places are taken"
        )
        found.append(Refusal(RefusalCode.FULL, f"full — {places}"))
    elif seated + taken.held.count_overlapping(window) >= rules.capacity:
        found.append(Refusal(RefusalCode.HELD, "held by a client right now"))
    return found


def _count(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def _duration_words(span: dt.timedelta) -> str:
    minutes = int(span.total_seconds() // 60)
    hours, rest = divmod(minutes, 60)
    if hours and not rest:
        return _count(hours, "hour")
    if hours:
        return f"{_count(hours, 'hour')} {_count(rest, 'minute')}"
    return _count(minutes, "minute")
