import datetime as dt
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from bookings.time_ranges import first_overlap


def t(text: str) -> dt.time:
    return dt.time.fromisoformat(text)


def test_touching_ranges_do_not_overlap():
    assert first_overlap([(t("13:00"), t("17:00")), (t("09:00"), t("13:00"))]) is None


def test_the_first_overlapping_pair_is_reported_in_start_order():
    morning, lunch, evening = (
        (t("09:00"), t("13:00")),
        (t("12:00"), t("14:00")),
        (t("18:00"), t("20:00")),
    )
    assert first_overlap([evening, lunch, morning]) == (morning, lunch)


minutes = st.integers(min_value=0, max_value=24 * 60 - 2)


@st.composite
def time_ranges(draw):
    start = draw(minutes)
    end = draw(st.integers(min_value=start + 1, max_value=24 * 60 - 1))
    as_time = lambda m: dt.time(m // 60, m % 60)  # noqa: E731
    return as_time(start), as_time(end)


@given(st.lists(time_ranges(), max_size=8))
def test_an_overlap_is_found_exactly_when_some_pair_overlaps(ranges):
    any_pair_overlaps = any(a[0] < b[1] and b[0] < a[1] for a, b in combinations(ranges, 2))

    assert (first_overlap(ranges) is not None) == any_pair_overlaps
