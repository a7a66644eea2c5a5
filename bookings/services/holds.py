"""Holding a slot while a client finishes: optimistic, one per holder, expiring.

A hold hides the slot from other clients' availability and keeps it for its holder when the
booking is made. It is checked against current availability when taken, but two holds can
still race; the guarantee is made at booking time, under the lock.
"""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from bookings.errors import InvalidBooking, SlotUnavailable
from bookings.models import Service, SlotHold
from bookings.selectors import open_slots_for, service_shape

from .booking import nearest_alternatives

HOLDER_MAX = SlotHold._meta.get_field("holder").max_length or 64


def hold_slot(
    *, service: Service, start: dt.datetime, holder: str, now: dt.datetime | None = None
) -> SlotHold:
    """Hold ``start`` for ``holder`` (replacing any earlier hold of theirs) for the business's
    hold length. Raises SlotUnavailable, with alternatives, when the slot is not open."""
    now = now or timezone.now()
    if timezone.is_naive(start):
        raise InvalidBooking({"start": "The start time needs a UTC offset or zone."})
    if not service.is_active:
        raise InvalidBooking({"service": "This service cannot be booked at the moment."})
    if not 1 <= len(holder) <= HOLDER_MAX:
        raise InvalidBooking({"holder": f"A holder has 1 to {HOLDER_MAX} characters."})
    business = service.business
    day = start.astimezone(business.tzinfo).date()
    offered = open_slots_for(service, first_day=day, last_day=day, now=now, holder=holder)
    if not any(slot.start == start for slot in offered):
        raise SlotUnavailable(nearest_alternatives(service, start, now=now, holder=holder))
    shape = service_shape(service)
    occupancy = shape.occupancy(start)
    with transaction.atomic():
        hold, _ = SlotHold.objects.update_or_create(
            business=business,
            holder=holder,
            defaults={
                "service": service,
                "starts_at": start,
                "ends_at": start + shape.duration,
                "occupied_from": occupancy.start,
                "occupied_until": occupancy.end,
                "expires_at": now + dt.timedelta(minutes=business.hold_minutes),
            },
        )
    return hold


def release_expired_holds(*, now: dt.datetime | None = None) -> int:
    """Delete holds past their expiry (they already stopped counting); returns how many."""
    deleted, _ = SlotHold.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted
