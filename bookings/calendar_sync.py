"""The connected calendar: a business's ICS feed read into busy blocks.

Two halves, kept apart so the deciding half can be tested on bytes alone:
- ``busy_intervals`` (pure): ICS bytes, a window and the business's zone in, the busy time out.
  It expands recurring events (RRULE, RDATE, EXDATE, instances moved or cancelled through
  RECURRENCE-ID), leaves out free (TRANSP:TRANSPARENT) and cancelled events, and turns every
  kind of iCalendar time into a UTC instant: all-day dates become the business's own midnights,
  floating times its wall-clock times.
- ``calendar_sync`` (the shell): fetches the feed (``bookings.calendar_fetch``), and only once
  the feed has been read and parsed replaces the feed's busy blocks in one transaction. A
  failure of any kind leaves the previous blocks as they were and is recorded on the feed in
  words an owner can act on; it is never raised to the caller.

Blocks an owner entered by hand have no feed and are never touched here. This is the only
module that imports ``icalendar`` and ``recurring_ical_events``.
"""

import datetime as dt
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
from django.db import transaction
from django.utils import timezone

from bookings.availability import Interval, wall_to_instant
from bookings.calendar_fetch import (
    CalendarFeedError,
    FeedInvalid,
    FeedTooBusy,
    fetch_feed,
)
from bookings.models import BusyBlock, CalendarFeed

logger = logging.getLogger(__name__)

UTC = dt.UTC

FETCH_TIMEOUT_SECONDS = 15.0
MAX_FEED_BYTES = 5 * 1024 * 1024
USER_AGENT = "Ordina-CalendarSync/1.0 (+busy times for online booking)"
# Past and beyond the bookable days, so a block reaching into them from either side is kept.
WINDOW_MARGIN = dt.timedelta(days=1)
# Expanding a rule walks every repetition from its first one: a rule repeating each second or
# minute since years ago takes minutes of CPU, so such rules are refused rather than expanded.
REFUSED_FREQUENCIES = frozenset({"SECONDLY", "MINUTELY"})
MAX_BUSY_INTERVALS = 10_000
TIME_PROPERTIES = ("DTSTART", "DTEND", "DURATION", "RECURRENCE-ID", "RRULE", "RDATE", "EXDATE")

_CALENDAR_BEGINS = re.compile(rb"^(\xef\xbb\xbf)?BEGIN:VCALENDAR\s*$", re.IGNORECASE | re.MULTILINE)


# --- the pure half: ICS bytes to busy time -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class BusyInterval:
    """One busy occurrence: aware UTC instants [start, end), the event's summary and UID, and
    which occurrence of the event it is (its recurrence instant in iCalendar form)."""

    start: dt.datetime
    end: dt.datetime
    summary: str
    uid: str
    instance: str


def sync_window(now: dt.datetime, horizon_days: int) -> Interval:
    """The instants a sync imports: from a day before ``now`` to a day past the horizon."""
    return Interval(now - WINDOW_MARGIN, now + dt.timedelta(days=horizon_days) + WINDOW_MARGIN)


def busy_intervals(ics: bytes, *, window: Interval, tz: ZoneInfo) -> list[BusyInterval]:
    """The busy time ``ics`` holds inside ``window``, in time order.

    ``tz`` is the business's zone: all-day events run from its midnight to its midnight and
    floating times are its wall-clock times (an end inside a repeated hour means the later
    occurrence, so an ambiguous event blocks more, never less). Events that end before they
    start, or when they start, take no time and are left out.

    Raises ``FeedInvalid`` for anything that is not a readable VCALENDAR and ``FeedTooBusy``
    for a calendar too large to expand.
    """
    calendar = _parse(ics)
    try:
        _check_events(calendar, tz)
        query = recurring_ical_events.of(calendar)
        occurrences = query.between(window.start.astimezone(tz), window.end.astimezone(tz))
        intervals = [
            interval
            for interval in _intervals(occurrences, tz)
            if interval.start < interval.end
            and Interval(interval.start, interval.end).overlaps(window)
        ]
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError) as error:
        raise FeedInvalid(_describe_parse_error(error)) from error
    if len(intervals) > MAX_BUSY_INTERVALS:
        raise FeedTooBusy(
            f"it has {len(intervals)} events in the bookable period; "
            f"at most {MAX_BUSY_INTERVALS} are imported."
        )
    return sorted(intervals, key=lambda i: (i.start, i.end, i.uid, i.instance))


