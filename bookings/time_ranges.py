"""Overlap of time-of-day ranges, decided on plain values (shared by model and form checks)."""

import datetime as dt
from collections.abc import Iterable
from itertools import pairwise

TimeRange = tuple[dt.time, dt.time]


def first_overlap(ranges: Iterable[TimeRange]) -> tuple[TimeRange, TimeRange] | None:
    """The first two ranges (by start) that overlap, or None. Touching ranges do not overlap:
    09:00–13:00 and 13:00–17:00 are a day without a break."""
    for earlier, later in pairwise(sorted(ranges)):
        if later[0] < earlier[1]:
            return earlier, later
    return None
