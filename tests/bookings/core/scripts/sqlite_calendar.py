"""Run by test_calendar_read.py in a fresh interpreter on an embedded SQLite file: the calendar
of the demo business, read by calendar_between (which has no hand-written SQL for SQLite) and
by a plain filter in Python over every row; and the week's slots, offered by open_slots_for and
by the plain rules of the test package on what the plain filter found. Prints both as JSON."""

import datetime as dt
import json
import os
import sys
from decimal import Decimal
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))  # the tests package
os.environ["DJANGO_SETTINGS_MODULE"] = "ordina.settings.local"
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from bookings.availability import Interval  # noqa: E402
from bookings.demo import seed_demo  # noqa: E402
from bookings.models import (  # noqa: E402
    OCCUPYING_STATUSES,
    Appointment,
    AppointmentStatus,
    BusyBlock,
    Client,
    Service,
    SlotHold,
)
from bookings.selectors import (  # noqa: E402
    booking_rules,
    calendar_between,
    day_bounds,
    open_slots_for,
    schedule_between,
    service_shape,
)
from tests.bookings.core import availability_oracle as oracle  # noqa: E402

call_command("migrate", verbosity=0)
now = dt.datetime.now(dt.UTC).replace(microsecond=0)
business = seed_demo(today=now.date(), owner_password="x").business
service = Service.objects.select_related("business").get(business=business, name="Haircut")
client = Client.objects.create(business=business, name="Ana", email="ana@example.com")
tomorrow = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(10), tzinfo=dt.UTC)
US = dt.timedelta(microseconds=1)


def appointment(start, minutes, seat, status=AppointmentStatus.CONFIRMED):
    end = start + dt.timedelta(minutes=minutes)
    return Appointment.objects.create(
        business=business,
        service=service,
        client=client,
        starts_at=start,
        ends_at=end,
        occupied_from=start,
        occupied_until=end,
        seat=seat,
        status=status,
        price=Decimal("25.00"),
    )


appointment(tomorrow + 3 * US, 60, seat=1)
appointment(tomorrow + dt.timedelta(minutes=30), 45, seat=2)
appointment(tomorrow + dt.timedelta(hours=3), 30, seat=1, status=AppointmentStatus.CANCELLED)
moved = appointment(tomorrow + dt.timedelta(hours=4), 30, seat=1)
for holder, expires in (
    ("someone", now + dt.timedelta(minutes=5)),
    ("asking", None),
    ("gone", now),
):
    SlotHold.objects.create(
        business=business,
        service=service,
        holder=holder,
        starts_at=tomorrow + dt.timedelta(hours=5),
        ends_at=tomorrow + dt.timedelta(hours=6) - US,
        occupied_from=tomorrow + dt.timedelta(hours=5),
        occupied_until=tomorrow + dt.timedelta(hours=6) - US,
        expires_at=expires or now + dt.timedelta(minutes=5),
    )
BusyBlock.objects.create(
    business=business,
    starts_at=tomorrow + dt.timedelta(hours=7),
    ends_at=tomorrow + dt.timedelta(hours=8) + 8 * US,
)

first_day, last_day = now.date(), now.date() + dt.timedelta(days=7)
span = day_bounds(business, first_day, last_day)
taken = calendar_between(
    business, span.start, span.end, now=now, holder="asking", excluding_appointment=moved.pk
)


def overlaps(start, end):
    return start < span.end and end > span.start


seated = [
    (Interval(a.occupied_from, a.occupied_until), a.seat)
    for a in Appointment.objects.filter(business=business)
    if a.status in OCCUPYING_STATUSES
    and a.pk != moved.pk
    and overlaps(a.occupied_from, a.occupied_until)
]
held = [
    Interval(h.occupied_from, h.occupied_until)
    for h in SlotHold.objects.filter(business=business)
    if h.holder != "asking" and h.expires_at > now and overlaps(h.occupied_from, h.occupied_until)
]
blocked = [
    Interval(b.starts_at, b.ends_at)
    for b in BusyBlock.objects.filter(business=business)
    if overlaps(b.starts_at, b.ends_at)
]
everything = Interval(span.start - dt.timedelta(days=1), span.end + dt.timedelta(days=1))


def spans(pairs):
    return sorted([i.start.isoformat(), i.end.isoformat(), seat] for i, seat in pairs)


plain = oracle.Taken.of(held=held, blocked=blocked, seated=seated)
offered = open_slots_for(
    service,
    first_day=first_day,
    last_day=last_day,
    now=now,
    holder="asking",
    excluding_appointment=moved.pk,
)
expected_slots = oracle.open_slots(
    rules=booking_rules(business),
    schedule=schedule_between(business, first_day, last_day),
    service=service_shape(service),
    taken=plain,
    now=now,
    first_day=first_day,
    last_day=last_day,
)
report = {
    "vendor": connection.vendor,
    "read": {
        name: spans(getattr(taken, name).overlapping(everything))
        for name in ("seated", "held", "blocked")
    },
    "expected": {
        "seated": spans(seated),
        "held": spans((i, None) for i in held),
        "blocked": spans((i, None) for i in blocked),
    },
    "slots": [[s.start.isoformat(), s.end.isoformat()] for s in offered],
    "expected_slots": [[s.start.isoformat(), s.end.isoformat()] for s in expected_slots],
}
json.dump(report, sys.stdout)
