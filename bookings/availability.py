"""Availability, decided on plain values: which start times a service can be booked at.

Nothing here reads the database or the clock; ``bookings.selectors`` gathers the inputs and
``bookings.services`` books through the same predicate, so every slot offered can be booked
and nothing is booked that would not be offered.

Time: opening hours are wall-clock times in the business's IANA zone; everything else is an
aware instant. Slots step in real time from each opening, so a day with a DST change has the
real number of minutes in it:
- spring forward: wall times inside the gap do not exist. An opening or closing time in the gap
  resolves to the moment the clocks jump, and the slot grid simply passes over the missing hour;
- fall back: wall times in the repeated hour exist twice. An opening time means its first
  occurrence and a closing time its second, so a range spanning the repeat gets both hours.
"""

import datetime as dt
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from bookings.time_ranges import TimeRange

UTC = dt.UTC


@dataclass(frozen=True, slots=True)
class Interval:
    """A half-open span of time [start, end) between aware instants."""

    start: dt.datetime
    end: dt.datetime

    def overlaps(self, other: "Interval") -> bool:
        return self.start < other.end and other.start < self.end


@dataclass(frozen=True, slots=True)
class BookingRules:
    time_zone: ZoneInfo
    capacity: int
    min_notice: dt.timedelta
    horizon_days: int
    slot_interval: dt.timedelta


@dataclass(frozen=True, slots=True)
class ServiceShape:
    duration: dt.timedelta
    buffer_before: dt.timedelta = dt.timedelta(0)
    buffer_after: dt.timedelta = dt.timedelta(0)

    def appointment(self, start: dt.datetime) -> Interval:
        return Interval(start, start + self.duration)

    def occupancy(self, start: dt.datetime) -> Interval:
        """The time an appointment starting at ``start`` keeps a place busy: itself and its
        buffers. Two appointments conflict when their occupancies overlap."""
        return Interval(start - self.buffer_before, start + self.duration + self.buffer_after)


@dataclass(frozen=True)
class Schedule:
    """Weekly hours (Monday = 0) and date overrides; an override with no ranges is a closure."""

    weekly: Mapping[int, Sequence[TimeRange]]
    overrides: Mapping[dt.date, Sequence[TimeRange]] = field(default_factory=dict)

    def ranges_on(self, day: dt.date) -> Sequence[TimeRange]:
        if day in self.overrides:
            return self.overrides[day]
        return self.weekly.get(day.weekday(), ())


class OccupancyIndex:
    """Occupied intervals, each with the seat it sits in (None when unknown, as for a hold),
    indexed so finding those that overlap a window is a bisection, not a scan of every
    appointment."""

    def __init__(self, intervals: Iterable[Interval | tuple[Interval, int | None]]) -> None:
        entries = [i if isinstance(i, tuple) else (i, None) for i in intervals]
        entries.sort(key=lambda entry: entry[0].start)
        self._entries = entries
        self._starts = [interval.start for interval, _ in entries]
        self._longest = max((i.end - i.start for i, _ in entries), default=dt.timedelta(0))

    def overlapping(self, window: Interval) -> Iterator[tuple[Interval, int | None]]:
        first = bisect_left(self._starts, window.start - self._longest)
        last = bisect_left(self._starts, window.end)
        for entry in self._entries[first:last]:
            if entry[0].end > window.start:
                yield entry

    def count_overlapping(self, window: Interval) -> int:
        return sum(1 for _ in self.overlapping(window))

    def any_overlapping(self, window: Interval) -> bool:
        return next(self.overlapping(window), None) is not None

    def seats_overlapping(self, window: Interval) -> set[int]:
        return {seat for _, seat in self.overlapping(window) if seat is not None}


@dataclass(frozen=True)
class Taken:
    """What already uses the calendar.

    - seated: appointments (buffers included), each in one place (seat) of the capacity;
    - held: other clients' holds, each taking some place for its time;
    - blocked: busy blocks, which close the business for their duration.
    """

    seated: OccupancyIndex
    held: OccupancyIndex
    blocked: OccupancyIndex

    @classmethod
    def of(
        cls,
        held: Iterable[Interval] = (),
        blocked: Iterable[Interval] = (),
        seated: Iterable[tuple[Interval, int]] = (),
    ) -> "Taken":
        return cls(OccupancyIndex(seated), OccupancyIndex(held), OccupancyIndex(blocked))


def has_room(window: Interval, taken: Taken, capacity: int) -> bool:
    """The capacity rule, shared by availability and by booking: no busy block overlaps the
    window, and a place stays free for all of it. Places are seats: appointments in the same
    seat never overlap, so a chair busy with three short visits is one place in use, not three.
    Each overlapping hold is counted as taking a place of its own."""
    if taken.blocked.any_overlapping(window):
        return False
    in_use = len(taken.seated.seats_overlapping(window)) + taken.held.count_overlapping(window)
    return in_use < capacity


