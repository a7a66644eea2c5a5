"""The deposit of a booking: its Payment row, and the Stripe Checkout where the client pays it.

A booking that awaits a deposit is made in one transaction with its Payment row (see
``orchestration.booking_with_deposit``), so an appointment awaiting a deposit always has a
payment attempt on record, whatever happens to the process afterwards. The Checkout is opened
after that commit, never while the day's booking lock is held: the first call asks Stripe, with
an idempotency key derived from the booking and parameters derived only from stored values, so
a retry after a crash at any point — before Stripe heard of it, while it created the session,
after it answered — gets the same session, never a second one. When Stripe cannot open it, the
payment is marked failed and the appointment released in the same transaction, so its time is
offered again at once.

Stripe's Checkout lives a margin longer than our hold on the time (``CHECKOUT_MARGIN``): Stripe
wants at least 30 minutes between opening a session and its expiry, and a retry may open it
minutes after the booking. Nobody can pay after we released the time, because releasing closes
the session at Stripe first (``payments.services.reconcile``).
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bookings.actors import Actor
from bookings.models import Appointment, AppointmentStatus
from bookings.services import InStep
from payments import stripe_api
from payments.deposits import deposit_due, to_minor_units
from payments.models import Payment

from .facts import apply_payment_facts

# How much longer a Checkout stays open at Stripe than our hold on the time. Stripe refuses an
# expiry less than 30 minutes after the session opens; with this margin a retry opening it at
# the very end of the hold still leaves 30 minutes, and the parameters never depend on when
# the call is made (an idempotent retry must send the same ones).
CHECKOUT_MARGIN = dt.timedelta(minutes=30)


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
    # Never shorter than Stripe's own shortest Checkout: 30 minutes.
    return dt.timedelta(minutes=max(30, settings.PAYMENT_HOLD_MINUTES))


def checkout_expires_at(payment: Payment) -> dt.datetime:
    """When Stripe closes the payment's Checkout: fixed by the stored payment alone."""
    return payment.expires_at + CHECKOUT_MARGIN


def deposit_payment_prepare(*, appointment: Appointment, now: dt.datetime) -> Payment | None:
    """The Payment row of an appointment awaiting its deposit, written in the caller's
    transaction (the booking's): pending, with no Checkout yet. None when no deposit is due."""
    amount = deposit_for(appointment)
    if appointment.status != AppointmentStatus.PENDING_PAYMENT or amount <= 0:
        return None
    payment, _ = Payment.objects.get_or_create(
        appointment=appointment,
        defaults={
            "business": appointment.business,
            "amount": amount,
            "currency": appointment.business.currency,
            "expires_at": now + payment_hold(),
        },
    )
    return payment


def deposit_checkout_open(
    *, appointment: Appointment, now: dt.datetime | None = None, in_step: InStep | None = None
) -> DepositCheckout | None:
    """The Checkout for this appointment's deposit, opened once: a repeated call (a retried
    booking or Confirm) returns the same payment and URL without asking Stripe again, and a call
    after a crash mid-way asks Stripe with the same key and parameters, so Stripe answers with
    the session it may already have made. None when no Checkout was opened and none is due (no
    deposit, or the appointment no longer awaits one).

    When Stripe cannot open it, the payment is marked failed, the appointment released (with
    ``in_step``), and StripeUnavailable raised.
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
        payment = deposit_payment_prepare(appointment=current, now=now)
        if payment is None:
            return None
        try:
            session = _create_session(current, payment)
        except stripe_api.StripeUnavailable as error:
            outage = error
            # Failed, never charged: the appointment is released with it (one step, facts).
            apply_payment_facts(payment, source=Actor.payments(), failed_at=now, in_step=in_step)
        else:
            _record_session(payment, session)
    if outage is not None:
        raise outage
    return DepositCheckout(payment, payment.checkout_url)


def _opened(appointment: Appointment) -> DepositCheckout | None:
    payment = Payment.objects.filter(
        appointment_id=appointment.pk, checkout_session_id__isnull=False
    ).first()
    return None if payment is None else DepositCheckout(payment, payment.checkout_url)


def _create_session(appointment: Appointment, payment: Payment) -> stripe_api.CheckoutSession:
    """Ask Stripe for the payment's Checkout. Every parameter comes from stored rows, so a
    retry with the same key sends the same request (Stripe refuses a key reused otherwise)."""
    return stripe_api.create_checkout_session(
        amount_minor=to_minor_units(payment.amount),
        currency=payment.currency,
        description=f"Deposit: {appointment.service.name}",
        customer_email=appointment.client.email or None,
        # The business's own page; "{slug}" is filled in, Stripe's "{CHECKOUT_SESSION_ID}" is
        # Stripe's to fill (so a plain replace, not str.format).
        success_url=settings.PAYMENT_SUCCESS_URL.replace("{slug}", appointment.business.slug),
        cancel_url=settings.PAYMENT_CANCEL_URL.replace("{slug}", appointment.business.slug),
        expires_at=checkout_expires_at(payment),
        metadata={
            "ordina_payment": str(payment.pk),
            "ordina_appointment": str(appointment.public_id),
        },
        # Derived from our own identity of the booking, so a retry opens no second Checkout.
        idempotency_key=f"ordina-checkout-{appointment.public_id}",
    )


def _record_session(payment: Payment, session: stripe_api.CheckoutSession) -> None:
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
