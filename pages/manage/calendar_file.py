"""The appointment as an iCalendar file (RFC 5545) for the client's own calendar. Pure: plain
values in, bytes out.

The event keeps one UID for the appointment's whole life and a SEQUENCE that grows with every
move or cancellation, so a calendar that imports a newer copy replaces the older one (and a
cancelled copy carries STATUS:CANCELLED). Times are written in UTC: every calendar reads them,
and no time-zone table has to travel with them; the business's own wall time is in the
description. ``bookings.calendar_sync`` reads calendars; this module only writes one.
"""

import datetime as dt
import uuid
from dataclasses import dataclass

import icalendar

PRODUCT_ID = "-//Ordina//Appointment//EN"


@dataclass(frozen=True)
class CalendarEntry:
    public_id: uuid.UUID  # the appointment's: the event's UID is made from it
    summary: str  # "Haircut — Studio Lumen"
    starts_at: dt.datetime
    ends_at: dt.datetime
    cancelled: bool
    sequence: int
    last_modified: dt.datetime
    url: str  # the client's appointment page
    description: str
    location: str = ""


def event_uid(public_id: uuid.UUID) -> str:
    return f"appointment-{public_id}@ordina"


def calendar_file(entry: CalendarEntry) -> bytes:
    event = icalendar.Event.new(
        uid=event_uid(entry.public_id),
        summary=entry.summary,
        start=entry.starts_at.astimezone(dt.UTC),
        end=entry.ends_at.astimezone(dt.UTC),
        # The copy's revision time, not the download's: two downloads of the same state are
        # the same file.
        stamp=entry.last_modified.astimezone(dt.UTC),
        last_modified=entry.last_modified.astimezone(dt.UTC),
        sequence=entry.sequence,
        status="CANCELLED" if entry.cancelled else "CONFIRMED",  # type: ignore[arg-type]
        url=entry.url,
        description=entry.description,
        location=entry.location or None,
    )
    calendar = icalendar.Calendar.new(
        prodid=PRODUCT_ID,
        method="PUBLISH",
        uid=f"calendar-{event_uid(entry.public_id)}",
        subcomponents=[event],
    )
    return calendar.to_ical()
