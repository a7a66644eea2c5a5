"""The dayparts a client names ("the afternoon", "por la tarde") as windows of the business's own
opening hours, so a clinic open 09:00–13:00 and 15:00–19:00 reads "the afternoon" as 15:00–19:00.

The rule, for one weekday's open ranges:

* morning — the open time before 12:00; a range that opens before 12:00 and closes by 14:00
  (a morning session, "09:00–13:00") is morning to its close;
* midday — the open time from 12:00 to 15:00;
* afternoon — the open time from 12:00 to 19:00, less the morning sessions;
* evening — the open time from 19:00 on.

Each window runs from the first open minute in it to the last (a lunch break inside is the
core's to skip, as it skips any closed time). Every daypart of a day with no opening hours is
the fixed window: morning 09:00–12:00, midday 12:00–15:00, afternoon 12:00–17:00, evening
17:00–20:00 — the offer then finds what it finds.

A daypart with no open time on a day that has opening hours is closed, and read as such: the
longest stretch of its fixed window in which the business is closed ("the afternoon" of a day
open 09:00–13:00 is 13:00–17:00). The core then finds nothing open in it and says so, rather
than offering 12:00 of the morning session as the afternoon; the window is never empty, so a
reader of it still sees a window (start before end), never an exact time.
"tonight" is the evening. Date overrides are not read: the weekly hours are what clients mean.
Pure: the caller reads the opening hours.
"""

from collections.abc import Iterable, Mapping, Sequence
from datetime import time

DaypartWindows = Mapping[str, tuple[time, time]]

NOON = time(12)
MORNING_SESSION_CLOSES_BY = time(14)
MIDDAY_ENDS = time(15)
EVENING_STARTS = time(19)

FIXED_DAYPARTS: DaypartWindows = {
    "morning": (time(9), NOON),
    "midday": (NOON, MIDDAY_ENDS),
    "afternoon": (NOON, time(17)),
    "evening": (time(17), time(20)),
    "tonight": (time(17), time(20)),
}


def dayparts_from_opening(ranges: Sequence[tuple[time, time]]) -> dict[str, tuple[time, time]]:
    """The daypart windows of a day open in ``ranges`` (opens, closes), by the module's rule."""
    pieces: dict[str, list[tuple[time, time]]] = {part: [] for part in FIXED_DAYPARTS}
    for opens, closes in sorted(ranges):
        morning_session = opens < NOON and closes <= MORNING_SESSION_CLOSES_BY
        if opens < NOON:
            pieces["morning"].append((opens, closes if morning_session else NOON))
        pieces["midday"].append((max(opens, NOON), min(closes, MIDDAY_ENDS)))
        if not morning_session:
            pieces["afternoon"].append((max(opens, NOON), min(closes, EVENING_STARTS)))
        pieces["evening"].append((max(opens, EVENING_STARTS), closes))
    pieces["tonight"] = pieces["evening"]
    windows = {}
    for part, fixed in FIXED_DAYPARTS.items():
        open_pieces = [(start, end) for start, end in pieces[part] if start < end]
        if open_pieces:
            windows[part] = (min(start for start, _ in open_pieces), max(e for _, e in open_pieces))
        else:
            windows[part] = _closed_stretch(fixed, ranges)
    return windows


def _closed_stretch(
    fixed: tuple[time, time], ranges: Sequence[tuple[time, time]]
) -> tuple[time, time]:
    """The longest part of ``fixed`` outside every open range (the fixed window when none
    overlaps it). A daypart with no open time always has one: see the module's rule."""
    gaps = [fixed]
    for opens, closes in ranges:
        gaps = [
            piece
            for start, end in gaps
            for piece in ((start, min(end, opens)), (max(start, closes), end))
            if piece[0] < piece[1]
        ]
    if not gaps:  # not reached by the rule; the fixed window rather than none
        return fixed
    return max(gaps, key=lambda gap: _minutes(gap[1]) - _minutes(gap[0]))


def _minutes(moment: time) -> int:
    return moment.hour * 60 + moment.minute


def weekly_dayparts(rows: Iterable[tuple[int, time, time]]) -> dict[int, DaypartWindows]:
    """The daypart windows of each weekday (0 is Monday) with opening hours, from the
    business's weekly rows (weekday, opens, closes); a weekday without rows is left out."""
    by_day: dict[int, list[tuple[time, time]]] = {}
    for weekday, opens, closes in rows:
        by_day.setdefault(weekday, []).append((opens, closes))
    return {weekday: dayparts_from_opening(ranges) for weekday, ranges in by_day.items()}
