"""The fast availability rules (epoch microseconds, bisection per seat) give exactly what the
plain ones give (``availability_oracle``: datetimes, a scan of what could overlap), over random
calendars: appointments that overlap in one seat, seats above a lowered capacity, holds,
busy blocks, buffers, grids that do not divide the hours, microsecond instants and the DST
days of zones in both hemispheres."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bookings import availability as fast
from bookings.availability import BookingRules, Interval, Schedule, ServiceShape, to_micros

from . import availability_oracle as oracle

# (zone, a few days that include a spring-forward and a fall-back day)
ZONES = {
    "Europe/Lisbon": [dt.date(2027, 3, 27), dt.date(2026, 10, 24), dt.date(2026, 12, 1)],
    "America/New_York": [dt.date(2027, 3, 13), dt.date(2026, 10, 31)],
    "Australia/Sydney": [dt.date(2026, 10, 3), dt.date(2027, 4, 3)],
    "America/Santiago": [dt.date(2026, 9, 5), dt.date(2027, 4, 2)],
}
DAYS = 3


@st.composite
def places(draw):
    """A zone and the first of DAYS days in it, around one of its clock changes."""
    zone = draw(st.sampled_from(sorted(ZONES)))
    return ZoneInfo(zone), draw(st.sampled_from(ZONES[zone]))


quarter_hours = st.integers(min_value=0, max_value=95).map(lambda q: dt.time(q // 4, q % 4 * 15))
# Any two times: ranges may overlap, come in any order, or be empty (closing before opening).
day_ranges = st.lists(st.tuples(quarter_hours, quarter_hours), min_size=1, max_size=3)


@st.composite
def intervals(draw, zone: ZoneInfo, first_day: dt.date, *, reversed_ok: bool = False):
    """Mostly on a 5-minute grid (so they touch windows exactly), sometimes off it to the
    microsecond; with ``reversed_ok``, sometimes ending before they start."""
    origin = fast.wall_to_instant(first_day, dt.time(0), zone) - dt.timedelta(hours=6)
    start = origin + draw(st.integers(0, (DAYS + 1) * 24 * 12)) * dt.timedelta(minutes=5)
    length = draw(st.integers(1, 36)) * dt.timedelta(minutes=5)
    if draw(st.booleans()):
        start += dt.timedelta(microseconds=draw(st.integers(-999_999, 999_999)))
        length += dt.timedelta(microseconds=draw(st.integers(-999_999, 999_999)))
    if reversed_ok and draw(st.integers(0, 9)) == 0:
        length = -length
    return Interval(start, start + length)


@st.composite
def worlds(draw, *, reversed_ok: bool = False):
    zone, first_day = draw(places())
    spans = intervals(zone, first_day, reversed_ok=reversed_ok)
    capacity = draw(st.integers(1, 4))
    closed = draw(st.sets(st.integers(0, DAYS - 1), max_size=1))
    special = draw(st.dictionaries(st.integers(0, DAYS - 1), day_ranges, max_size=1))
    overrides: dict[dt.date, list] = {first_day + dt.timedelta(days=d): [] for d in closed}
    overrides |= {first_day + dt.timedelta(days=d): r for d, r in special.items()}
    return {
        "zone": zone,
        "first_day": first_day,
        "rules": BookingRules(
            time_zone=zone,
            capacity=capacity,
            min_notice=dt.timedelta(minutes=draw(st.sampled_from([0, 45, 60 * 20]))),
            horizon_days=draw(st.sampled_from([1, 30, 30])),
            slot_interval=dt.timedelta(minutes=draw(st.sampled_from([7, 15, 20, 30, 60]))),
        ),
        "schedule": Schedule(
            weekly=draw(st.dictionaries(st.integers(0, 6), day_ranges, min_size=4, max_size=7)),
            overrides=overrides,
        ),
        "service": ServiceShape(
            duration=dt.timedelta(minutes=draw(st.sampled_from([15, 20, 45, 60, 90]))),
            buffer_before=dt.timedelta(minutes=draw(st.sampled_from([0, 5, 15]))),
            buffer_after=dt.timedelta(minutes=draw(st.sampled_from([0, 10, 30]))),
        ),
        # Seats up to capacity + 1: an appointment may sit above a since-lowered capacity.
        "seated": draw(st.lists(st.tuples(spans, st.integers(1, capacity + 1)), max_size=25)),
        "held": draw(st.lists(spans, max_size=4)),
        "blocked": draw(st.lists(spans, max_size=3)),
        "now": fast.wall_to_instant(first_day, dt.time(0), zone)
        + draw(st.integers(-24 * 60, 12 * 60)) * dt.timedelta(minutes=1),
        "windows": draw(st.lists(spans, min_size=1, max_size=8)),
    }


def takens(world):
    parts = {key: world[key] for key in ("held", "blocked", "seated")}
    return fast.Taken.of(**parts), oracle.Taken.of(**parts)


def exactly(slots: list[Interval]) -> list[tuple]:
    """Each slot's instants with their zones: equal values, not only equal instants."""
    return [(s.start, s.end, s.start.tzinfo, s.end.tzinfo, s.start.fold) for s in slots]


