"""Which rule a refused start breaks, decided on plain values (bookings.refusal_reasons): one
test per named rule, the walk-in's reach (never over capacity), and agreement with the
availability predicate under random calendars."""

import datetime as dt
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from bookings.availability import (
    BookingRules,
    Interval,
    Schedule,
    ServiceShape,
    Taken,
    is_open_slot,
    wall_to_instant,
)
from bookings.refusal_reasons import (
    OVERRIDABLE,
    Refusal,
    RefusalCode,
    slot_refusals,
    standing_refusal,
)

LISBON = ZoneInfo("Europe/Lisbon")
WEDNESDAY = dt.date(2026, 12, 2)  # a Wednesday, two days after NOW
NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
HOUR = ServiceShape(duration=dt.timedelta(hours=1))
NINE_TO_FIVE = Schedule(weekly={day: [(dt.time(9), dt.time(17))] for day in range(7)})


def at(day: dt.date, wall: str) -> dt.datetime:
    return wall_to_instant(day, dt.time.fromisoformat(wall), LISBON)


def rules(**changes) -> BookingRules:
    values = {
        "time_zone": LISBON,
        "capacity": 1,
        "min_notice": dt.timedelta(hours=2),
        "horizon_days": 30,
        "slot_interval": dt.timedelta(minutes=30),
    } | changes
    return BookingRules(**values)


def refused(start, *, schedule=NINE_TO_FIVE, taken=None, now=NOW, **rule) -> list[Refusal]:
    return slot_refusals(
        start,
        rules=rules(**rule),
        schedule=schedule,
        service=HOUR,
        taken=taken or Taken.of(),
        now=now,
    )


def codes(found: list[Refusal]) -> list[RefusalCode]:
    return [refusal.code for refusal in found]


def test_an_open_slot_breaks_no_rule():
    assert refused(at(WEDNESDAY, "10:00")) == []


def test_a_start_before_opening_is_outside_opening_hours_and_says_the_day_s_hours():
    [refusal] = refused(at(WEDNESDAY, "08:00"))

    assert refusal == Refusal(
        RefusalCode.OUTSIDE_HOURS, "outside opening hours (09:00–17:00 that day)"
    )


def test_an_appointment_that_would_run_past_closing_is_outside_opening_hours():
    assert codes(refused(at(WEDNESDAY, "16:30"))) == [RefusalCode.OUTSIDE_HOURS]


def test_a_date_closed_by_an_override_is_the_business_closed_that_day():
    closed = Schedule(weekly=NINE_TO_FIVE.weekly, overrides={WEDNESDAY: []})

    [refusal] = refused(at(WEDNESDAY, "10:00"), schedule=closed)

    assert refusal == Refusal(RefusalCode.CLOSED, "the business is closed that day")


def test_full_names_how_many_places_are_taken():
    seated = [
        (HOUR.occupancy(at(WEDNESDAY, "10:00")), 1),
        (HOUR.occupancy(at(WEDNESDAY, "10:00")), 2),
    ]

    [two] = refused(at(WEDNESDAY, "10:30"), taken=Taken.of(seated=seated), capacity=2)
    [one] = refused(at(WEDNESDAY, "10:30"), taken=Taken.of(seated=seated[:1]), capacity=1)

    assert two == Refusal(RefusalCode.FULL, "full — all 2 places are taken")
    assert one == Refusal(RefusalCode.FULL, "full — the only place is taken")


def test_a_start_too_soon_is_within_the_minimum_notice():
    now = at(WEDNESDAY, "09:15")

    [refusal] = refused(at(WEDNESDAY, "10:00"), now=now, min_notice=dt.timedelta(hours=2))

    assert refusal == Refusal(RefusalCode.MIN_NOTICE, "within the minimum notice of 2 hours")


def test_a_notice_of_ninety_minutes_reads_in_hours_and_minutes():
    now = at(WEDNESDAY, "09:15")

    [refusal] = refused(at(WEDNESDAY, "10:00"), now=now, min_notice=dt.timedelta(minutes=90))

    assert refusal.message == "within the minimum notice of 1 hour 30 minutes"


def test_a_day_past_the_horizon_is_beyond_the_booking_horizon():
    [refusal] = refused(at(WEDNESDAY, "10:00"), horizon_days=1)

    assert refusal == Refusal(RefusalCode.HORIZON, "beyond the booking horizon of 1 day")


def test_a_busy_block_is_named_as_busy():
    block = Interval(at(WEDNESDAY, "10:30"), at(WEDNESDAY, "10:45"))

    [refusal] = refused(at(WEDNESDAY, "10:00"), taken=Taken.of(blocked=[block]), capacity=3)

    assert refusal.code == RefusalCode.BUSY
    assert "connected calendar" in refusal.message


def test_a_place_held_by_another_client_is_held_not_full():
    hold = HOUR.occupancy(at(WEDNESDAY, "10:00"))

    [refusal] = refused(at(WEDNESDAY, "10:00"), taken=Taken.of(held=[hold]))

    assert refusal == Refusal(RefusalCode.HELD, "held by a client right now")


