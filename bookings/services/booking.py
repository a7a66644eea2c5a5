"""The one door through which an appointment is created.

In one transaction at READ COMMITTED: take the advisory lock of every business-zone day the
new appointment's occupancy touches, then decide — with the same rules that produce the slots
offered to clients — whether the start is still open, give it a free seat, and insert. The
database's exclusion constraint on (business, seat, occupancy) is the backstop should any
writer ever skip the lock.

An owner may book a walk-in outside the calendar's rules (``WalkInOverride``): the hours, the
notice, the horizon, the slot grid and busy blocks may be set aside, with the reason kept in
the appointment's history; capacity and the price floor may not (``bookings.refusal_reasons``).
"""

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from bookings.actors import CLIENT, Actor, ActorKind
from bookings.availability import Interval, free_seat, is_open_slot, lock_days
from bookings.errors import IdempotencyConflict, InvalidBooking, SlotUnavailable
from bookings.locks import lock_booking_days
from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
    Client,
    Membership,
    Role,
    Service,
)
from bookings.refusal_reasons import slot_refusals, standing_refusal
from bookings.row_inserts import insert_row_and_child
from bookings.selectors import (
    booking_rules,
    calendar_between,
    open_slots_for,
    schedule_between,
    service_shape,
)
from bookings.tokens import manage_token, token_hash

from .clients import ClientDetails, client_for_booking
from .hold_release import hold_release
from .in_step import InStep, keep_in_step

ALTERNATIVES = 3
ALTERNATIVE_DAYS = 7
BACKSTOP = "appointment_no_overlap_per_seat"  # the exclusion constraint, migration 0004
MAX_PRICE = Decimal("99999999.99")  # what the price column holds
INACTIVE = gettext_noop("This service cannot be booked at the moment.")
BOOKABLE_STATUSES = frozenset({AppointmentStatus.CONFIRMED, AppointmentStatus.PENDING_PAYMENT})
OVERRIDE_REASON_MAX = 200
OWNERS_ONLY = "Only an owner of this business may book outside the rules."


@dataclass(frozen=True)
class BookingOutcome:
    appointment: Appointment
    created: bool  # False when an earlier request with the same idempotency key made it
    manage_token: str


@dataclass(frozen=True)
class WalkInOverride:
    """An owner's decision to book outside the calendar's rules, and why ("walked in while the
    chair was free"). The owner is the booking's actor: the core refuses the override from
    anyone who is not an owner of the service's business."""

    reason: str


@dataclass(frozen=True)
class Seating:
    """Where an appointment sits, and the rules a walk-in set aside to sit there."""

    seat: int
    rules_overridden: tuple[str, ...] = ()


def request_fingerprint(
    service: Service, start: dt.datetime, client: ClientDetails | Client
) -> str:
    """What makes two booking requests "the same" for an idempotency key."""
    facts = {
        "service": service.pk,
        "start": start.astimezone(dt.UTC).isoformat(),
        "name": client.name,
        "email": client.email,
        "phone": client.phone,
    }
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()


def appointment_create(
    *,
    service: Service,
    start: dt.datetime,
    client: ClientDetails | Client,
    idempotency_key: str | None = None,
    holder: str | None = None,
    price: Decimal | None = None,
    status: str = AppointmentStatus.CONFIRMED,
    actor: Actor = CLIENT,
    now: dt.datetime | None = None,
    override: WalkInOverride | None = None,
    in_step: InStep | None = None,
) -> BookingOutcome:
    """Book ``service`` at ``start`` for ``client`` (details, or an existing client row), at
    ``price`` (the list price when None), recorded as done by ``actor``. With ``override``, an
    owner books a walk-in: the calendar's rules other than capacity may be broken, and the
    reason and the rules broken are written to the history. ``in_step`` runs in the booking's
    transaction, once the appointment is written (not on a replay).

    Raises InvalidBooking (bad request, a price below the floor or above the list price, or an
    override without a reason or from someone not an owner here), IdempotencyConflict (key
    reused for another request) or SlotUnavailable (the time is not open, or was just taken;
    with real alternatives and the rules it breaks).
    A repeated request with the same key returns the first outcome, unchanged.
    """
    now = now or timezone.now()
    business = service.business
    if timezone.is_naive(start):
        raise InvalidBooking({"start": "The start time needs a UTC offset or zone."})
    if isinstance(client, ClientDetails):
        client = client.normalized(business)
    fingerprint = request_fingerprint(service, start, client)
    if idempotency_key:
        _check_key(idempotency_key)
    _check_request(service, client, price, status)
    if override is not None:
        override = _checked_override(service, actor, override)
    occupancy = service_shape(service).occupancy(start)
    try:
        with transaction.atomic():
            lock_booking_days(business.pk, lock_days(occupancy, business.tzinfo))
            # Looked up under the lock: a twin request may have committed while this one waited.
            # A retry gets the first answer even if the service was switched off since.
            if idempotency_key and (earlier := _replay(service, idempotency_key, fingerprint)):
                return earlier
            if not service.is_active:
                raise InvalidBooking({"service": INACTIVE})
            if override is None:
                seating = Seating(_seat_if_open(service, start, occupancy, holder=holder, now=now))
            else:
                seating = _seating(service, start, occupancy, holder=holder, now=now, walk_in=True)
            appointment, token = _insert(
                service=service,
                start=start,
                occupancy=occupancy,
                seating=seating,
                override=override,
                client=client,
                price=service.list_price if price is None else price,
                status=status,
                idempotency_key=idempotency_key,
                fingerprint=fingerprint,
                actor=actor,
            )
            if holder:
                hold_release(business_id=business.pk, holder=holder)
            keep_in_step(in_step, appointment, now)
    except SlotUnavailable as refusal:
        refusal.alternatives = nearest_alternatives(service, start, now=now, holder=holder)
        raise
    except IntegrityError as error:
        # Only a twin key on another day's lock, or a writer that skipped the lock, gets here.
        if idempotency_key and (earlier := _replay(service, idempotency_key, fingerprint)):
            return earlier
        if violated_constraint(error) != BACKSTOP:
            raise
        raise SlotUnavailable(
            nearest_alternatives(service, start, now=now, holder=holder)
        ) from None
    return BookingOutcome(appointment, True, token)