@settings(max_examples=300, deadline=None)
@given(worlds())
def test_the_fast_path_offers_exactly_the_slots_of_the_plain_rules(world):
    fast_taken, plain_taken = takens(world)
    inputs = {
        "rules": world["rules"],
        "schedule": world["schedule"],
        "service": world["service"],
        "now": world["now"],
        "first_day": world["first_day"],
        "last_day": world["first_day"] + dt.timedelta(days=DAYS - 1),
    }

    offered = fast.open_slots(taken=fast_taken, **inputs)

    assert exactly(offered) == exactly(oracle.open_slots(taken=plain_taken, **inputs))
    for day in (inputs["first_day"] + dt.timedelta(days=d) for d in range(DAYS)):
        args = (day, world["schedule"], world["service"], world["rules"])
        assert list(fast.candidate_starts(*args)) == list(oracle.candidate_starts(*args))


@settings(max_examples=300, deadline=None)
@given(worlds(reversed_ok=True))
def test_every_question_asked_of_what_is_taken_gets_the_plain_answer(world):
    """Windows and intervals of any shape (touching, to the microsecond, empty or reversed):
    the index's bisections must agree with a scan."""
    fast_taken, plain_taken = takens(world)
    capacity = world["rules"].capacity
    for window in [*world["windows"], *edges(world)]:
        for name in ("seated", "held", "blocked"):
            quick, plain = getattr(fast_taken, name), getattr(plain_taken, name)
            assert quick.any_overlapping(window) == plain.any_overlapping(window)
            assert quick.count_overlapping(window) == plain.count_overlapping(window)
            assert quick.seats_overlapping(window) == plain.seats_overlapping(window)
            assert sorted(quick.overlapping(window), key=repr) == sorted(
                plain.overlapping(window), key=repr
            )
        assert fast.has_room(window, fast_taken, capacity) == oracle.has_room(
            window, plain_taken, capacity
        )
        assert seat_or_refusal(fast.free_seat, window, fast_taken, capacity) == seat_or_refusal(
            oracle.free_seat, window, plain_taken, capacity
        )


def edges(world) -> list[Interval]:
    """Windows that end where something taken starts, start where it ends, or are it: where
    an off-by-one in a bisection would show."""
    taken = [*world["held"], *world["blocked"], *(i for i, _ in world["seated"])]
    before = dt.timedelta(minutes=20)
    return [
        window
        for i in taken
        for window in (Interval(i.start - before, i.start), Interval(i.end, i.end + before), i)
    ]


def seat_or_refusal(free_seat, window, taken, capacity):
    try:
        return free_seat(window, taken, capacity)
    except ValueError:
        return "no free seat"


# --- the cases the bisections could get wrong, spelled out ----------------------------------

