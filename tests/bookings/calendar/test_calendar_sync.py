"""The sync as the periodic task and the command run it: a real HTTP fetch from a local server,
the feed's busy blocks replaced in the database, failures recorded with the old blocks kept."""

import datetime as dt
import socket
from functools import partial

import pytest
import time_machine

from bookings.calendar_fetch import fetch_feed
from bookings.calendar_sync import SyncResult, calendar_sync, sync_all_calendars
from bookings.models import BusyBlock, CalendarFeed
from bookings.selectors import open_slots_for
from tests.bookings.calendar.conftest import NOW, OWNER_FEED_BUSY, utc
from tests.factories import BusinessFactory, BusyBlockFactory, OpeningHoursFactory, ServiceFactory

pytestmark = pytest.mark.django_db

LATER = NOW + dt.timedelta(hours=1)
OWNER_LATER_BUSY = [
    (
        utc(3, 5, 16),
        utc(3, 5, 17),
        "Accountant",
        "accountant@ordina.test#20260305T160000Z",
    ),
    (
        utc(3, 10, 13),
        utc(3, 10, 14),
        "Video call with the New York dentist (moved)",
        "dentist@ordina.test#20260310T130000Z",
    ),
]


def synced_blocks(feed: CalendarFeed) -> list[tuple]:
    blocks = BusyBlock.objects.filter(feed=feed).order_by("starts_at", "source_uid")
    return [(b.starts_at, b.ends_at, b.summary, b.source_uid) for b in blocks]


def all_blocks(business) -> list[tuple]:
    blocks = BusyBlock.objects.filter(business=business).order_by("starts_at", "pk")
    return [(b.pk, b.feed_id, b.starts_at, b.ends_at, b.summary, b.source_uid) for b in blocks]


def test_sync_turns_the_feeds_events_into_busy_blocks_at_their_exact_instants(
    business, connect_feed
):
    feed = connect_feed(business, "owner.ics")

    result = calendar_sync(feed, now=NOW)

    assert result == SyncResult(feed_id=feed.pk, created=len(OWNER_FEED_BUSY))
    assert result.ok
    assert synced_blocks(feed) == OWNER_FEED_BUSY
    assert set(BusyBlock.objects.filter(feed=feed).values_list("business", flat=True)) == {
        business.pk
    }
    feed.refresh_from_db()
    assert (feed.last_synced_at, feed.last_error, feed.last_error_at) == (NOW, "", None)


def test_a_second_sync_replaces_the_blocks_rather_than_adding_to_them(business, connect_feed):
    feed = connect_feed(business, "owner.ics")
    calendar_sync(feed, now=NOW)

    again = calendar_sync(feed, now=LATER)

    assert again.created == len(OWNER_FEED_BUSY)
    assert synced_blocks(feed) == OWNER_FEED_BUSY

    feed.url = feed.url.replace("owner.ics", "owner-later.ics")
    feed.save()
    changed = calendar_sync(feed, now=LATER)

    assert changed.created == 2
    assert synced_blocks(feed) == OWNER_LATER_BUSY


def test_hand_entered_blocks_and_other_businesses_blocks_survive_syncs(business, connect_feed):
    by_hand = BusyBlockFactory(business=business, summary="Dentist (entered by hand)")
    neighbour = BusinessFactory()
    neighbours_feed = connect_feed(neighbour, "owner-later.ics")
    calendar_sync(neighbours_feed, now=NOW)
    neighbours_blocks = all_blocks(neighbour)
    feed = connect_feed(business, "owner.ics")

    calendar_sync(feed, now=NOW)
    feed.url = feed.url.replace("owner.ics", "owner-later.ics")
    feed.save()
    calendar_sync(feed, now=LATER)

    by_hand.refresh_from_db()
    assert by_hand.feed is None
    assert by_hand.summary == "Dentist (entered by hand)"
    assert BusyBlock.objects.filter(business=business, feed=None).count() == 1
    assert all_blocks(neighbour) == neighbours_blocks


@pytest.mark.parametrize(
    ("path", "fetch", "error"),
    [
        pytest.param(
            "malformed.ics",
            fetch_feed,
            "The calendar feed is not valid iCalendar: the event broken-date@ordina.test has an "
            "unreadable DTSTART: '2026-03-05 10h00'.",
            id="malformed",
        ),
        pytest.param(
            "truncated.ics",
            fetch_feed,
            "The calendar feed is not valid iCalendar: the VEVENT begun on line 12 never ends; "
            "the feed looks cut short.",
            id="cut short",
        ),
        pytest.param(
            "sign-in.html",
            fetch_feed,
            "The calendar feed is not valid iCalendar: it has no VCALENDAR (it begins "
            "'<!doctype html>'); the address leads to a web page, not to the calendar's ICS feed.",
            id="web page",
        ),
        pytest.param(
            "no-such-calendar.ics",
            fetch_feed,
            "Could not read the calendar feed: HTTP 404 Not Found",
            id="404",
        ),
        pytest.param(
            "slow.ics",
            partial(fetch_feed, timeout=0.2),
            "Could not read the calendar feed: no answer from 127.0.0.1 within 0.2 s.",
            id="timeout",
        ),
        pytest.param(
            "trickle.ics",
            partial(fetch_feed, timeout=0.3),
            "Could not read the calendar feed: the server did not finish answering within 0.3 s.",
            id="trickling answer",
        ),
        pytest.param(
            "owner.ics",
            partial(fetch_feed, max_bytes=1000),
            "Could not read the calendar feed: it is larger than 1,000 bytes.",
            id="too large, declared",
        ),
        pytest.param(
            "undeclared-length/owner.ics",
            partial(fetch_feed, max_bytes=1000),
            "Could not read the calendar feed: it is larger than 1,000 bytes.",
            id="too large, streamed",
        ),
        pytest.param(
            "redirect-to-file",
            fetch_feed,
            "Could not read the calendar feed: HTTP 302 Found - Redirection to url "
            "'file:///etc/passwd' is not allowed",
            id="redirect to a file",
        ),
    ],
)
def test_a_failed_sync_records_the_specific_error_and_keeps_the_previous_blocks(
    business, connect_feed, path, fetch, error
):
    feed = connect_feed(business, "owner.ics")
    calendar_sync(feed, now=NOW)
    blocks_before = all_blocks(business)
    feed.url = feed.url.replace("owner.ics", path)
    feed.save()

    result = calendar_sync(feed, now=LATER, fetch=fetch)

    assert result == SyncResult(feed_id=feed.pk, created=0, error=error)
    assert not result.ok
    assert all_blocks(business) == blocks_before
    feed.refresh_from_db()
    assert (feed.last_error, feed.last_error_at, feed.last_synced_at) == (error, LATER, NOW)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/cal.ics"])
