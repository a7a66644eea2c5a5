"""The availability rules on plain values, and their invariants under random calendars."""

import datetime as dt
from itertools import combinations
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from bookings.availability import (
    BookingRules,
    Interval,
    Schedule,
    ServiceShape,
    Taken,
    free_seat,
    has_room,
    is_open_slot,
    open_slots,
    wall_to_instant,
)

LISBON = ZoneInfo("Europe/Lisbon")
MINUTE = dt.timedelta(minutes=1)
WEDNESDAY = dt.date(2026, 12, 2)
NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)


def t(text: str) -> dt.time:
    return dt.time.fromisoformat(text)


def at(day: dt.date, wall: str) -> dt.datetime:
    return wall_to_instant(day, t(wall), LISBON)


def rules(**changes) -> BookingRules:
    values = {
        "time_zone": LISBON,
        "capacity": 1,
        "min_notice": dt.timedelta(0),
        "horizon_days": 30,
        "slot_interval": dt.timedelta(minutes=30),
    } | changes
    return BookingRules(**values)


HOURS = Schedule(weekly={2: [(t("09:00"), t("12:00")), (t("14:00"), t("16:00"))]})
HOUR_SERVICE = ServiceShape(duration=dt.timedelta(hours=1))


def starts(day=WEDNESDAY, *, service=HOUR_SERVICE, taken=None, now=NOW, schedule=HOURS, **rule):
    slots = open_slots(
        rules=rules(**rule),
        schedule=schedule,
        service=service,
        taken=taken or Taken.of(),
        now=now,
        first_day=day,
        last_day=day,
    )
    return [f"{slot.start.astimezone(LISBON):%H:%M}" for slot in slots]


def test_several_ranges_a_day_each_fit_whole_appointments():
    assert starts() == ["09:00", "09:30", "10:00", "10:30", "11:00", "14:00", "14:30", "15:00"]


def test_a_closed_date_offers_nothing_and_special_hours_replace_the_week():
    closed = Schedule(weekly=HOURS.weekly, overrides={WEDNESDAY: []})
    special = Schedule(weekly=HOURS.weekly, overrides={WEDNESDAY: [(t("10:00"), t("11:00"))]})

    assert starts(schedule=closed) == []
    assert starts(schedule=special) == ["10:00"]


def test_minimum_notice_hides_slots_too_soon():
    now = at(WEDNESDAY, "09:40")

    assert starts(now=now, min_notice=dt.timedelta(hours=1))[0] == "11:00"


def test_the_horizon_ends_offers_after_its_last_day():
    now = at(WEDNESDAY - dt.timedelta(days=3), "12:00")

    assert starts(now=now, horizon_days=3) != []
    assert starts(now=now, horizon_days=2) == []


def test_an_existing_appointments_buffer_after_keeps_the_next_start_free():
    # 10:00–11:00 with 15 minutes of clean-up occupies until 11:15.
    existing = ServiceShape(dt.timedelta(hours=1), buffer_after=dt.timedelta(minutes=15))
    taken = Taken.of([existing.occupancy(at(WEDNESDAY, "10:00"))])

    assert "11:00" not in starts(taken=taken)
    assert "11:30" not in starts(taken=taken)  # would end 12:30, past closing
    assert starts(taken=taken)[:2] == ["09:00", "14:00"]


def test_the_new_services_buffer_before_must_not_overlap_an_earlier_appointment():
    prepared = ServiceShape(dt.timedelta(hours=1), buffer_before=dt.timedelta(minutes=30))
    taken = Taken.of([HOUR_SERVICE.occupancy(at(WEDNESDAY, "09:00"))])

    assert "10:00" not in starts(service=prepared, taken=taken)
    assert "10:30" in starts(service=prepared, taken=taken)