def test_a_start_between_grid_steps_is_not_on_the_slot_grid():
    [refusal] = refused(at(WEDNESDAY, "10:10"))

    assert refusal.code == RefusalCode.OFF_GRID
    assert refusal.message == "not on the slot grid (a start every 30 minutes from opening)"


def test_a_time_already_gone_is_past():
    assert codes(refused(at(WEDNESDAY, "10:00"), now=at(WEDNESDAY, "12:00"))) == [RefusalCode.PAST]


def test_every_rule_broken_is_listed_in_order():
    block = Interval(at(WEDNESDAY, "07:00"), at(WEDNESDAY, "08:30"))
    seated = [(HOUR.occupancy(at(WEDNESDAY, "07:30")), 1)]

    found = refused(
        at(WEDNESDAY, "07:30"),
        taken=Taken.of(blocked=[block], seated=seated),
        horizon_days=1,
    )

    assert codes(found) == [
        RefusalCode.HORIZON,
        RefusalCode.OUTSIDE_HOURS,
        RefusalCode.BUSY,
        RefusalCode.FULL,
    ]


# --- the walk-in's reach ---------------------------------------------------------------------


def test_a_walk_in_sets_aside_hours_notice_horizon_grid_and_busy_blocks():
    assert {
        RefusalCode.OUTSIDE_HOURS,
        RefusalCode.CLOSED,
        RefusalCode.MIN_NOTICE,
        RefusalCode.HORIZON,
        RefusalCode.OFF_GRID,
        RefusalCode.BUSY,
    } == OVERRIDABLE
    outside = refused(at(WEDNESDAY, "18:00"), now=at(WEDNESDAY, "17:30"))

    assert codes(outside) == [RefusalCode.MIN_NOTICE, RefusalCode.OUTSIDE_HOURS]
    assert standing_refusal(outside, walk_in=True) is None
    assert standing_refusal(outside, walk_in=False) == outside[0]


def test_a_walk_in_never_sets_aside_a_full_time_and_names_full():
    seated = [(HOUR.occupancy(at(WEDNESDAY, "18:00")), 1)]
    found = refused(at(WEDNESDAY, "18:00"), taken=Taken.of(seated=seated))

    assert codes(found) == [RefusalCode.OUTSIDE_HOURS, RefusalCode.FULL]
    assert standing_refusal(found, walk_in=True).code == RefusalCode.FULL


def test_a_walk_in_never_sets_aside_a_hold_or_the_past():
    hold = HOUR.occupancy(at(WEDNESDAY, "10:00"))
    held = refused(at(WEDNESDAY, "10:00"), taken=Taken.of(held=[hold]))
    gone = refused(at(WEDNESDAY, "10:00"), now=at(WEDNESDAY, "12:00"))

    assert standing_refusal(held, walk_in=True).code == RefusalCode.HELD
    assert standing_refusal(gone, walk_in=True).code == RefusalCode.PAST


# --- agreement with the availability predicate ----------------------------------------------

quarter_hours = st.integers(min_value=0, max_value=4 * 24 - 1).map(
    lambda n: dt.time(n // 4, 15 * (n % 4))
)
# Half the starts on the grid of the open hours, where only the calendar can refuse them.
on_the_grid = st.sampled_from(
    [dt.time(h, m) for h in (9, 10, 11, 14, 15, 16) for m in (0, 30) if (h, m) < (16, 30)]
)
# What is taken sits near the start, where it can matter: minutes from it.
near = st.integers(min_value=-6, max_value=6).map(lambda n: dt.timedelta(minutes=15 * n))


@settings(max_examples=400, deadline=None)
@given(
    start_day=st.integers(min_value=-1, max_value=4),
    start_wall=st.one_of(quarter_hours, on_the_grid),
    now_hours=st.integers(min_value=0, max_value=72),
    capacity=st.integers(min_value=1, max_value=2),
    horizon=st.integers(min_value=0, max_value=5),
    seated_at=st.lists(near, max_size=3),
    held_at=st.lists(near, max_size=2),
    blocked_at=st.lists(near, max_size=1),
    closed=st.booleans(),
)
def test_a_start_breaks_no_named_rule_exactly_when_it_is_an_open_slot(
    start_day, start_wall, now_hours, capacity, horizon, seated_at, held_at, blocked_at, closed
):
    day = WEDNESDAY + dt.timedelta(days=start_day)
    start = wall_to_instant(day, start_wall, LISBON)
    now = NOW + dt.timedelta(hours=now_hours)
    taken = Taken.of(
        seated=[(HOUR.occupancy(start + off), n + 1) for n, off in enumerate(seated_at)],
        held=[HOUR.occupancy(start + off) for off in held_at],
        blocked=[
            Interval(start + off, start + off + dt.timedelta(minutes=20)) for off in blocked_at
        ],
    )
    schedule = Schedule(
        weekly={d: [(dt.time(9), dt.time(12)), (dt.time(14), dt.time(17))] for d in range(7)},
        overrides={WEDNESDAY: []} if closed else {},
    )
    inputs = {
        "rules": rules(capacity=capacity, horizon_days=horizon),
        "schedule": schedule,
        "service": HOUR,
        "taken": taken,
        "now": now,
    }

    assert (slot_refusals(start, **inputs) == []) == is_open_slot(start, **inputs)
