"""Asking Stripe directly: the only other way, besides a verified webhook, that a payment
becomes paid. Also the sweep that releases unpaid appointments whose hold ran out."""

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from bookings.actors import Actor
from bookings.models import Appointment, AppointmentStatus
from bookings.services import InStep, appointment_release_unpaid
from payments import stripe_api
from payments.models import Payment, PaymentStatus
from payments.stripe_events import StripeObject

from .checkout import payment_hold
from .facts import PaymentMismatch, apply_payment_facts
from .webhooks import _check_session

RECONCILE_AFTER = dt.timedelta(minutes=5)


@dataclass(frozen=True)
class Reconciliation:
    checked: int
    paid: int
    expired: int
    errors: list[str]


def payment_verify(
    payment: Payment, *, now: dt.datetime | None = None, in_step: InStep | None = None
) -> Payment:
    """Ask Stripe how this payment's Checkout stands and record what it confirms.
    Raises stripe_api.StripeUnavailable, PaymentMismatch."""
    now = now or timezone.now()
    if not payment.checkout_session_id:
        return payment
    session = stripe_api.retrieve_checkout_session(payment.checkout_session_id)
    as_event = StripeObject(
        kind="checkout.session",
        id=session.id,
        payment_intent=session.payment_intent,
        amount=session.amount_total,
        currency=session.currency,
        payment_status=session.payment_status,
        amount_refunded=None,
        reference=None,
    )
    _check_session(payment, as_event, session.livemode)
    if session.payment_status == "paid":
        return apply_payment_facts(payment, source=Actor.payments(), paid_at=now, in_step=in_step)
    if session.status == "expired":
        return apply_payment_facts(
            payment, source=Actor.payments(), expired_at=now, in_step=in_step
        )
    return payment


def reconcile_pending(
    *, now: dt.datetime | None = None, in_step: InStep | None = None
) -> Reconciliation:
    """Every payment still pending a few minutes after its Checkout opened, asked about."""
    now = now or timezone.now()
    pending = Payment.objects.filter(
        status=PaymentStatus.PENDING,
        checkout_session_id__isnull=False,
        created_at__lte=now - RECONCILE_AFTER,
    ).select_related("appointment")
    checked = paid = expired = 0
    errors = []
    for payment in pending:
        checked += 1
        try:
            after = payment_verify(payment, now=now, in_step=in_step)
        except Exception as problem:  # one payment's trouble must not stop the rest
            errors.append(f"payment {payment.pk}: {problem}")
            continue
        paid += after.status == PaymentStatus.PAID
        expired += after.status == PaymentStatus.EXPIRED
    return Reconciliation(checked, paid, expired, errors)


def release_unpaid_expired(*, now: dt.datetime | None = None, in_step: InStep | None = None) -> int:
    """The backstop to checkout.session.expired: payments still pending past their hold are
    expired and their appointments released. Stripe is asked first and the Checkout closed at
    Stripe before the time is let go, so a client who paid at the last moment (its webhook
    still on the way) keeps the appointment and nobody can pay a released one; a payment
    Stripe cannot be asked about is left for the next sweep. An appointment awaiting a deposit
    with no payment on record at all (written before payments were made with the booking) is
    released once a payment's hold would have run out. Returns how many were released."""
    now = now or timezone.now()
    overdue = Payment.objects.filter(status=PaymentStatus.PENDING, expires_at__lte=now)
    released = 0
    for payment in overdue:
        try:
            verified = payment_verify(payment, now=now, in_step=in_step)
            payment = _closed_at_stripe(verified, now, in_step)
        except (stripe_api.StripeUnavailable, PaymentMismatch):
            continue
        if payment.status == PaymentStatus.PENDING:
            payment = apply_payment_facts(
                payment, source=Actor.system(), expired_at=now, in_step=in_step
            )
        released += payment.status == PaymentStatus.EXPIRED
    orphans = Appointment.objects.filter(
        status=AppointmentStatus.PENDING_PAYMENT,
        payment__isnull=True,
        created_at__lte=now - payment_hold(),
    )
    for appointment in orphans:
        after = appointment_release_unpaid(
            appointment=appointment,
            actor=Actor.system(),
            data={"reason": "no payment was ever opened for the deposit"},
            in_step=in_step,
        )
        released += after.status == AppointmentStatus.EXPIRED
    return released


def _closed_at_stripe(payment: Payment, now: dt.datetime, in_step: InStep | None) -> Payment:
    """Still pending with an open Checkout: close it at Stripe. If Stripe will not because it
    was paid (or expired) meanwhile, what Stripe says now is recorded instead."""
    if payment.status != PaymentStatus.PENDING or not payment.checkout_session_id:
        return payment
    try:
        stripe_api.expire_checkout_session(payment.checkout_session_id)
    except stripe_api.StripeUnavailable:
        # Not open any more, or Stripe is down: ask again; still open means try next sweep.
        payment = payment_verify(payment, now=now, in_step=in_step)
        if payment.status == PaymentStatus.PENDING:
            raise
    return payment