def violated_constraint(error: IntegrityError) -> str | None:
    """The name of the database constraint behind ``error``, when the driver reports it."""
    diagnostics = getattr(error.__cause__, "diag", None)
    return getattr(diagnostics, "constraint_name", None)


def _check_key(idempotency_key: str) -> None:
    if not 1 <= len(idempotency_key) <= 255:
        raise InvalidBooking({"idempotency_key": "An idempotency key has 1 to 255 characters."})


def _check_request(
    service: Service,
    client: ClientDetails | Client,
    price: Decimal | None,
    status: str,
) -> None:
    """What can be refused without looking at the calendar (the service's being bookable is
    checked under the lock, after a possible replay)."""
    errors = {}
    if price is not None and not 0 <= price <= MAX_PRICE:
        errors["price"] = f"The agreed price must be between 0 and {MAX_PRICE}."
    elif price is not None and (refusal := price_refusal(service, price)):
        errors["price"] = refusal
    if status not in BOOKABLE_STATUSES:
        errors["status"] = f"A new appointment is {' or '.join(sorted(BOOKABLE_STATUSES))}."
    if isinstance(client, Client) and client.business_id != service.business_id:
        errors["client"] = "This client belongs to another business."
    if errors:
        raise InvalidBooking(errors)


def _checked_override(service: Service, actor: Actor, override: WalkInOverride) -> WalkInOverride:
    """The override with its reason trimmed, or InvalidBooking: it needs a reason of bounded
    length, and an actor who owns the service's business (checked here, not trusted from the
    caller: a staff member's forged form, the assistant or a client never get past it)."""
    reason = override.reason.strip()
    if not reason:
        raise InvalidBooking(
            {"override_reason": "Say why this walk-in is booked outside the rules."}
        )
    if len(reason) > OVERRIDE_REASON_MAX:
        raise InvalidBooking(
            {"override_reason": f"The reason has at most {OVERRIDE_REASON_MAX} characters."}
        )
    is_owner = (
        actor.kind == ActorKind.OWNER
        and actor.user_id is not None
        and Membership.objects.filter(
            user_id=actor.user_id, business_id=service.business_id, role=Role.OWNER
        ).exists()
    )
    if not is_owner:
        raise InvalidBooking({"override": OWNERS_ONLY})
    return WalkInOverride(reason=reason)


def price_refusal(service: Service, price: Decimal) -> str | None:
    """Why ``price`` cannot be agreed for ``service``, or None. The one rule every writer of a
    price meets — the dashboard, the API, the assistant: no price below the service's floor,
    none above its list price (a price is only ever negotiated down from it)."""
    if price < service.price_floor:
        currency = service.business.currency
        return (
            f"{price} {currency} is below the floor of {service.price_floor} {currency} "
            f"for {service.name}."
        )
    if price > service.list_price:
        currency = service.business.currency
        return (
            f"{price} {currency} is above the list price of {service.list_price} {currency} "
            f"for {service.name}."
        )
    return None


# The unique (business, key) index answers this. Hand-written: every booking asks it under the
# booking lock, and almost always finds nothing; only a replay loads the earlier appointment.
_EARLIER = (
    "SELECT id, request_fingerprint FROM bookings_appointment"
    " WHERE business_id = %s AND idempotency_key = %s"
)


