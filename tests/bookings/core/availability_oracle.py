"""The availability rules as they were written before they were made fast: aware datetimes,
``Interval`` objects, and a scan of every occupancy that could reach a window. Slow, and plain
enough to be read as the definition; ``test_fast_availability.py`` holds
``bookings.availability`` to give exactly what this gives.

Only what decides is here. Wall times, days and the value types (``wall_to_instant``,
``bookable_days``, ``Interval``, ``BookingRules``, ``Schedule``, ``ServiceShape``) are the
production ones: the fast path did not change them.
"""

import datetime as dt
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bookings.availability import (
    BookingRules,
    Interval,
    Schedule,
    ServiceShape,
    bookable_days,
    wall_to_instant,
)


class OccupancyIndex:
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
    if taken.blocked.any_overlapping(window):
        return False
    in_use = len(taken.seated.seats_overlapping(window)) + taken.held.count_overlapping(window)
    return in_use < capacity


def candidate_starts(
    day: dt.date, schedule: Schedule, service: ServiceShape, rules: BookingRules
) -> Iterator[dt.datetime]:
    for opens, closes in schedule.ranges_on(day):
        start = wall_to_instant(day, opens, rules.time_zone)
        closing = wall_to_instant(day, closes, rules.time_zone, latest=True)
        while start + service.duration <= closing:
            yield start
            start += rules.slot_interval


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
    earliest = now + rules.min_notice
    return [
        service.appointment(start)
        for day in bookable_days(first_day, last_day, now, rules)
        for start in candidate_starts(day, schedule, service, rules)
        if start >= earliest and has_room(service.occupancy(start), taken, rules.capacity)
    ]


def free_seat(window: Interval, taken: Taken, capacity: int) -> int:
    busy = taken.seated.seats_overlapping(window)
    for seat in range(1, capacity + 1):
        if seat not in busy:
            return seat
    raise ValueError("no free seat: the capacity check must run first")
