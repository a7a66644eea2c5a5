"""The week's rules on plain values, without a database: how a typed time reads, when a week is
unusable, and how many ranges a day is offered."""

import datetime as dt

import pytest

from dashboard.admin.hours_grid import (
    MOST_RANGES,
    describe_week,
    parse_wall_time,
    ranges_per_day,
    week_problems,
)

T = dt.time


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("9:00", T(9)),
        ("09:00", T(9)),
        (" 17:30 ", T(17, 30)),
        ("0:00", T(0)),
        ("23:59", T(23, 59)),
        ("", None),
    ],
)
def test_a_time_is_read_with_or_without_its_leading_zero(typed, read):
    assert parse_wall_time(typed) == read


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("25:00", "“25:00” is not a time of day: hours go from 00 to 23."),
        ("24:00", "“24:00” is not a time of day: hours go from 00 to 23."),
        ("9:60", "“9:60” is not a time of day: minutes go from 00 to 59."),
        ("9h", "“9h” is not a time: write it as HH:MM, e.g. 09:00 or 17:30."),
        ("09:00:00", "“09:00:00” is not a time: write it as HH:MM, e.g. 09:00 or 17:30."),
        ("9:0", "“9:0” is not a time: write it as HH:MM, e.g. 09:00 or 17:30."),
        ("nine o'clock sharp", "“nine o'clock…” is not a time: write it as HH:MM, e.g. 09:00"),
    ],
)
def test_anything_else_is_refused_saying_how_to_write_it(typed, message):
    with pytest.raises(ValueError, match=message):
        parse_wall_time(typed)


def test_a_lunch_break_and_touching_ranges_are_a_usable_week():
    week = {0: ((T(9), T(13)), (T(14), T(18))), 1: ((T(9), T(13)), (T(13), T(18))), 6: ()}

    assert week_problems(week) == {}


def test_each_unusable_day_is_named_with_what_is_wrong():
    week = {
        0: ((T(9), T(13)), (T(12), T(18))),
        2: ((T(18), T(9)),),
        4: ((T(9), T(17)),),
    }

    assert week_problems(week) == {
        0: ["Monday: 09:00–13:00 overlaps 12:00–18:00."],
        2: ["Wednesday 18:00–09:00: closing time must be after opening time."],
    }


def test_the_week_reads_one_line_a_day_monday_first():
    week = {0: ((T(9), T(13)), (T(14), T(18))), 5: ((T(10), T(14)),)}

    assert describe_week(week) == [
        "Monday 09:00–13:00, 14:00–18:00",
        "Tuesday closed",
        "Wednesday closed",
        "Thursday closed",
        "Friday closed",
        "Saturday 10:00–14:00",
        "Sunday closed",
    ]


def test_each_day_offers_two_ranges_or_as_many_as_the_busiest_day_or_a_post_holds():
    busy_wednesday = {2: ((T(8), T(9)), (T(10), T(11)), (T(12), T(13)))}

    assert ranges_per_day({}) == 2
    assert ranges_per_day(busy_wednesday) == 3
    assert ranges_per_day({}, ["friday-3-opens", "csrfmiddlewaretoken", "someday-9-opens"]) == 4
    assert ranges_per_day({}, ["monday-500-closes"]) == MOST_RANGES
