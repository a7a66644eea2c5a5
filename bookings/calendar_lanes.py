"""Where each entry of the owner's calendar sits: in which lane (one lane per place of the
business's capacity) and across which rows of the day's time grid.

Decided on plain values: no database, no clock, no Django. ``dashboard.admin.calendar`` reads
the rows and draws what this module decides.

Lanes: entries that overlap in time go to different lanes, and an entry takes the lowest lane
free when it starts. Entries are taken in a fixed order (start, end, key), so the same entries
always land in the same lanes, and no more lanes are used than the most entries running at one
instant (greedy interval partitioning, which is optimal). Spans are half-open: one visit ending
at 10:00 and the next starting at 10:00 share a lane.

Rows: the grid counts wall-clock minutes in the business's zone from the day's midnight, in
steps of ``ROW_MINUTES``; it spans whole hours, from the earliest opening or entry to the latest
closing or entry.
"""

import datetime as dt
import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bookings.time_ranges import TimeRange

ROW_MINUTES = 5
DAY_MINUTES = 24 * 60
# The hours a day with no hours and no entries shows.
DEFAULT_HOURS = (8 * 60, 18 * 60)

MinuteRange = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Span:
    """Something that takes a place for a while: an appointment or a hold. ``key`` is unique
    among the spans laid out together and breaks ties, so the layout is deterministic."""

    key: str
    start: dt.datetime
    end: dt.datetime


def assign_lanes(spans: Iterable[Span]) -> dict[str, int]:
    """Each span's lane, numbered from 0."""
    lanes: dict[str, int] = {}
    running: list[tuple[dt.datetime, int]] = []  # (end, lane) of spans still running
    free: list[int] = []
    opened = 0
    for span in sorted(spans, key=lambda s: (s.start, s.end, s.key)):
        while running and running[0][0] <= span.start:
            heapq.heappush(free, heapq.heappop(running)[1])
        if free:
            lane = heapq.heappop(free)
        else:
            lane, opened = opened, opened + 1
        lanes[span.key] = lane
        heapq.heappush(running, (span.end, lane))
    return lanes


def most_overlapping(spans: Iterable[Span]) -> int:
    """The most spans running at one instant (0 for none)."""
    edges = sorted(
        [(span.start, 1) for span in spans] + [(span.end, -1) for span in spans],
        # An end sorts before a start at the same instant: half-open spans that touch do not
        # overlap.
        key=lambda edge: (edge[0], edge[1]),
    )
    most = running = 0
    for _, step in edges:
        running += step
        most = max(most, running)
    return most


def minute_of_day(instant: dt.datetime, day: dt.date, tz: ZoneInfo) -> int:
    """Wall-clock minutes from ``day``'s midnight in ``tz`` to ``instant``, clamped to the day:
    0 for an instant before it, 1440 for one after it."""
    local = instant.astimezone(tz)
    if local.date() < day:
        return 0
    if local.date() > day:
        return DAY_MINUTES
    return local.hour * 60 + local.minute


def time_minutes(wall: dt.time) -> int:
    return wall.hour * 60 + wall.minute