def wall_to_instant(
    day: dt.date, wall: dt.time, tz: ZoneInfo, *, latest: bool = False
) -> dt.datetime:
    """The UTC instant of a wall-clock time on ``day`` in ``tz``.

    A repeated wall time (fall back) gives its first occurrence, or its second when ``latest``;
    a wall time in a spring-forward gap gives the instant the clocks jump.
    """
    naive = dt.datetime.combine(day, wall)
    first, second = (naive.replace(tzinfo=tz, fold=fold).astimezone(UTC) for fold in (0, 1))
    if first == second:
        return first
    earlier, later = min(first, second), max(first, second)
    if _wall_time(earlier, tz) == naive:  # exists twice: the repeated hour
        return later if latest else earlier
    return _first_instant_after_wall(naive, earlier, later, tz)


def _wall_time(instant: dt.datetime, tz: ZoneInfo) -> dt.datetime:
    return instant.astimezone(tz).replace(tzinfo=None)


def _first_instant_after_wall(
    naive: dt.datetime, low: dt.datetime, high: dt.datetime, tz: ZoneInfo
) -> dt.datetime:
    """The transition inside a gap: the first instant whose wall time is past ``naive``.
    Instants before it read earlier than the gap, instants from it on read later."""
    while high - low > dt.timedelta(seconds=1):
        middle = low + (high - low) / 2
        if _wall_time(middle, tz) > naive:
            high = middle
        else:
            low = middle
    return high.replace(microsecond=0)


def candidate_starts(
    day: dt.date, schedule: Schedule, service: ServiceShape, rules: BookingRules
) -> Iterator[dt.datetime]:
    """Start instants on ``day`` at which the appointment itself fits inside an open range."""
    for opens, closes in schedule.ranges_on(day):
        start = wall_to_instant(day, opens, rules.time_zone)
        closing = wall_to_instant(day, closes, rules.time_zone, latest=True)
        while start + service.duration <= closing:
            yield start
            start += rules.slot_interval


def bookable_days(
    first_day: dt.date, last_day: dt.date, now: dt.datetime, rules: BookingRules
) -> Iterator[dt.date]:
    """The days of [first_day, last_day] inside the booking horizon, in the business's zone."""
    today = now.astimezone(rules.time_zone).date()
    day = max(first_day, today)
    last = min(last_day, today + dt.timedelta(days=rules.horizon_days))
    while day <= last:
        yield day
        day += dt.timedelta(days=1)


def open_slots(
    *,
    rules: BookingRules,
    schedule: Schedule,
    service: ServiceShape,
    taken: Taken,
    now: dt.datetime,
    first_day: dt.date,
    last_day: dt.date,
) -> list[Interval]:
    """Every start the service can be booked at between two days (inclusive, business zone),
    as appointment intervals in UTC, in time order."""
    earliest = now + rules.min_notice
    return [
        service.appointment(start)
        for day in bookable_days(first_day, last_day, now, rules)
        for start in candidate_starts(day, schedule, service, rules)
        if start >= earliest and has_room(service.occupancy(start), taken, rules.capacity)
    ]


def is_open_slot(
    start: dt.datetime,
    *,
    rules: BookingRules,
    schedule: Schedule,
    service: ServiceShape,
    taken: Taken,
    now: dt.datetime,
) -> bool:
    """Whether ``start`` is one of the slots ``open_slots`` offers (the same rules, one day)."""
    day = start.astimezone(rules.time_zone).date()
    slots = open_slots(
        rules=rules,
        schedule=schedule,
        service=service,
        taken=taken,
        now=now,
        first_day=day,
        last_day=day,
    )
    return any(slot.start == start for slot in slots)


def lock_days(occupancy: Interval, tz: ZoneInfo) -> list[dt.date]:
    """The business-zone days an occupancy touches, in order: the keys of the booking locks.
    Two occupancies that overlap always share one of these days, so they share a lock."""
    first = occupancy.start.astimezone(tz).date()
    last = (occupancy.end - dt.timedelta(microseconds=1)).astimezone(tz).date()
    return [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]


def free_seat(window: Interval, taken: Taken, capacity: int) -> int:
    """The lowest place (1..capacity) no overlapping appointment sits in.

    When ``has_room`` holds, fewer than ``capacity`` seats are in use over the window, so one
    is free (pigeonhole, even if an appointment sits in a seat above a since-lowered capacity);
    the database's exclusion constraint on (business, seat, occupancy) is the backstop.
    """
    busy = taken.seated.seats_overlapping(window)
    for seat in range(1, capacity + 1):
        if seat not in busy:
            return seat
    raise ValueError("no free seat: the capacity check must run first")
