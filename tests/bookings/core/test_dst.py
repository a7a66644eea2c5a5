"""DST is data: the slot grid of a day that loses or gains an hour, in zones of both
hemispheres. Hours are kept in wall-clock time; slots are real instants."""

import datetime as dt
from dataclasses import replace
from zoneinfo import ZoneInfo

import pytest

from bookings.availability import (
    BookingRules,
    Schedule,
    ServiceShape,
    Taken,
    lock_days,
    open_slots,
    wall_to_instant,
)

HOUR = dt.timedelta(hours=1)


def t(text: str) -> dt.time:
    return dt.time.fromisoformat(text)


def rules(zone: str) -> BookingRules:
    return BookingRules(
        time_zone=ZoneInfo(zone),
        capacity=1,
        min_notice=dt.timedelta(0),
        horizon_days=400,
        slot_interval=HOUR,
    )


def slots_on(
    zone: str, day: dt.date, opens: str, closes: str, length: dt.timedelta = HOUR
) -> list[str]:
    """Wall-clock start times (with UTC offset) of back-to-back slots of ``length``."""
    schedule = Schedule(weekly={day.weekday(): [(t(opens), t(closes))]})
    found = open_slots(
        rules=replace(rules(zone), slot_interval=length),
        schedule=schedule,
        service=ServiceShape(duration=length),
        taken=Taken.of(),
        now=dt.datetime.combine(day - dt.timedelta(days=2), dt.time(), tzinfo=dt.UTC),
        first_day=day,
        last_day=day,
    )
    return [f"{slot.start.astimezone(ZoneInfo(zone)):%H:%M%z}" for slot in found]


# (zone, ordinary day, spring-forward day, fall-back day, hours spanning the change)
ZONES = [
    ("Europe/Lisbon", dt.date(2027, 3, 21), dt.date(2027, 3, 28), dt.date(2026, 10, 25)),
    ("America/New_York", dt.date(2027, 3, 7), dt.date(2027, 3, 14), dt.date(2026, 11, 1)),
    ("Australia/Sydney", dt.date(2026, 9, 27), dt.date(2026, 10, 4), dt.date(2027, 4, 4)),
]


@pytest.mark.parametrize(("zone", "ordinary", "spring", "autumn"), ZONES)
def test_a_day_that_loses_an_hour_offers_one_slot_fewer(zone, ordinary, spring, autumn):
    assert len(slots_on(zone, ordinary, "00:00", "06:00")) == 6
    assert len(slots_on(zone, spring, "00:00", "06:00")) == 5


@pytest.mark.parametrize(("zone", "ordinary", "spring", "autumn"), ZONES)
def test_a_day_that_gains_an_hour_offers_one_slot_more(zone, ordinary, spring, autumn):
    assert len(slots_on(zone, autumn, "00:00", "06:00")) == 7


def test_lisbon_spring_forward_skips_the_missing_hour():
    # Clocks jump from 01:00 to 02:00 on 28 March 2027.
    assert slots_on("Europe/Lisbon", dt.date(2027, 3, 28), "00:00", "06:00") == [
        "00:00+0000",
        "02:00+0100",
        "03:00+0100",
        "04:00+0100",
        "05:00+0100",
    ]


def test_new_york_fall_back_offers_the_repeated_hour_twice_with_its_offset():
    # Clocks go back from 02:00 EDT to 01:00 EST on 1 November 2026.
    assert slots_on("America/New_York", dt.date(2026, 11, 1), "00:00", "04:00") == [
        "00:00-0400",
        "01:00-0400",
        "01:00-0500",
        "02:00-0500",
        "03:00-0500",
    ]


def test_sydney_spring_forward_in_october():
    # Southern hemisphere: clocks jump from 02:00 to 03:00 on 4 October 2026.
    assert slots_on("Australia/Sydney", dt.date(2026, 10, 4), "00:00", "05:00") == [
        "00:00+1000",
        "01:00+1000",
        "03:00+1100",
        "04:00+1100",
    ]


def test_santiago_midnight_does_not_exist_on_its_spring_forward_day():
    # Chile moves clocks from 00:00 to 01:00 on Sunday 6 September 2026: the day starts at 01:00.
    santiago = ZoneInfo("America/Santiago")

    day_start = wall_to_instant(dt.date(2026, 9, 6), t("00:00"), santiago)

    assert f"{day_start.astimezone(santiago):%H:%M%z}" == "01:00-0300"
    assert slots_on("America/Santiago", dt.date(2026, 9, 6), "00:00", "03:00") == [
        "01:00-0300",
        "02:00-0300",
    ]


def test_santiago_repeats_the_last_hour_of_the_day_when_summer_time_ends():
    # On Saturday 3 April 2027 Chile's clocks go back from 24:00 to 23:00.
    half_hour = dt.timedelta(minutes=30)
    assert slots_on("America/Santiago", dt.date(2027, 4, 3), "22:00", "23:59", half_hour) == [
        "22:00-0300",
        "22:30-0300",
        "23:00-0300",
        "23:30-0300",
        "23:00-0400",
    ]
    assert len(slots_on("America/Santiago", dt.date(2027, 3, 27), "22:00", "23:59", half_hour)) == 3


def test_an_opening_time_inside_the_gap_opens_when_the_clocks_jump():
    new_york = ZoneInfo("America/New_York")

    opening = wall_to_instant(dt.date(2027, 3, 14), t("02:30"), new_york)

    assert opening == dt.datetime(2027, 3, 14, 7, tzinfo=dt.UTC)  # 03:00 EDT
    assert slots_on("America/New_York", dt.date(2027, 3, 14), "02:30", "05:00") == [
        "03:00-0400",
        "04:00-0400",
    ]


def test_a_closing_time_in_the_repeated_hour_means_its_second_occurrence():
    new_york = ZoneInfo("America/New_York")
    day = dt.date(2026, 11, 1)

    first = wall_to_instant(day, t("01:30"), new_york)
    second = wall_to_instant(day, t("01:30"), new_york, latest=True)

    assert second - first == HOUR
    assert slots_on("America/New_York", day, "00:30", "01:30") == ["00:30-0400", "01:30-0400"]


def test_wall_times_on_ordinary_days_map_to_one_instant():
    sydney = ZoneInfo("Australia/Sydney")
    instant = wall_to_instant(dt.date(2026, 12, 1), t("09:00"), sydney)

    assert instant == dt.datetime(2026, 11, 30, 22, tzinfo=dt.UTC)
    assert wall_to_instant(dt.date(2026, 12, 1), t("09:00"), sydney, latest=True) == instant


def test_an_occupancy_across_local_midnight_takes_both_days_locks():
    lisbon = ZoneInfo("Europe/Lisbon")
    start = wall_to_instant(dt.date(2026, 12, 31), t("23:30"), lisbon)
    shape = ServiceShape(duration=HOUR)

    assert lock_days(shape.occupancy(start), lisbon) == [
        dt.date(2026, 12, 31),
        dt.date(2027, 1, 1),
    ]
    assert lock_days(shape.occupancy(start - HOUR), lisbon) == [dt.date(2026, 12, 31)]