def test_capacity_allows_as_many_overlapping_appointments_as_places():
    one = Taken.of([HOUR_SERVICE.occupancy(at(WEDNESDAY, "09:00"))])
    two = Taken.of([HOUR_SERVICE.occupancy(at(WEDNESDAY, "09:00"))] * 2)

    assert "09:00" in starts(taken=one, capacity=2)
    assert "09:00" not in starts(taken=two, capacity=2)


def test_a_seat_busy_with_back_to_back_short_visits_is_one_place_in_use():
    # Three 20-minute visits in seat 1 from 10:00 to 11:00; seats 2 and 3 are free all along.
    visit = ServiceShape(duration=dt.timedelta(minutes=20))
    seated = [(visit.occupancy(at(WEDNESDAY, f"10:{m:02}")), 1) for m in (0, 20, 40)]
    taken = Taken.of(seated=seated)
    window = HOUR_SERVICE.occupancy(at(WEDNESDAY, "10:00"))

    assert has_room(window, taken, capacity=3)
    assert not has_room(window, taken, capacity=1)
    assert free_seat(window, taken, capacity=3) == 2


def test_holds_and_seated_appointments_share_the_places():
    seated = [(HOUR_SERVICE.occupancy(at(WEDNESDAY, "10:00")), 1)]
    held = [HOUR_SERVICE.occupancy(at(WEDNESDAY, "10:30"))]
    window = HOUR_SERVICE.occupancy(at(WEDNESDAY, "10:00"))

    assert not has_room(window, Taken.of(held=held, seated=seated), capacity=2)
    assert has_room(window, Taken.of(held=held, seated=seated), capacity=3)


def test_a_busy_block_closes_the_business_whatever_the_capacity():
    block = Interval(at(WEDNESDAY, "09:45"), at(WEDNESDAY, "10:15"))

    offered = starts(taken=Taken.of(blocked=[block]), capacity=5)

    assert offered[:2] == ["10:30", "11:00"]


def test_free_seat_is_the_lowest_place_no_overlapping_appointment_uses():
    window = Interval(at(WEDNESDAY, "10:00"), at(WEDNESDAY, "11:00"))
    overlapping = Interval(at(WEDNESDAY, "10:30"), at(WEDNESDAY, "11:30"))
    earlier = Interval(at(WEDNESDAY, "09:00"), at(WEDNESDAY, "10:00"))

    taken = Taken.of(seated=[(overlapping, 1), (earlier, 2)])
    assert free_seat(window, taken, capacity=3) == 2


# --- invariants under random calendars ------------------------------------------------------