LISBON = ZoneInfo("Europe/Lisbon")
DAY = dt.date(2026, 12, 2)


def at(wall: str) -> dt.datetime:
    return fast.wall_to_instant(DAY, dt.time.fromisoformat(wall), LISBON)


def test_a_seat_is_busy_under_a_long_appointment_that_a_later_short_one_overlaps():
    # Seat 1 holds 09:00–12:00 and, booked by hand over it, 09:30–09:45. A window at 10:00
    # lies after the last start's end: only the running maximum of ends sees the long one.
    seated = [(Interval(at("09:00"), at("12:00")), 1), (Interval(at("09:30"), at("09:45")), 1)]
    taken = fast.Taken.of(seated=seated)
    window = Interval(at("10:00"), at("10:30"))

    assert taken.seated.seats_overlapping(window) == {1}
    assert not fast.has_room(window, taken, capacity=1)
    assert fast.free_seat(window, taken, capacity=2) == 2


def test_intervals_that_only_touch_a_window_do_not_overlap_it():
    taken = fast.Taken.of(
        seated=[(Interval(at("09:00"), at("10:00")), 1), (Interval(at("11:00"), at("12:00")), 1)],
        held=[Interval(at("08:00"), at("10:00")), Interval(at("11:00"), at("13:00"))],
        blocked=[Interval(at("07:00"), at("10:00"))],
    )
    window = Interval(at("10:00"), at("11:00"))

    assert taken.seated.seats_overlapping(window) == set()
    assert taken.held.count_overlapping(window) == 0
    assert not taken.blocked.any_overlapping(window)
    assert fast.has_room(window, taken, capacity=1)


def test_holds_are_counted_one_place_each_even_when_they_overlap_each_other():
    held = [Interval(at("09:00"), at("11:00")), Interval(at("09:30"), at("10:30"))]
    taken = fast.Taken.of(held=held)
    window = Interval(at("10:00"), at("10:15"))

    assert taken.held.count_overlapping(window) == 2
    assert fast.has_room(window, taken, capacity=3)
    assert not fast.has_room(window, taken, capacity=2)


def test_the_same_spans_given_in_epoch_microseconds_index_the_same():
    seated = [(Interval(at("10:00"), at("10:20")), 2), (Interval(at("09:00"), at("11:00")), 1)]
    held = [Interval(at("09:40"), at("10:40"))]
    blocked = [Interval(at("12:00"), at("12:30"))]

    def columns(spans):
        return [to_micros(s.start) for s in spans], [to_micros(s.end) for s in spans]

    from_intervals = fast.Taken.of(held=held, blocked=blocked, seated=seated)
    from_micros = fast.Taken.of_micros(
        held=columns(held),
        blocked=columns(blocked),
        seated={seat: columns([s for s, n in seated if n == seat]) for seat in (1, 2)},
    )

    for window in (Interval(at("09:30"), at("10:10")), Interval(at("12:10"), at("12:20"))):
        for name in ("seated", "held", "blocked"):
            one, other = getattr(from_intervals, name), getattr(from_micros, name)
            assert list(one.overlapping(window)) == list(other.overlapping(window))


@pytest.mark.parametrize(
    "instant",
    [
        dt.datetime(1970, 1, 1, tzinfo=dt.UTC),
        dt.datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 2, 9, 30, 0, 1, tzinfo=dt.UTC),
        dt.datetime(2038, 1, 19, 3, 14, 8, 999_999, tzinfo=dt.UTC),
        dt.datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=dt.UTC),
        dt.datetime(2026, 10, 25, 1, 30, tzinfo=LISBON),
    ],
)
def test_epoch_microseconds_are_exact_both_ways(instant):
    # Compared in UTC: Python never calls a time in a repeated hour equal to one in another
    # zone (PEP 495), though the instants are the same.
    assert fast.from_micros(to_micros(instant)) == instant.astimezone(dt.UTC)
    assert fast.from_micros(to_micros(instant)).tzinfo is dt.UTC
