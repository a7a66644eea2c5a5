import datetime as dt

from agent.conversation.offering import OFFER_COUNT, slots_to_offer
from tests.agent.conversation.conftest import WEDNESDAY, lisbon


def _day(day: dt.date) -> list[dt.datetime]:
    return [lisbon(day, f"{hour:02d}:{minute:02d}") for hour in range(9, 17) for minute in (0, 30)]


def test_without_a_window_two_a_day_over_the_first_days():
    starts = (
        _day(WEDNESDAY)
        + _day(WEDNESDAY + dt.timedelta(days=1))
        + _day(WEDNESDAY + dt.timedelta(days=2))
        + _day(WEDNESDAY + dt.timedelta(days=3))
    )
    offered = slots_to_offer(starts, time_zone="Europe/Lisbon")
    assert len(offered) == OFFER_COUNT
    assert offered[:2] == [lisbon(WEDNESDAY, "09:00"), lisbon(WEDNESDAY, "13:00")]
    days = {start.astimezone(dt.UTC).date() for start in offered}
    assert len(days) == 3


def test_a_window_keeps_only_its_times():
    offered = slots_to_offer(
        _day(WEDNESDAY),
        time_zone="Europe/Lisbon",
        from_time=dt.time(12),
        to_time=dt.time(14),
    )
    assert offered == [lisbon(WEDNESDAY, t) for t in ("12:00", "12:30", "13:00", "13:30")]


def test_a_window_is_read_in_the_business_zone():
    offered = slots_to_offer(
        _day(WEDNESDAY), time_zone="America/New_York", from_time=dt.time(4), to_time=dt.time(5)
    )
    # 09:00 and 09:30 in Lisbon (UTC in December) are 04:00 and 04:30 in New York.
    assert offered == [lisbon(WEDNESDAY, "09:00"), lisbon(WEDNESDAY, "09:30")]


def test_nothing_open_offers_nothing():
    assert slots_to_offer([], time_zone="Europe/Lisbon") == []