def test_addresses_other_than_http_are_refused(business, url):
    feed = CalendarFeed.objects.create(business=business, url=url)

    result = calendar_sync(feed, now=NOW)

    assert result.error == (
        "Could not read the calendar feed: the address must start with http:// or https://."
    )


def test_a_server_that_refuses_the_connection_is_named(business):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    feed = CalendarFeed.objects.create(business=business, url=f"http://127.0.0.1:{port}/cal.ics")

    result = calendar_sync(feed, now=NOW)

    assert result.error == "Could not read the calendar feed: 127.0.0.1 refused the connection."


def test_an_unexpected_failure_is_recorded_not_raised(business, connect_feed):
    feed = connect_feed(business, "owner.ics")
    calendar_sync(feed, now=NOW)
    blocks_before = all_blocks(business)

    def broken_fetch(url: str) -> bytes:
        raise RuntimeError("something no one planned for")

    result = calendar_sync(feed, now=LATER, fetch=broken_fetch)

    assert result.error == "The calendar could not be synced because of an unexpected error."
    assert all_blocks(business) == blocks_before
    feed.refresh_from_db()
    assert feed.last_error == result.error


def test_a_successful_sync_clears_the_recorded_error(business, connect_feed):
    feed = connect_feed(business, "no-such-calendar.ics")
    calendar_sync(feed, now=NOW)
    feed.url = feed.url.replace("no-such-calendar.ics", "owner.ics")
    feed.save()

    calendar_sync(feed, now=LATER)

    feed.refresh_from_db()
    assert (feed.last_error, feed.last_error_at, feed.last_synced_at) == ("", None, LATER)


def test_the_fetch_names_itself_and_asks_for_a_calendar(business, connect_feed, feed_server):
    feed = connect_feed(business, "owner.ics")

    calendar_sync(feed, now=NOW)

    [(path, headers)] = feed_server.requests
    assert path == "owner.ics"
    assert headers["User-Agent"].startswith("Ordina-CalendarSync/")
    assert headers["Accept"].startswith("text/calendar")


def test_summaries_longer_than_the_field_are_cut_to_fit(business, connect_feed, feed_server):
    feed = connect_feed(business, "owner.ics")
    long_summary = "A very long meeting title " * 20

    def fetch_with_long_summary(url: str) -> bytes:
        body = fetch_feed(url)
        return body.replace(b"SUMMARY:Call with the supplier", f"SUMMARY:{long_summary}".encode())

    calendar_sync(feed, now=NOW, fetch=fetch_with_long_summary)

    block = BusyBlock.objects.get(feed=feed, source_uid__startswith="supplier-call@")
    assert block.summary == long_summary[:200]


def test_sync_all_calendars_syncs_every_feed_and_one_failure_stops_none(connect_feed):
    first, broken, last = (BusinessFactory(time_zone="Europe/Berlin") for _ in range(3))
    first_feed = connect_feed(first, "owner.ics")
    broken_feed = connect_feed(broken, "no-such-calendar.ics")
    last_feed = connect_feed(last, "owner-later.ics")

    results = sync_all_calendars(now=NOW)

    assert results == [
        SyncResult(feed_id=first_feed.pk, created=len(OWNER_FEED_BUSY)),
        SyncResult(
            feed_id=broken_feed.pk, error="Could not read the calendar feed: HTTP 404 Not Found"
        ),
        SyncResult(feed_id=last_feed.pk, created=2),
    ]
    assert synced_blocks(first_feed) == OWNER_FEED_BUSY
    assert synced_blocks(last_feed) == OWNER_LATER_BUSY


def test_synced_busy_time_disappears_from_availability(business, connect_feed):
    thursday = dt.date(2026, 3, 5)  # Pilates 10:00–11:00 Berlin time
    OpeningHoursFactory(
        business=business, weekday=thursday.weekday(), opens_at=dt.time(9), closes_at=dt.time(13)
    )
    haircut = ServiceFactory(
        business=business, duration_minutes=60, buffer_before_minutes=0, buffer_after_minutes=0
    )
    feed = connect_feed(business, "owner.ics")

    def thursday_starts() -> list[str]:
        slots = open_slots_for(haircut, first_day=thursday, last_day=thursday, now=NOW)
        return [f"{slot.start.astimezone(business.tzinfo):%H:%M}" for slot in slots]

    with time_machine.travel(NOW, tick=False):
        before = thursday_starts()
        calendar_sync(feed)
        after = thursday_starts()

    assert before == [f"{h:02}:{m:02}" for h in range(9, 12) for m in (0, 15, 30, 45)] + ["12:00"]
    assert after == ["09:00", "11:00", "11:15", "11:30", "11:45", "12:00"]
    feed.refresh_from_db()
    assert feed.last_synced_at == NOW
