"""Opening a Stripe Checkout for a booking's deposit.

An appointment awaiting its deposit always has an open Checkout, or is released: the Payment
row is committed together with the Checkout it names, and when Stripe cannot open one the
appointment is released in the same transaction, so its time is offered again at once.
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bookings.models import Appointment, AppointmentStatus
from bookings.services import appointment_release_unpaid
from payments import stripe_api
from payments.deposits import deposit_due, to_minor_units
from payments.models import Payment


@dataclass(frozen=True)
class DepositCheckout:
    payment: Payment
    url: str


def deposit_for(appointment: Appointment) -> Decimal:
    """The deposit an appointment asks for; ``appointment`` may be one not yet booked (its
    business, service and price are all that is read)."""
    business, service = appointment.business, appointment.service
    return deposit_due(
        price=appointment.price,
        rule=business.deposit_rule,
        fixed_amount=business.deposit_amount,
        percent=business.deposit_percent,
        service_override=service.deposit_amount,
    )


def payment_hold() -> dt.timedelta:
    # Stripe lets a Checkout Session expire no sooner than 30 minutes after it opens.
    return dt.timedelta(minutes=max(30, settings.PAYMENT_HOLD_MINUTES))


def deposit_checkout_open(
    *, appointment: Appointment, now: dt.datetime | None = None
) -> DepositCheckout | None:
    """The Checkout for this appointment's deposit, opened once: a repeated call (a retried
    booking request) returns the same payment and URL without asking Stripe again. None when
    no Checkout was opened and none is due (no deposit, or the appointment no longer awaits
    one).

    When Stripe cannot open it, the appointment is released and StripeUnavailable raised.
    """
    now = now or timezone.now()
    if (opened := _opened(appointment)) is not None:
        return opened
    # A status never moves back to pending_payment, so a copy that has left it is conclusive.
    if appointment.status != AppointmentStatus.PENDING_PAYMENT:
        return None
    outage: stripe_api.StripeUnavailable | None = None
    # The appointment's row lock makes a twin request wait here, then find the Checkout this
    # one opened, instead of asking Stripe at the same moment with the same key.
    with transaction.atomic():
        current = (
            Appointment.objects.select_for_update(of=("self",))
            .select_related("business", "service", "client")
            .get(pk=appointment.pk)
        )
        if (opened := _opened(current)) is not None:
            return opened
        amount = deposit_for(current)
        if current.status != AppointmentStatus.PENDING_PAYMENT or amount <= 0:
            return None
        try:
            with transaction.atomic():
                payment = _open(current, amount, now)
        except stripe_api.StripeUnavailable as error:
            outage = error
            appointment_release_unpaid(
                appointment=current,
                actor="payments",
                data={"reason": "Stripe could not open the deposit's checkout"},
            )
    if outage is not None:
        raise outage
    return DepositCheckout(payment, payment.checkout_url)


def _opened(appointment: Appointment) -> DepositCheckout | None:
    payment = Payment.objects.filter(
        appointment_id=appointment.pk, checkout_session_id__isnull=False
    ).first()
    return None if payment is None else DepositCheckout(payment, payment.checkout_url)


def _open(appointment: Appointment, amount: Decimal, now: dt.datetime) -> Payment:
    """The Payment row and its Checkout; raises StripeUnavailable, and then the caller's
    savepoint takes the row back."""
    payment, _ = Payment.objects.get_or_create(
        appointment=appointment,
        defaults={
            "business": appointment.business,
            "amount": amount,
            "currency": appointment.business.currency,
            "expires_at": now + payment_hold(),
        },
    )
    session = stripe_api.create_checkout_session(
        amount_minor=to_minor_units(payment.amount),
        currency=payment.currency,
        description=f"Deposit: {appointment.service.name}",
        customer_email=appointment.client.email or None,
        success_url=settings.PAYMENT_SUCCESS_URL,
        cancel_url=settings.PAYMENT_CANCEL_URL,
        expires_at=payment.expires_at,
        metadata={
            "ordina_payment": str(payment.pk),
            "ordina_appointment": str(appointment.public_id),
        },
        # Derived from our own identity of the booking, so a retry opens no second Checkout.
        idempotency_key=f"ordina-checkout-{appointment.public_id}",
    )
    payment.checkout_session_id = session.id
    payment.checkout_url = session.url
    payment.payment_intent_id = session.payment_intent
    payment.livemode = session.livemode
    payment.save(
        update_fields=[
            "checkout_session_id",
            "checkout_url",
            "payment_intent_id",
            "livemode",
            "updated_at",
        ]
    )
    return payment