def _replay(service: Service, key: str, fingerprint: str) -> BookingOutcome | None:
    with connection.cursor() as cursor:
        cursor.execute(_EARLIER, [service.business_id, key])
        found = cursor.fetchone()
    if found is None:
        return None
    earlier_id, earlier_fingerprint = found
    if earlier_fingerprint != fingerprint:
        raise IdempotencyConflict()
    earlier = Appointment.objects.select_related("service", "client").get(pk=earlier_id)
    earlier.business = service.business
    return BookingOutcome(earlier, False, manage_token(earlier.public_id))


def _seat_if_open(
    service: Service,
    start: dt.datetime,
    occupancy: Interval,
    *,
    holder: str | None,
    now: dt.datetime,
    excluding_appointment: int | None = None,
) -> int:
    """Under the lock: the seat for an appointment at ``start``, or SlotUnavailable."""
    return _seating(
        service,
        start,
        occupancy,
        holder=holder,
        now=now,
        excluding_appointment=excluding_appointment,
    ).seat


def _seating(
    service: Service,
    start: dt.datetime,
    occupancy: Interval,
    *,
    holder: str | None,
    now: dt.datetime,
    excluding_appointment: int | None = None,
    walk_in: bool = False,
) -> Seating:
    """Under the lock: where an appointment at ``start`` sits, or SlotUnavailable naming the
    rule that stands. An open slot is decided by the very predicate that offers slots; only a
    refused one is examined rule by rule (for its reason, or for a walk-in's override)."""
    business = service.business
    rules = booking_rules(business)
    day = start.astimezone(rules.time_zone).date()
    taken = calendar_between(
        business,
        occupancy.start - dt.timedelta(days=1),
        occupancy.end + dt.timedelta(days=1),
        now=now,
        holder=holder,
        excluding_appointment=excluding_appointment,
    )
    schedule = schedule_between(business, day, day)
    shape = service_shape(service)
    if is_open_slot(start, rules=rules, schedule=schedule, service=shape, taken=taken, now=now):
        return Seating(free_seat(occupancy, taken, rules.capacity))
    refusals = slot_refusals(
        start, rules=rules, schedule=schedule, service=shape, taken=taken, now=now
    )
    stands = standing_refusal(refusals, walk_in=walk_in)
    # A refused start with no named rule would be a disagreement between the two modules:
    # refused all the same, never booked.
    if refusals and stands is None:
        overridden = tuple(refusal.code.value for refusal in refusals)
        return Seating(free_seat(occupancy, taken, rules.capacity), overridden)
    raise SlotUnavailable([], refusals=refusals, reason=stands)


def _insert(
    *,
    service: Service,
    start: dt.datetime,
    occupancy: Interval,
    seating: Seating,
    override: WalkInOverride | None,
    client: ClientDetails | Client,
    price: Decimal,
    status: str,
    idempotency_key: str | None,
    fingerprint: str,
    actor: Actor,
) -> tuple[Appointment, str]:
    """The appointment written with its first history entry, and its manage token (only the
    token's hash is stored)."""
    business = service.business
    if isinstance(client, ClientDetails):
        client = client_for_booking(business, client)
    appointment = Appointment(
        business=business,
        service=service,
        client=client,
        starts_at=start,
        ends_at=start + dt.timedelta(minutes=service.duration_minutes),
        occupied_from=occupancy.start,
        occupied_until=occupancy.end,
        seat=seating.seat,
        status=status,
        price=price,
        list_price=service.list_price,  # the discount, if any, is measured from this
        idempotency_key=idempotency_key,
        request_fingerprint=fingerprint,
    )
    token = manage_token(appointment.public_id)
    appointment.manage_token_hash = token_hash(token)
    appointment.manage_token_expires_at = appointment.ends_at
    history = AppointmentEvent(
        business=business,
        kind=AppointmentEventKind.CREATED,
        **actor.fields(),
        data=_creation_facts(start, seating, status, price, override),
    )
    insert_row_and_child(appointment, history, link="appointment")
    return appointment, token


def _creation_facts(
    start: dt.datetime,
    seating: Seating,
    status: str,
    price: Decimal,
    override: WalkInOverride | None,
) -> dict:
    facts = {
        "start": start.isoformat(),
        "seat": seating.seat,
        "status": status,
        "price": str(price),
    }
    if override is not None:
        facts |= {"override": override.reason, "rules_overridden": list(seating.rules_overridden)}
    return facts


def nearest_alternatives(
    service: Service,
    wanted: dt.datetime,
    *,
    now: dt.datetime,
    holder: str | None = None,
    excluding_appointment: int | None = None,
    count: int = ALTERNATIVES,
) -> list[Interval]:
    """Real open slots nearest to ``wanted``, from its day through the following week."""
    day = wanted.astimezone(service.business.tzinfo).date()
    slots = open_slots_for(
        service,
        first_day=day,
        last_day=day + dt.timedelta(days=ALTERNATIVE_DAYS),
        now=now,
        holder=holder,
        excluding_appointment=excluding_appointment,
    )
    nearest = sorted(slots, key=lambda slot: abs(slot.start - wanted))[:count]
    return sorted(nearest, key=lambda slot: slot.start)