def _parse(ics: bytes) -> Any:
    if not ics.strip():
        raise FeedInvalid("the feed is empty.")
    if not _CALENDAR_BEGINS.search(ics):
        first_line = ics.lstrip().splitlines()[0][:60].decode("utf-8", "replace")
        hint = (
            "; the address leads to a web page, not to the calendar's ICS feed"
            if first_line.startswith("<")
            else ""
        )
        raise FeedInvalid(f"it has no VCALENDAR (it begins {first_line!r}){hint}.")
    if unbalanced := _unbalanced_component(ics):
        raise FeedInvalid(unbalanced)
    try:
        component = icalendar.Calendar.from_ical(ics)
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise FeedInvalid(_describe_parse_error(error)) from error
    if component.name != "VCALENDAR":
        raise FeedInvalid(f"it holds a {component.name} where a VCALENDAR was expected.")
    return component


def _unbalanced_component(ics: bytes) -> str | None:
    """Where BEGIN and END lines fail to pair up, said by line number: the parser itself only
    reports that it found no component."""
    open_components: list[tuple[str, int]] = []
    for number, line in enumerate(ics.splitlines(), start=1):
        # Folded continuation lines start with white space, so never match.
        keyword, _, value = line.rstrip().partition(b":")
        name = value.decode("utf-8", "replace").upper()
        if keyword.upper() == b"BEGIN":
            open_components.append((name, number))
        elif keyword.upper() == b"END":
            if not open_components:
                return f"END:{name} on line {number} closes nothing."
            opened, begun = open_components.pop()
            if opened != name:
                return (
                    f"the {opened} begun on line {begun} is closed by END:{name} on line {number}."
                )
    if open_components:
        opened, begun = open_components[-1]
        return f"the {opened} begun on line {begun} never ends; the feed looks cut short."
    return None


def _check_events(calendar: Any, tz: ZoneInfo) -> None:
    """Refuse what cannot be expanded, and flatten events that end before they start.

    The expansion library swaps such an event's start and end; turning it into a zero-length
    event instead keeps it out, while an occurrence it overrides stays overridden.
    """
    for event in calendar.walk("VEVENT"):
        uid = str(event.get("UID", "")) or "without a UID"
        if "DTSTART" not in event:
            raise FeedInvalid(f"the event {uid} has no start (DTSTART).")
        for name in TIME_PROPERTIES:
            for value in _as_list(event.get(name)):
                if isinstance(value, icalendar.vBroken):
                    raise FeedInvalid(f"the event {uid} has an unreadable {name}: {str(value)!r}.")
        for rule in _as_list(event.get("RRULE")):
            frequency = "".join(str(f) for f in rule.get("FREQ", ())).upper()
            if frequency in REFUSED_FREQUENCIES:
                raise FeedTooBusy(
                    f"the event {uid} repeats {frequency.lower()}; "
                    "events repeating every second or minute are not imported."
                )
        try:
            start = event["DTSTART"].dt
            end = _raw_end(event, start)
        except ValueError as error:
            raise FeedInvalid(f"the event {uid}: {_describe_parse_error(error)}") from error
        if end is not None and _instant(end, tz, latest=True) < _instant(start, tz):
            event.pop("DURATION", None)
            event["DTEND"] = icalendar.vDDDTypes(start)


def _raw_end(event: Any, start: dt.date) -> dt.date | None:
    if "DTEND" in event:
        return event["DTEND"].dt
    if "DURATION" in event:
        duration = event["DURATION"].dt
        if not isinstance(duration, dt.timedelta):
            raise FeedInvalid(f"the event {event.get('UID', '')} has an unreadable DURATION.")
        return start + duration
    return None


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _intervals(occurrences: Iterable[Any], tz: ZoneInfo) -> Iterator[BusyInterval]:
    for occurrence in occurrences:
        if str(occurrence.get("TRANSP", "")).upper() == "TRANSPARENT":
            continue  # shown as free in the owner's calendar
        if str(occurrence.get("STATUS", "")).upper() == "CANCELLED":
            continue
        start = occurrence["DTSTART"].dt
        recurrence = occurrence.get("RECURRENCE-ID") or occurrence["DTSTART"]
        yield BusyInterval(
            start=_instant(start, tz),
            end=_instant(occurrence["DTEND"].dt, tz, latest=True),
            summary=str(occurrence.get("SUMMARY", "")).strip(),
            uid=str(occurrence.get("UID", "")),
            instance=_ical_form(recurrence.dt),
        )


