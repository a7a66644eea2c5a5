"""Where the calendar draws each entry, decided on plain values: overlapping entries never share
a lane, no more lanes are used than entries overlap, the same entries always land in the same
lanes, and the grid's rows follow the business's wall clock."""

import datetime as dt
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from bookings.calendar_lanes import (
    GridHours,
    Span,
    Timed,
    assign_lanes,
    closed_ranges,
    lay_out_board,
    minute_of_day,
    most_overlapping,
)

LISBON = ZoneInfo("Europe/Lisbon")
DAY = dt.date(2026, 12, 2)
BASE = dt.datetime(2026, 12, 2, 9, tzinfo=dt.UTC)


def at(minutes: int) -> dt.datetime:
    return BASE + dt.timedelta(minutes=minutes)


def span(key: str, start: int, end: int) -> Span:
    return Span(key, at(start), at(end))


def overlap(a: Span, b: Span) -> bool:
    return a.start < b.end and b.start < a.end


spans_strategy = st.lists(
    st.tuples(st.integers(0, 600), st.integers(5, 180)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=30,
).map(lambda pairs: [span(f"s{i}", start, end) for i, (start, end) in enumerate(pairs)])


@given(spans_strategy)
def test_no_two_overlapping_entries_share_a_lane(spans):
    lanes = assign_lanes(spans)

    assert set(lanes) == {s.key for s in spans}
    for i, a in enumerate(spans):
        for b in spans[i + 1 :]:
            if overlap(a, b):
                assert lanes[a.key] != lanes[b.key], (a, b)


@given(spans_strategy)
def test_no_more_lanes_are_used_than_entries_overlap(spans):
    lanes = assign_lanes(spans)

    # Lanes are numbered from 0 with no gaps, so the highest one counts them.
    assert max(lanes.values(), default=-1) + 1 <= most_overlapping(spans)
    assert set(lanes.values()) == set(range(len(set(lanes.values()))))


@given(spans_strategy, st.randoms())
def test_the_same_entries_in_any_order_land_in_the_same_lanes(spans, random):
    shuffled = list(spans)
    random.shuffle(shuffled)

    assert assign_lanes(shuffled) == assign_lanes(spans)


def test_a_visit_ending_as_the_next_begins_keeps_the_lane():
    lanes = assign_lanes([span("a", 0, 60), span("b", 60, 120), span("c", 30, 90)])

    assert lanes == {"a": 0, "c": 1, "b": 0}


def test_an_entry_takes_the_lowest_lane_free_when_it_starts():
    lanes = assign_lanes([span("a", 0, 120), span("b", 0, 30), span("c", 0, 60), span("d", 40, 50)])

    # b (lane 1) is free again at 40; c still holds lane 2.
    assert lanes == {"b": 0, "c": 1, "a": 2, "d": 0}


def test_minutes_are_counted_on_the_businesss_wall_clock_and_clamped_to_the_day():
    # Lisbon is on UTC in December and UTC+1 in July.
    assert minute_of_day(dt.datetime(2026, 12, 2, 9, 30, tzinfo=dt.UTC), DAY, LISBON) == 570
    july = dt.date(2026, 7, 1)
    assert minute_of_day(dt.datetime(2026, 7, 1, 9, 30, tzinfo=dt.UTC), july, LISBON) == 630
    assert minute_of_day(dt.datetime(2026, 12, 1, 23, tzinfo=dt.UTC), DAY, LISBON) == 0
    assert minute_of_day(dt.datetime(2026, 12, 3, 0, tzinfo=dt.UTC), DAY, LISBON) == 1440


def test_the_grid_covers_whole_hours_around_hours_and_entries():
    assert GridHours.covering([(9 * 60, 17 * 60), (7 * 60 + 30, 8 * 60)]) == GridHours(420, 1020)
    assert GridHours.covering([(22 * 60, 1440)]) == GridHours(1320, 1440)
    assert GridHours.covering([]) == GridHours(480, 1080)


def test_closed_hours_are_the_grid_outside_the_opening_ranges():
    hours = GridHours(8 * 60, 19 * 60)
    lunch_break = [(dt.time(9), dt.time(13)), (dt.time(14), dt.time(18))]

    assert closed_ranges(lunch_break, hours) == [(480, 540), (780, 840), (1080, 1140)]
    assert closed_ranges([], hours) == [(480, 1140)]


def test_the_board_gives_each_place_a_lane_and_more_when_more_overlap():
    entries = [
        Timed("a", at(60), at(120), "first"),
        Timed("b", at(90), at(150), "second"),
        Timed("c", at(100), at(130), "third"),
    ]
    hours = lambda day: [(dt.time(9), dt.time(17))]  # noqa: E731

    board = lay_out_board(
        days=[DAY], tz=LISBON, capacity=2, spans=entries, blocks=[], open_ranges=hours
    )

    assert board.lanes == 3  # three overlap: a third lane rather than a hidden visit
    placed = {cell.item: cell for cell in board.days[0].entries}
    # 10:00–11:00 on a grid from 09:00 in 5-minute rows, under one row of headings.
    assert placed["first"].rows == (2 + 12, 2 + 24)
    assert [placed[name].columns[0] for name in ("first", "second", "third")] == [2, 3, 4]
    assert board.days[0].closed == []


def test_a_week_puts_each_day_in_its_own_columns_and_an_entry_on_every_day_it_runs():
    monday = dt.date(2026, 11, 30)
    days = [monday + dt.timedelta(days=n) for n in range(7)]
    overnight = Timed("late", dt.datetime(2026, 12, 1, 23, tzinfo=dt.UTC), at(0), "late")

    board = lay_out_board(
        days=days, tz=LISBON, capacity=1, spans=[overnight], blocks=[], open_ranges=lambda d: []
    )

    on = {plan.day: [cell.columns for cell in plan.entries] for plan in board.days}
    assert on[dt.date(2026, 12, 1)] == [(3, 4)]  # Tuesday: the second day's lane
    assert on[dt.date(2026, 12, 2)] == [(4, 5)]
    assert board.hours == GridHours(0, 1440)