quarter_hours = st.integers(min_value=0, max_value=95).map(lambda q: dt.time(q // 4, q % 4 * 15))


@st.composite
def day_ranges(draw):
    """Up to three non-overlapping open ranges in one day."""
    cuts = sorted(draw(st.sets(quarter_hours, min_size=0, max_size=6)))
    return [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]


@st.composite
def intervals_in(draw, first_day: dt.date, days: int):
    start = wall_to_instant(first_day, dt.time(0), LISBON) + draw(
        st.integers(min_value=0, max_value=days * 24 * 4)
    ) * dt.timedelta(minutes=15)
    length = draw(st.integers(min_value=1, max_value=16)) * dt.timedelta(minutes=15)
    return Interval(start, start + length)


FIRST = dt.date(2027, 3, 26)  # the window spans Lisbon's spring-forward day
DAYS = 4

calendars = st.fixed_dictionaries(
    {
        "weekly": st.dictionaries(st.integers(0, 6), day_ranges(), max_size=7),
        "closed": st.sets(st.integers(0, DAYS - 1), max_size=2),
        "occupied": st.lists(intervals_in(FIRST, DAYS), max_size=12),
        "blocked": st.lists(intervals_in(FIRST, DAYS), max_size=3),
        "capacity": st.integers(1, 3),
        "duration": st.sampled_from([15, 30, 45, 60, 90]),
        "before": st.sampled_from([0, 15]),
        "after": st.sampled_from([0, 10, 30]),
        "interval": st.sampled_from([15, 30, 60]),
        "notice": st.sampled_from([0, 60, 60 * 30]),
    }
)


def world(calendar):
    schedule = Schedule(
        weekly=calendar["weekly"],
        overrides={FIRST + dt.timedelta(days=d): [] for d in calendar["closed"]},
    )
    service = ServiceShape(
        duration=dt.timedelta(minutes=calendar["duration"]),
        buffer_before=dt.timedelta(minutes=calendar["before"]),
        buffer_after=dt.timedelta(minutes=calendar["after"]),
    )
    booking_rules = rules(
        capacity=calendar["capacity"],
        slot_interval=dt.timedelta(minutes=calendar["interval"]),
        min_notice=dt.timedelta(minutes=calendar["notice"]),
    )
    return schedule, service, booking_rules


def offered(calendar, occupied):
    schedule, service, booking_rules = world(calendar)
    return open_slots(
        rules=booking_rules,
        schedule=schedule,
        service=service,
        taken=Taken.of(held=occupied, blocked=calendar["blocked"]),
        now=wall_to_instant(FIRST, dt.time(0), LISBON),
        first_day=FIRST,
        last_day=FIRST + dt.timedelta(days=DAYS - 1),
    )


@settings(max_examples=200, deadline=None)
@given(calendars)
def test_every_slot_lies_inside_open_hours_of_an_open_day(calendar):
    schedule, _, _ = world(calendar)
    for slot in offered(calendar, calendar["occupied"]):
        day = slot.start.astimezone(LISBON).date()
        ranges = schedule.ranges_on(day)
        assert any(
            wall_to_instant(day, opens, LISBON) <= slot.start
            and slot.end <= wall_to_instant(day, closes, LISBON, latest=True)
            for opens, closes in ranges
        ), f"{slot} is outside the hours of {day}"


@settings(max_examples=200, deadline=None)
@given(calendars)
def test_no_slot_touches_a_busy_block_or_exceeds_capacity(calendar):
    _, service, booking_rules = world(calendar)
    for slot in offered(calendar, calendar["occupied"]):
        occupancy = service.occupancy(slot.start)
        assert not any(occupancy.overlaps(block) for block in calendar["blocked"])
        overlapping = sum(occupancy.overlaps(other) for other in calendar["occupied"])
        assert overlapping < booking_rules.capacity


@settings(max_examples=100, deadline=None)
@given(calendars)
def test_every_offered_slot_can_be_booked_and_booking_never_overbooks(calendar):
    """Book offered slots one after another, recomputing availability after each, as clients
    would: each offered slot passes the booking check and gets a seat in 1..capacity, no seat
    ever holds two overlapping appointments, and no instant holds more than capacity."""
    schedule, service, booking_rules = world(calendar)
    capacity = booking_rules.capacity
    seated: list[tuple[Interval, int]] = []
    now = wall_to_instant(FIRST, dt.time(0), LISBON)
    for _ in range(30):
        taken = Taken.of(held=calendar["occupied"], blocked=calendar["blocked"], seated=seated)
        slots = open_slots(
            rules=booking_rules,
            schedule=schedule,
            service=service,
            taken=taken,
            now=now,
            first_day=FIRST,
            last_day=FIRST + dt.timedelta(days=DAYS - 1),
        )
        if not slots:
            break
        slot = slots[len(slots) // 2]
        assert is_open_slot(
            slot.start,
            rules=booking_rules,
            schedule=schedule,
            service=service,
            taken=taken,
            now=now,
        )
        occupancy = service.occupancy(slot.start)
        seated.append((occupancy, free_seat(occupancy, taken, capacity)))

    for (one, seat), (other, other_seat) in combinations(seated, 2):
        assert seat != other_seat or not one.overlaps(other)
    assert all(1 <= seat <= capacity for _, seat in seated)
    for occupancy, _ in seated:
        at_its_start = [o for o, _ in seated if o.start <= occupancy.start < o.end]
        assert len(at_its_start) <= capacity
