"""Asking Stripe directly: the only other way, besides a verified webhook, that a payment
becomes paid. Also the sweep that releases unpaid appointments whose hold ran out."""

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from payments import stripe_api
from payments.models import Payment, PaymentStatus

from .facts import PaymentMismatch, apply_payment_facts
from .webhooks import _check_session

RECONCILE_AFTER = dt.timedelta(minutes=5)


@dataclass(frozen=True)
class Reconciliation:
    checked: int
    paid: int
    expired: int
    errors: list[str]


def payment_verify(payment: Payment, *, now: dt.datetime | None = None) -> Payment:
    """Ask Stripe how this payment's Checkout stands and record what it confirms.
    Raises stripe_api.StripeUnavailable, PaymentMismatch."""
    now = now or timezone.now()
    if not payment.checkout_session_id:
        return payment
    session = stripe_api.retrieve_checkout_session(payment.checkout_session_id)
    as_event = {
        "id": session.id,
        "amount_total": session.amount_total,
        "currency": session.currency,
        "payment_intent": session.payment_intent,
    }
    _check_session(payment, as_event, session.livemode)
    if session.payment_status == "paid":
        return apply_payment_facts(payment, source="reconciliation", paid_at=now)
    if session.status == "expired":
        return apply_payment_facts(payment, source="reconciliation", expired_at=now)
    return payment


def reconcile_pending(*, now: dt.datetime | None = None) -> Reconciliation:
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
            after = payment_verify(payment, now=now)
        except Exception as problem:  # one payment's trouble must not stop the rest
            errors.append(f"payment {payment.pk}: {problem}")
            continue
        paid += after.status == PaymentStatus.PAID
        expired += after.status == PaymentStatus.EXPIRED
    return Reconciliation(checked, paid, expired, errors)


def release_unpaid_expired(*, now: dt.datetime | None = None) -> int:
    """The backstop to checkout.session.expired: payments still pending past their hold are
    expired and their appointments released. Stripe is asked first, so a client who paid at
    the last moment (its webhook still on the way) keeps the appointment; a payment Stripe
    cannot be asked about is left for the next sweep. Returns how many were released."""
    now = now or timezone.now()
    overdue = Payment.objects.filter(status=PaymentStatus.PENDING, expires_at__lte=now)
    released = 0
    for payment in overdue:
        try:
            payment = payment_verify(payment, now=now)
        except (stripe_api.StripeUnavailable, PaymentMismatch):
            continue
        if payment.status == PaymentStatus.PENDING:
            payment = apply_payment_facts(payment, source="sweep", expired_at=now)
        released += payment.status == PaymentStatus.EXPIRED
    return released
