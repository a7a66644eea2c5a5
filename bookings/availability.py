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

Inside, what is taken and the windows tested against it are whole microseconds since the
epoch (``to_micros``: exact, since datetimes have microsecond resolution), so the thousands of
tests a 90-day request makes compare integers; the slots offered are the same aware UTC
instants stepping datetimes would give (tests/bookings/core/test_fast_availability.py holds
this module to the plain datetime rules it replaced).
"""

import datetime as dt
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate
from operator import itemgetter
from zoneinfo import ZoneInfo

from bookings.time_ranges import TimeRange

UTC = dt.UTC
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = dt.timedelta(microseconds=1)


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


def to_micros(instant: dt.datetime) -> int:
    """An aware instant as whole microseconds since the Unix epoch: exact (datetimes have
    microsecond resolution), and compared and added as plain integers in the hot loops."""
    delta = instant - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(micros: int) -> dt.datetime:
    """The aware UTC instant ``micros`` microseconds after the epoch (inverse of ``to_micros``)."""
    return EPOCH + dt.timedelta(microseconds=micros)


def span_micros(span: dt.timedelta) -> int:
    return span // MICROSECOND


# Spans in epoch microseconds as two columns: starts, and the end of each (ends[i] belongs to
# starts[i]), in any order. The calendar read returns them so: one group per seat, not a row
# per appointment, which saves building 10,000 tuples only to take them apart again.
Columns = tuple[Sequence[int], Sequence[int]]


class _Lane:
    """Spans in order of start with the running maximum of their ends ("reach"), so whether
    any of them overlaps [a, b) is one bisection: those starting before b are a prefix, and one
    of them ends after a exactly when the prefix's reach does. Exact whatever the spans are,
    even when two of them overlap (one seat booked twice by hand, or data from a test)."""

    __slots__ = ("ends", "reach", "starts")

    def __init__(self, starts: Sequence[int], ends: Sequence[int]) -> None:
        if len(starts) != len(ends):
            raise ValueError("every span needs a start and an end")
        if all(map(int.__le__, starts, starts[1:])):
            self.starts, self.ends = list(starts), list(ends)
        else:
            order = sorted(range(len(starts)), key=starts.__getitem__)
            self.starts, self.ends = [starts[i] for i in order], [ends[i] for i in order]
        self.reach = list(accumulate(self.ends, max))

    def busy(self, a: int, b: int) -> bool:
        before_b = bisect_left(self.starts, b)
        return before_b > 0 and self.reach[before_b - 1] > a


class OccupancyIndex:
    """Occupied intervals, each with the seat it sits in (None when unknown, as for a hold),
    indexed so that what overlaps a window is found by bisection, not by a scan of every
    appointment. Kept in epoch microseconds (``to_micros``); windows given as ``Interval``
    are converted on the way in.

    - which seats are in use: one bisection per seat that has spans (a ``_Lane`` each);
    - whether any overlaps: one bisection over all spans (one ``_Lane`` of them all);
    - how many overlap: those starting before b, less those ending by a (when every span ends
      after it starts and a < b, the latter are all among the former): two bisections.

    The structures over all spans are built the first time they are asked for: availability
    asks seated appointments only for their seats, holds and blocks for counts and overlaps.
    """

    def __init__(self, intervals: Iterable[Interval | tuple[Interval, int | None]]) -> None:
        groups: dict[int | None, tuple[list[int], list[int]]] = {}
        for item in intervals:
            interval, seat = item if isinstance(item, tuple) else (item, None)
            starts, ends = groups.setdefault(seat, ([], []))
            starts.append(to_micros(interval.start))
            ends.append(to_micros(interval.end))
        self._index(groups.items())

    @classmethod
    def of_micros(cls, groups: Iterable[tuple[int | None, Columns]]) -> "OccupancyIndex":
        """An index of spans already in epoch microseconds: (seat, columns) pairs, one per
        seat (None: no seat)."""
        index = cls.__new__(cls)
        index._index(groups)
        return index

    def _index(self, groups: Iterable[tuple[int | None, Columns]]) -> None:
        lanes = {seat: _Lane(*columns) for seat, columns in groups if columns[0]}
        self._lanes = lanes
        self._seats = {seat: lanes[seat] for seat in sorted(s for s in lanes if s is not None)}
        self._size = sum(len(lane.starts) for lane in lanes.values())

    def __len__(self) -> int:
        return self._size

    @cached_property
    def _spans(self) -> list[tuple[int, int, int | None]]:
        """Every span as (start, end, seat), in order of start."""
        spans = [
            (start, end, seat)
            for seat, lane in self._lanes.items()
            for start, end in zip(lane.starts, lane.ends, strict=True)
        ]
        spans.sort(key=itemgetter(0))
        return spans

    @cached_property
    def _all(self) -> _Lane:
        if len(self._lanes) == 1:
            [lane] = self._lanes.values()
            return lane
        return _Lane([start for start, _, _ in self._spans], [end for _, end, _ in self._spans])

    @cached_property
    def _ends_sorted(self) -> list[int]:
        return sorted([end for _, end, _ in self._spans])

    @cached_property
    def _well_formed(self) -> bool:
        return all(start < end for start, end, _ in self._spans)

    # --- on epoch microseconds: the hot loops ------------------------------------------------

    def any_between(self, a: int, b: int) -> bool:
        return self._all.busy(a, b)

    def count_between(self, a: int, b: int) -> int:
        before_b = bisect_left(self._all.starts, b)
        if self._well_formed and a < b:
            return before_b - bisect_right(self._ends_sorted, a)
        return sum(1 for end in self._all.ends[:before_b] if end > a)

    def seat_busy_between(self, seat: int, a: int, b: int) -> bool:
        lane = self._seats.get(seat)
        return lane is not None and lane.busy(a, b)

    def seats_between(self, a: int, b: int) -> set[int]:
        return {seat for seat, lane in self._seats.items() if lane.busy(a, b)}

    def seat_lanes(self) -> list[_Lane]:
        return list(self._seats.values())

    # --- on intervals ------------------------------------------------------------------------

    def overlapping(self, window: Interval) -> Iterator[tuple[Interval, int | None]]:
        a, b = to_micros(window.start), to_micros(window.end)
        for start, end, seat in self._spans[: bisect_left(self._all.starts, b)]:
            if end > a:
                yield Interval(from_micros(start), from_micros(end)), seat

    def count_overlapping(self, window: Interval) -> int:
        return self.count_between(to_micros(window.start), to_micros(window.end))

    def any_overlapping(self, window: Interval) -> bool:
        return self.any_between(to_micros(window.start), to_micros(window.end))

    def seats_overlapping(self, window: Interval) -> set[int]:
        return self.seats_between(to_micros(window.start), to_micros(window.end))


NOTHING: Columns = ((), ())


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

    @classmethod
    def of_micros(
        cls,
        held: Columns = NOTHING,
        blocked: Columns = NOTHING,
        seated: Mapping[int, Columns] | None = None,
    ) -> "Taken":
        """The same from epoch microseconds, as the calendar read returns them: appointments
        as columns per seat, holds and blocks as columns."""
        return cls(
            OccupancyIndex.of_micros((seat, columns) for seat, columns in (seated or {}).items()),
            OccupancyIndex.of_micros([(None, held)]),
            OccupancyIndex.of_micros([(None, blocked)]),
        )


def has_room(window: Interval, taken: Taken, capacity: int) -> bool:
    """The capacity rule, shared by availability and by booking: no busy block overlaps the
    window, and a place stays free for all of it. Places are seats: appointments in the same
    seat never overlap, so a chair busy with three short visits is one place in use, not three.
    Each overlapping hold is counted as taking a place of its own."""
    return _room_test(taken, capacity)(to_micros(window.start), to_micros(window.end))


def _room_test(taken: Taken, capacity: int) -> Callable[[int, int], bool]:
    """``has_room`` on epoch microseconds, with what does not change from window to window
    looked up once: the loop over every candidate start calls it thousands of times."""
    blocked = taken.blocked.any_between if len(taken.blocked) else None
    held = taken.held.count_between if len(taken.held) else None
    lanes = [(lane.starts, lane.reach) for lane in taken.seated.seat_lanes()]

    def room(a: int, b: int) -> bool:
        if blocked is not None and blocked(a, b):
            return False
        in_use = held(a, b) if held is not None else 0
        if in_use >= capacity:
            return False
        for starts, reach in lanes:  # _Lane.busy, inlined: a call per seat would cost more
            before_b = bisect_left(starts, b)
            if before_b and reach[before_b - 1] > a:
                in_use += 1
                if in_use >= capacity:
                    return False
        return True

    return room


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
    for start, closing in _open_ranges(day, schedule, rules.time_zone):
        while start + service.duration <= closing:
            yield start
            start += rules.slot_interval


def _open_ranges(
    day: dt.date, schedule: Schedule, tz: ZoneInfo
) -> Iterator[tuple[dt.datetime, dt.datetime]]:
    """The instants each of the day's open ranges opens and closes (DST settled here, by
    ``wall_to_instant``); the slot grid steps in real time from the first."""
    for opens, closes in schedule.ranges_on(day):
        yield wall_to_instant(day, opens, tz), wall_to_instant(day, closes, tz, latest=True)


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
    earliest = to_micros(now + rules.min_notice)
    duration = span_micros(service.duration)
    before, after = span_micros(service.buffer_before), span_micros(service.buffer_after)
    step = span_micros(rules.slot_interval)
    room = _room_test(taken, rules.capacity)
    slots = []
    for day in bookable_days(first_day, last_day, now, rules):
        for start_at, closing_at in _open_ranges(day, schedule, rules.time_zone):
            # The grid of candidate_starts, stepped twice in step: as epoch microseconds for
            # the tests, and as the aware instant an offered slot is made of (adding a
            # timedelta to a datetime costs far less than making one from an integer).
            start, closing = to_micros(start_at), to_micros(closing_at)
            while start + duration <= closing:
                if start >= earliest and room(start - before, start + duration + after):
                    slots.append(Interval(start_at, start_at + service.duration))
                start += step
                start_at += rules.slot_interval
    return slots


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
    a, b = to_micros(window.start), to_micros(window.end)
    for seat in range(1, capacity + 1):
        if not taken.seated.seat_busy_between(seat, a, b):
            return seat
    raise ValueError("no free seat: the capacity check must run first")