def _instant(value: dt.date, tz: ZoneInfo, *, latest: bool = False) -> dt.datetime:
    """An iCalendar DATE or DATE-TIME as a UTC instant; dates and floating times are read in
    ``tz``, through ``wall_to_instant`` so a midnight or a time in a DST gap still exists."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return wall_to_instant(value.date(), value.time(), tz, latest=latest)
        return value.astimezone(UTC)
    if isinstance(value, dt.date):
        return wall_to_instant(value, dt.time(0), tz, latest=latest)
    raise FeedInvalid(f"expected a date or a date-time, found {value!r}.")


def _ical_form(value: dt.date) -> str:
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return value.strftime("%Y%m%dT%H%M%S")
        return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return value.strftime("%Y%m%d")


def _describe_parse_error(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"a component lacks the required property {error.args[0]}."
    detail = str(error) or type(error).__name__
    return detail if len(detail) <= 300 else f"{detail[:297]}..."


# --- the shell: the database ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SyncResult:
    feed_id: int
    created: int = 0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


Fetch = Callable[[str], bytes]


def calendar_sync(
    feed: CalendarFeed, *, now: dt.datetime | None = None, fetch: Fetch = fetch_feed
) -> SyncResult:
    """Replace ``feed``'s busy blocks with the events its calendar holds now.

    The feed is fetched and parsed before anything is written; on any failure the previous
    blocks stay, the error is recorded on the feed and returned, and nothing is raised.
    """
    now = now or timezone.now()
    business = feed.business
    try:
        window = sync_window(now, business.booking_horizon_days)
        intervals = busy_intervals(fetch(feed.url), window=window, tz=business.tzinfo)
        created = _replace_blocks(feed, intervals, now=now)
    except CalendarFeedError as error:
        logger.warning("Calendar feed %s not synced: %s", feed.pk, error.message)
        return _failed(feed, error.message, now=now)
    except Exception:
        logger.exception("Calendar feed %s not synced: unexpected error", feed.pk)
        return _failed(
            feed, "The calendar could not be synced because of an unexpected error.", now=now
        )
    return SyncResult(feed_id=feed.pk, created=created)


def sync_all_calendars(
    *, now: dt.datetime | None = None, fetch: Fetch = fetch_feed
) -> list[SyncResult]:
    """Sync every connected calendar; one failing feed does not stop the others."""
    feeds = CalendarFeed.objects.select_related("business").order_by("pk")
    return [calendar_sync(feed, now=now, fetch=fetch) for feed in feeds]


def _replace_blocks(feed: CalendarFeed, intervals: list[BusyInterval], *, now: dt.datetime) -> int:
    summary_length = BusyBlock._meta.get_field("summary").max_length or 0
    uid_length = BusyBlock._meta.get_field("source_uid").max_length or 0
    blocks = [
        BusyBlock(
            business_id=feed.business_id,
            feed=feed,
            starts_at=interval.start,
            ends_at=interval.end,
            summary=interval.summary[:summary_length],
            source_uid=_source_uid(interval, uid_length),
        )
        for interval in intervals
    ]
    with transaction.atomic():
        # Two syncs of one feed at once would each delete the old blocks and both insert.
        CalendarFeed.objects.select_for_update().only("pk").get(pk=feed.pk)
        BusyBlock.objects.filter(feed=feed).delete()
        BusyBlock.objects.bulk_create(blocks)
        _record(feed, last_synced_at=now, last_error="", last_error_at=None)
    return len(blocks)


def _source_uid(interval: BusyInterval, limit: int) -> str:
    """The event's UID and the occurrence's instant, cut from the UID if too long."""
    suffix = f"#{interval.instance}"
    return f"{interval.uid[: max(limit - len(suffix), 0)]}{suffix}"[:limit]


def _failed(feed: CalendarFeed, message: str, *, now: dt.datetime) -> SyncResult:
    try:
        _record(feed, last_error=message, last_error_at=now)
    except Exception:
        logger.exception("Calendar feed %s: the sync error could not be recorded", feed.pk)
    return SyncResult(feed_id=feed.pk, error=message)


def _record(feed: CalendarFeed, **fields: Any) -> None:
    CalendarFeed.objects.filter(pk=feed.pk).update(updated_at=timezone.now(), **fields)
    for name, value in fields.items():
        setattr(feed, name, value)