@dataclass(frozen=True, slots=True)
class GridHours:
    """The part of the day the grid shows, in minutes after midnight, on whole hours."""

    first: int
    last: int

    @classmethod
    def covering(cls, ranges: Iterable[MinuteRange]) -> "GridHours":
        """The whole hours around every range given (opening hours and entries, each clamped
        to the day); ``DEFAULT_HOURS`` when there are none."""
        ranges = [(start, end) for start, end in ranges if end > start]
        if not ranges:
            return cls(*DEFAULT_HOURS)
        first = min(start for start, _ in ranges) // 60 * 60
        last = -(-max(end for _, end in ranges) // 60) * 60
        return cls(first, min(last, DAY_MINUTES))

    @property
    def rows(self) -> int:
        return (self.last - self.first) // ROW_MINUTES

    @property
    def hours(self) -> list[int]:
        """The minute at which each hour the grid shows begins."""
        return list(range(self.first, self.last, 60))

    def row_lines(self, start: int, end: int) -> tuple[int, int]:
        """The grid lines (numbered from 1) a range of minutes runs between, rounded outward to
        whole rows and kept inside the grid; at least one row tall."""
        start = min(max(start, self.first), self.last - ROW_MINUTES)
        end = min(max(end, start + ROW_MINUTES), self.last)
        first_row = (start - self.first) // ROW_MINUTES
        last_row = -(-(end - self.first) // ROW_MINUTES)
        return first_row + 1, last_row + 1


def closed_ranges(open_ranges: Sequence[TimeRange], hours: GridHours) -> list[MinuteRange]:
    """The parts of the grid's hours outside the day's opening ranges."""
    closed = []
    cursor = hours.first
    for opens, closes in sorted(open_ranges):
        start, end = time_minutes(opens), time_minutes(closes)
        if start > cursor:
            closed.append((cursor, min(start, hours.last)))
        cursor = max(cursor, end)
    if cursor < hours.last:
        closed.append((cursor, hours.last))
    return [(start, end) for start, end in closed if end > start]


# --- the board: days side by side, each split into the same number of lanes ------------------

# Row 1 of the grid holds the days' headings; the hours start on line 2. Column 1 holds the
# hours' labels; the first day's first lane is column 2.
HEADING_ROWS = 1
LABEL_COLUMNS = 1


@dataclass(frozen=True, slots=True)
class Cell:
    """One thing drawn on the board and the grid area it covers (lines numbered from 1, end
    lines exclusive, as CSS grid counts them)."""

    dom_id: str
    rows: tuple[int, int]
    columns: tuple[int, int]
    item: object = None

    @property
    def area(self) -> str:
        """The value of a CSS ``grid-area`` property: row-start / column-start / row-end /
        column-end."""
        return f"{self.rows[0]} / {self.columns[0]} / {self.rows[1]} / {self.columns[1]}"


@dataclass(frozen=True, slots=True)
class Timed:
    """Something with a time on the board. Spans (appointments, holds) take a lane; blocks
    (busy time) run across every lane of their day."""

    key: str
    start: dt.datetime
    end: dt.datetime
    item: object


@dataclass(frozen=True)
class DayPlan:
    day: dt.date
    open_ranges: Sequence[TimeRange]
    heading: Cell
    closed: list[Cell]
    blocks: list[Cell]
    entries: list[Cell]


@dataclass(frozen=True)
class Board:
    hours: GridHours
    lanes: int
    days: list[DayPlan]
    hour_labels: list[Cell]
    lane_backgrounds: list[Cell]

    @property
    def columns(self) -> int:
        return LABEL_COLUMNS + self.lanes * len(self.days)

    @property
    def rows(self) -> int:
        return HEADING_ROWS + self.hours.rows

    @property
    def lane_columns(self) -> int:
        return self.lanes * len(self.days)

    @property
    def is_empty(self) -> bool:
        return not any(plan.entries or plan.blocks for plan in self.days)

    def cells(self) -> list[Cell]:
        """Every cell, for the page's grid-area rules."""
        cells = [*self.hour_labels, *self.lane_backgrounds]
        for plan in self.days:
            cells += [plan.heading, *plan.closed, *plan.blocks, *plan.entries]
        return cells


def lay_out_board(
    *,
    days: Sequence[dt.date],
    tz: ZoneInfo,
    capacity: int,
    spans: Sequence[Timed],
    blocks: Sequence[Timed],
    open_ranges: Callable[[dt.date], Sequence[TimeRange]],
) -> Board:
    """The board of ``days``: one lane per place of ``capacity`` (more when more spans overlap
    than there are places, so nothing is hidden), every day on the same hours."""
    spans_of = {day: _on_day(spans, day, tz) for day in days}
    minutes_of = {
        day: [_minutes(timed, day, tz) for timed in day_spans]
        for day, day_spans in spans_of.items()
    }
    hours = GridHours.covering(
        [
            *((time_minutes(a), time_minutes(b)) for day in days for a, b in open_ranges(day)),
            *(minutes for day in days for minutes in minutes_of[day]),
        ]
    )
    lanes_of = {
        day: assign_lanes(Span(t.key, t.start, t.end) for t in day_spans)
        for day, day_spans in spans_of.items()
    }
    lanes = max([capacity, *(max(found.values(), default=-1) + 1 for found in lanes_of.values())])

    def row_lines(start: int, end: int) -> tuple[int, int]:
        first, last = hours.row_lines(start, end)
        return first + HEADING_ROWS, last + HEADING_ROWS

    def day_columns(index: int) -> tuple[int, int]:
        first = LABEL_COLUMNS + 1 + index * lanes
        return first, first + lanes

    plans = []
    for index, day in enumerate(days):
        columns = day_columns(index)
        prefix = f"d{index}"
        entries = [
            Cell(
                f"{prefix}-e{number}",
                row_lines(*minutes),
                (columns[0] + lanes_of[day][timed.key], columns[0] + lanes_of[day][timed.key] + 1),
                timed.item,
            )
            for number, (timed, minutes) in enumerate(
                zip(spans_of[day], minutes_of[day], strict=True)
            )
        ]
        plans.append(
            DayPlan(
                day=day,
                open_ranges=open_ranges(day),
                heading=Cell(f"{prefix}-h", (1, 2), columns, day),
                closed=[
                    Cell(f"{prefix}-c{number}", row_lines(start, end), columns)
                    for number, (start, end) in enumerate(closed_ranges(open_ranges(day), hours))
                ],
                blocks=[
                    Cell(
                        f"{prefix}-b{number}",
                        row_lines(*_minutes(timed, day, tz)),
                        columns,
                        timed.item,
                    )
                    for number, timed in enumerate(_on_day(blocks, day, tz))
                ],
                entries=entries,
            )
        )
    return Board(
        hours=hours,
        lanes=lanes,
        days=plans,
        hour_labels=[
            Cell(f"h{minute}", row_lines(minute, minute + 60), (1, 2), f"{minute // 60:02d}:00")
            for minute in hours.hours
        ],
        lane_backgrounds=[
            Cell(
                f"d{index}-l{lane}",
                row_lines(hours.first, hours.last),
                (first + lane, first + lane + 1),
                lane,
            )
            for index in range(len(days))
            for first in [day_columns(index)[0]]
            for lane in range(lanes)
        ],
    )


def _on_day(timed: Sequence[Timed], day: dt.date, tz: ZoneInfo) -> list[Timed]:
    """What runs during ``day`` (in ``tz``), in the order it starts."""
    found = [
        t
        for t in timed
        if t.start.astimezone(tz).date() <= day and t.end.astimezone(tz) > _midnight(day, tz)
    ]
    return sorted(found, key=lambda t: (t.start, t.end, t.key))


def _midnight(day: dt.date, tz: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tzinfo=tz)


def _minutes(timed: Timed, day: dt.date, tz: ZoneInfo) -> MinuteRange:
    return minute_of_day(timed.start, day, tz), minute_of_day(timed.end, day, tz)
