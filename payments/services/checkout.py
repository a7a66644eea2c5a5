"""Opening a Stripe Checkout for a booking's deposit."""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bookings.models import Appointment
from payments import stripe_api
from payments.deposits import deposit_due, to_minor_units
from payments.models import Payment


@dataclass(frozen=True)
class DepositCheckout:
    payment: Payment
    url: str


def deposit_for(appointment: Appointment):
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
    booking request) returns the same payment and URL. None when no deposit is due.

    Raises stripe_api.StripeUnavailable; the caller releases the appointment then.
    """
    now = now or timezone.now()
    amount = deposit_for(appointment)
    if amount <= 0:
        return None
    with transaction.atomic():
        payment, _ = Payment.objects.select_for_update().get_or_create(
            appointment=appointment,
            defaults={
                "business": appointment.business,
                "amount": amount,
                "currency": appointment.business.currency,
                "expires_at": now + payment_hold(),
            },
        )
    if payment.checkout_session_id:
        return DepositCheckout(payment, payment.checkout_url)
    reference = {
        "ordina_payment": str(payment.pk),
        "ordina_appointment": str(appointment.public_id),
    }
    session = stripe_api.create_checkout_session(
        amount_minor=to_minor_units(payment.amount),
        currency=payment.currency,
        description=f"Deposit: {appointment.service.name}",
        customer_email=appointment.client.email or None,
        success_url=settings.PAYMENT_SUCCESS_URL,
        cancel_url=settings.PAYMENT_CANCEL_URL,
        expires_at=payment.expires_at,
        metadata=reference,
        # Derived from our own identity of the booking, so a retry opens no second Checkout.
        idempotency_key=f"ordina-checkout-{appointment.public_id}",
    )
    Payment.objects.filter(pk=payment.pk).update(
        checkout_session_id=session.id,
        checkout_url=session.url,
        payment_intent_id=session.payment_intent,
        livemode=session.livemode,
    )
    payment.refresh_from_db()
    return DepositCheckout(payment, session.url)
