"""Holding a slot while a client finishes: optimistic, one per holder, a few per client address,
expiring.

A hold hides the slot from other clients' availability and keeps it for its holder when the
booking is made. It is checked against current availability under the booking lock of its days
(bookings.locks), the lock a booking takes, so holds taken at the same instant are counted one
after the other and never together promise more places than the slot has. Without it, two
clients could each hold the last place; each one's booking would then count the other's hold,
and both would be refused while the place stayed empty. Whether a booking fits is still decided
again when it is made, under the same lock.

What bounds holds, so that one client cannot hide a business's whole day from everyone else:
each holder keeps at most one hold (a unique constraint; holding again replaces it), and each
client address at most ``HOLDS_PER_ADDRESS`` live holds per business. The address is counted
under a transaction-scoped advisory lock on (business, address) in PostgreSQL — at READ
COMMITTED, so the count sees what the previous holder of the lock committed — and SQLite's
IMMEDIATE transactions serialise writers anyway. Two requests from one address therefore
count one after the other and never both pass at the limit.
"""

import datetime as dt

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from bookings.addresses import address_hash
from bookings.availability import lock_days
from bookings.errors import InvalidBooking, SlotUnavailable, TooManyHolds
from bookings.locks import lock_booking_days
from bookings.models import Business, Service, SlotHold
from bookings.selectors import open_slots_for, service_shape

from .booking import nearest_alternatives

HOLDER_MAX = SlotHold._meta.get_field("holder").max_length or 64
# A class of advisory locks of its own: the two-key form of pg_advisory_xact_lock never meets
# the one-key form the booking days use (bookings.locks).
ADDRESS_LOCK_CLASS = 0x686F6C64  # "hold"


def hold_slot(
    *,
    service: Service,
    start: dt.datetime,
    holder: str,
    address: str | None = None,
    now: dt.datetime | None = None,
) -> SlotHold:
    """Hold ``start`` for ``holder`` (replacing any earlier hold of theirs) for the business's
    hold length. ``address`` is the client's network address (the public API always gives
    it); None where the caller has none yet — the chat's holds, one per conversation — and
    those holds are bounded by their holder alone.

    Raises InvalidBooking, SlotUnavailable (with alternatives) when the slot is not open, or
    TooManyHolds when the address already holds HOLDS_PER_ADDRESS slots at the business.
    """
    now = now or timezone.now()
    if timezone.is_naive(start):
        raise InvalidBooking({"start": "The start time needs a UTC offset or zone."})
    if not service.is_active:
        raise InvalidBooking({"service": "This service cannot be booked at the moment."})
    if not holder or not 1 <= len(holder) <= HOLDER_MAX or holder != holder.strip():
        raise InvalidBooking(
            {"holder": f"A holder has 1 to {HOLDER_MAX} characters and no surrounding spaces."}
        )
    business = service.business
    day = start.astimezone(business.tzinfo).date()
    shape = service_shape(service)
    occupancy = shape.occupancy(start)
    fingerprint = "" if address is None else address_hash(address)
    with transaction.atomic():
        # The days' booking lock first, then (below) the address's: every hold takes them in
        # that order, and a booking takes only the first, so none waits on another in a circle.
        lock_booking_days(business.pk, lock_days(occupancy, business.tzinfo))
        offered = open_slots_for(service, first_day=day, last_day=day, now=now, holder=holder)
        if not any(slot.start == start for slot in offered):
            raise SlotUnavailable(nearest_alternatives(service, start, now=now, holder=holder))
        if fingerprint:
            _check_address_limit(business, fingerprint, holder=holder, now=now)
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
                "address_hash": fingerprint,
            },
        )
    return hold


def _check_address_limit(
    business: Business, fingerprint: str, *, holder: str, now: dt.datetime
) -> None:
    """Inside the hold's transaction: wait for the address's lock, then refuse when its live
    holds at the business — other than the holder's own, which this hold replaces — are at the
    limit. Expired holds do not count, deleted or not."""
    limit = settings.HOLDS_PER_ADDRESS
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s::integer, hashtext(%s))",
                [ADDRESS_LOCK_CLASS, f"{business.pk}:{fingerprint}"],
            )
    live = (
        SlotHold.objects.filter(business=business, address_hash=fingerprint, expires_at__gt=now)
        .exclude(holder=holder)
        .count()
    )
    if live >= limit:
        raise TooManyHolds(limit)


def release_expired_holds(*, now: dt.datetime | None = None) -> int:
    """Delete holds past their expiry (they already stopped counting); returns how many."""
    deleted, _ = SlotHold.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted
