"""Booking a time whose service may ask a deposit: the one flow the booking API and the chat's
Confirm both use.

The appointment and its Payment row are written in one transaction: a booking awaiting its
deposit is never on record without the payment attempt that will either take the deposit or
release the time. The Checkout itself is opened afterwards by ``deposit_checkout_open`` (never
while the day's booking lock is held), and a retry of the same request opens the same one.
"""

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from bookings.actors import CLIENT, Actor
from bookings.models import Appointment, AppointmentStatus, Client, Service
from bookings.services import BookingOutcome, ClientDetails, appointment_create

from .checkout import deposit_for, deposit_payment_prepare


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
    """``appointment_create``, awaiting the deposit when one is due, with its Payment row.
    Raises what ``appointment_create`` raises; a repeat of the same request returns the first
    outcome (its payment was written with it)."""
    now = now or timezone.now()
    agreed = service.list_price if price is None else price
    deposit = deposit_for(Appointment(business=service.business, service=service, price=agreed))
    # Awaiting its deposit, the appointment already holds its time.
    status = AppointmentStatus.PENDING_PAYMENT if deposit > 0 else AppointmentStatus.CONFIRMED
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
