"""The pure half of the calendar sync: ICS bytes, a window and a zone in, busy time out. No
database, no network, no clock."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bookings.calendar_sync import (
    BusyInterval,
    FeedInvalid,
    FeedTooBusy,
    busy_intervals,
    sync_window,
)
from tests.bookings.calendar.conftest import FEEDS, NOW, OWNER_FEED_BUSY, utc

BERLIN = ZoneInfo("Europe/Berlin")
WINDOW = sync_window(NOW, 60)


def feed_file(name: str) -> bytes:
    return (FEEDS / name).read_bytes()


def calendar(*events: str) -> bytes:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Ordina tests//EN", *events]
    return "\r\n".join([*lines, "END:VCALENDAR", ""]).encode()


def event(uid: str, *properties: str) -> str:
    lines = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260215T120000Z", *properties, "END:VEVENT"]
    return "\r\n".join(lines)


def rows(intervals: list[BusyInterval]) -> list[tuple]:
    return [(i.start, i.end, i.summary, f"{i.uid}#{i.instance}") for i in intervals]


def spans(intervals: list[BusyInterval]) -> list[tuple[dt.datetime, dt.datetime]]:
    return [(i.start, i.end) for i in intervals]


def test_window_runs_from_a_day_before_now_to_a_day_past_the_horizon():
    window = sync_window(NOW, 60)

    assert window.start == utc(3, 1, 8)
    assert window.end == utc(5, 2, 8)


def test_owner_feed_becomes_its_busy_time_in_utc_in_time_order():
    busy = busy_intervals(feed_file("owner.ics"), window=WINDOW, tz=BERLIN)

    assert rows(busy) == OWNER_FEED_BUSY


def test_weekly_event_keeps_its_wall_time_across_the_change_to_summer_time():
    busy = busy_intervals(feed_file("owner.ics"), window=WINDOW, tz=BERLIN)

    pilates = [i for i in busy if i.uid == "pilates-weekly@ordina.test"]
    assert [i.start.astimezone(BERLIN).strftime("%a %d %b %H:%M") for i in pilates] == [
        "Thu 05 Mar 10:00",
        "Tue 10 Mar 10:00",  # RDATE
        "Thu 19 Mar 15:00",  # moved by its override; 12 March is an EXDATE
        "Thu 26 Mar 10:00",
        "Thu 02 Apr 10:00",  # summer time; 9 April is cancelled by its override
    ]
    assert (pilates[3].start, pilates[4].start) == (utc(3, 26, 9), utc(4, 2, 8))


def test_free_cancelled_empty_and_backwards_events_take_no_time():
    busy = busy_intervals(feed_file("owner.ics"), window=WINDOW, tz=BERLIN)

    uids = {i.uid for i in busy}
    assert not uids & {
        "working-from-home@ordina.test",  # TRANSP:TRANSPARENT
        "dinner@ordina.test",  # STATUS:CANCELLED
        "reminder@ordina.test",  # DTEND = DTSTART
        "backwards@ordina.test",  # DTEND before DTSTART
    }


def test_events_outside_the_window_are_left_out_and_one_reaching_in_is_kept_whole():
    busy = busy_intervals(feed_file("owner.ics"), window=WINDOW, tz=BERLIN)

    uids = {i.uid for i in busy}
    assert "last-year@ordina.test" not in uids
    assert "summer-trip@ordina.test" not in uids
    conference = next(i for i in busy if i.uid == "conference@ordina.test")
    assert (conference.start, conference.end) == (utc(2, 26, 23), utc(3, 2, 23))


def test_all_day_event_on_a_day_whose_midnight_does_not_exist_starts_when_the_clocks_jump():
    # Chile springs forward at midnight: Sunday 6 September 2026 begins at 01:00 (UTC-3).
    santiago = ZoneInfo("America/Santiago")
    ics = calendar(event("chile", "DTSTART;VALUE=DATE:20260906", "SUMMARY:Fiestas"))
    window = sync_window(dt.datetime(2026, 9, 1, tzinfo=dt.UTC), 30)

    busy = busy_intervals(ics, window=window, tz=santiago)

    assert spans(busy) == [
        (dt.datetime(2026, 9, 6, 4, tzinfo=dt.UTC), dt.datetime(2026, 9, 7, 3, tzinfo=dt.UTC))
    ]


def test_floating_time_reads_as_business_wall_time_and_utc_time_stays_utc():
    ics = calendar(
        event("floating", "DTSTART:20260310T090000", "DTEND:20260310T100000"),
        event("utc", "DTSTART:20260310T090000Z", "DTEND:20260310T100000Z"),
    )

    busy = busy_intervals(ics, window=WINDOW, tz=ZoneInfo("Asia/Tokyo"))

    assert rows(busy) == [
        (utc(3, 10, 0), utc(3, 10, 1), "", "floating#20260310T090000"),
        (utc(3, 10, 9), utc(3, 10, 10), "", "utc#20260310T090000Z"),
    ]


def test_duration_and_missing_end_follow_the_icalendar_rules():
    ics = calendar(
        event("with-duration", "DTSTART:20260310T090000Z", "DURATION:PT90M"),
        event("date-without-end", "DTSTART;VALUE=DATE:20260311"),
        event("moment-without-end", "DTSTART:20260312T090000Z"),
    )

    busy = busy_intervals(ics, window=WINDOW, tz=BERLIN)

    assert rows(busy) == [
        (utc(3, 10, 9), utc(3, 10, 10, 30), "", "with-duration#20260310T090000Z"),
        (utc(3, 10, 23), utc(3, 11, 23), "", "date-without-end#20260311"),
    ]


def test_cancelled_override_removes_only_its_own_occurrence():
    ics = calendar(
        event(
            "daily",
            "DTSTART;TZID=Europe/Berlin:20260303T080000",
            "DTEND;TZID=Europe/Berlin:20260303T083000",
            "RRULE:FREQ=DAILY;COUNT=3",
        ),
        event(
            "daily",
            "RECURRENCE-ID;TZID=Europe/Berlin:20260304T080000",
            "DTSTART;TZID=Europe/Berlin:20260304T080000",
            "DTEND;TZID=Europe/Berlin:20260304T083000",
            "STATUS:CANCELLED",
        ),
        event(
            "daily",
            "RECURRENCE-ID;TZID=Europe/Berlin:20260305T080000",
            "DTSTART;TZID=Europe/Berlin:20260305T080000",
            "DTEND;TZID=Europe/Berlin:20260305T083000",
            "TRANSP:TRANSPARENT",
        ),
    )

    busy = busy_intervals(ics, window=WINDOW, tz=BERLIN)

    assert spans(busy) == [(utc(3, 3, 7), utc(3, 3, 7, 30))]


@pytest.mark.parametrize(
    ("ics", "message"),
    [
        pytest.param(
            feed_file("malformed.ics"),
            "The calendar feed is not valid iCalendar: the event broken-date@ordina.test has an "
            "unreadable DTSTART: '2026-03-05 10h00'.",
            id="unreadable date",
        ),
        pytest.param(
            feed_file("truncated.ics"),
            "The calendar feed is not valid iCalendar: the VEVENT begun on line 12 never ends; "
            "the feed looks cut short.",
            id="cut short",
        ),
        pytest.param(
            feed_file("sign-in.html"),
            "The calendar feed is not valid iCalendar: it has no VCALENDAR (it begins "
            "'<!doctype html>'); the address leads to a web page, not to the calendar's ICS feed.",
            id="web page",
        ),
        pytest.param(
            event("alone", "DTSTART:20260310T090000Z").encode(),
            "The calendar feed is not valid iCalendar: it has no VCALENDAR (it begins "
            "'BEGIN:VEVENT').",
            id="event without calendar",
        ),
        pytest.param(
            b"  \r\n", "The calendar feed is not valid iCalendar: the feed is empty.", id="empty"
        ),
        pytest.param(
            calendar(event("no-start", "SUMMARY:When?")),
            "The calendar feed is not valid iCalendar: the event no-start has no start (DTSTART).",
            id="no start",
        ),
        pytest.param(
            calendar("BEGIN:VEVENT", "UID:open", "DTSTART:20260310T090000Z"),
            "The calendar feed is not valid iCalendar: the VEVENT begun on line 4 is closed by "
            "END:VCALENDAR on line 7.",
            id="unclosed event",
        ),
        pytest.param(
            calendar(event("bad-rule", "DTSTART:20260310T090000Z", "RRULE:FREQ=SOMETIMES")),
            "The calendar feed is not valid iCalendar: the event bad-rule has an unreadable "
            "RRULE: 'FREQ=SOMETIMES'.",
            id="bad rule",
        ),
    ],
)
def test_a_feed_that_is_not_icalendar_is_refused_with_a_specific_reason(ics, message):
    with pytest.raises(FeedInvalid) as refusal:
        busy_intervals(ics, window=WINDOW, tz=BERLIN)

    assert refusal.value.message == message


def test_a_rule_repeating_every_minute_is_refused_rather_than_expanded():
    ics = calendar(
        event("tick", "DTSTART:20000101T000000Z", "DURATION:PT1M", "RRULE:FREQ=MINUTELY")
    )

    with pytest.raises(FeedTooBusy) as refusal:
        busy_intervals(ics, window=WINDOW, tz=BERLIN)

    assert refusal.value.message == (
        "The calendar feed cannot be imported: the event tick repeats minutely; events "
        "repeating every second or minute are not imported."
    )


def test_more_busy_intervals_than_the_limit_are_refused(monkeypatch):
    monkeypatch.setattr("bookings.calendar_sync.MAX_BUSY_INTERVALS", 5)
    ics = calendar(event("daily", "DTSTART:20260303T090000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY"))

    with pytest.raises(FeedTooBusy) as refusal:
        busy_intervals(ics, window=WINDOW, tz=BERLIN)

    assert refusal.value.message == (
        "The calendar feed cannot be imported: it has 60 events in the bookable period; at most "
        "5 are imported."
    )
