"""Booking a time whose service may ask a deposit: the one flow the booking API, the chat's
Confirm and the chat's telling of the deposit use.

The appointment and its Payment row are written in one transaction (with the reminders of a
booking that asks no deposit): a booking awaiting its deposit is never on record without the
payment attempt that will either take the deposit or release the time. The Checkout is opened
afterwards (never while the day's booking lock is held), and a retry of the same request
opens the same one. A caller inside a transaction of its own (the chat) takes the two steps
itself, the second after its commit; one that holds none (the API) calls ``book_with_deposit``.
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from bookings.actors import CLIENT, Actor
from bookings.models import Appointment, AppointmentStatus, Client, Service
from bookings.services import BookingOutcome, ClientDetails
from payments.models import Payment
from payments.services.checkout import deposit_for, deposit_payment_prepare

from .appointment_changes import appointment_create
from .deposit_settlement import deposit_checkout_open


@dataclass(frozen=True)
class DepositBooking:
    outcome: BookingOutcome
    payment: Payment | None  # the deposit's, with its Checkout; None when none is due


def deposit_quote(*, service: Service, price: Decimal | None = None) -> Decimal:
    """The deposit a booking of ``service`` at ``price`` (the list price when None) would ask;
    0 when none."""
    agreed = service.list_price if price is None else price
    return deposit_for(Appointment(business=service.business, service=service, price=agreed))


def booking_with_deposit_create(
    *,
    service: Service,
    start: dt.datetime,
    client: ClientDetails | Client,
    idempotency_key: str | None,
    holder: str | None = None,
    price: Decimal | None = None,
    actor: Actor = CLIENT,
    now: dt.datetime | None = None,
) -> BookingOutcome:
    """The first step: ``appointment_create``, awaiting the deposit when one is due, with its
    Payment row. Raises what ``appointment_create`` raises; a repeat of the same request
    returns the first outcome (its payment was written with it)."""
    now = now or timezone.now()
    # Awaiting its deposit, the appointment already holds its time.
    awaits_deposit = deposit_quote(service=service, price=price) > 0
    status = AppointmentStatus.PENDING_PAYMENT if awaits_deposit else AppointmentStatus.CONFIRMED
    with transaction.atomic():
        outcome = appointment_create(
            service=service,
            start=start,
            client=client,
            idempotency_key=idempotency_key,
            holder=holder,
            price=price,
            status=status,
            actor=actor,
            now=now,
        )
        if outcome.created:
            deposit_payment_prepare(appointment=outcome.appointment, now=now)
    return outcome


def book_with_deposit(
    *,
    service: Service,
    start: dt.datetime,
    client: ClientDetails | Client,
    idempotency_key: str | None,
    holder: str | None = None,
) -> DepositBooking:
    """Both steps, for a caller holding no transaction: the booking (at the list price), then
    its Checkout when a deposit is due. Raises what ``appointment_create`` raises, or
    StripeUnavailable once the appointment has been released for want of a Checkout."""
    outcome = booking_with_deposit_create(
        service=service,
        start=start,
        client=client,
        idempotency_key=idempotency_key,
        holder=holder,
    )
    # Opened once; a repeated request gets the same Checkout, Stripe is not asked again.
    checkout = deposit_checkout_open(appointment=outcome.appointment)
    return DepositBooking(outcome, None if checkout is None else checkout.payment)
