"""Applying verified facts to a payment, under its row lock, and moving the appointment on."""

import datetime as dt
from decimal import Decimal

from django.db import transaction

from bookings.actors import Actor
from bookings.services import InStep, appointment_confirm_deposit, appointment_release_unpaid
from payments.models import Payment, PaymentStatus
from payments.states import PaymentFacts, status_of


class PaymentMismatch(Exception):
    """What Stripe reported does not match what we asked for; nothing was changed."""


def facts_of(payment: Payment) -> PaymentFacts:
    return PaymentFacts(
        amount=payment.amount,
        paid_at=payment.paid_at,
        amount_refunded=payment.amount_refunded,
        expired_at=payment.expired_at,
        failed_at=payment.failed_at,
    )


def apply_payment_facts(
    payment: Payment,
    *,
    source: Actor,
    paid_at: dt.datetime | None = None,
    amount_refunded: Decimal | None = None,
    expired_at: dt.datetime | None = None,
    failed_at: dt.datetime | None = None,
    in_step: InStep | None = None,
) -> Payment:
    """Join the new facts into the payment (nothing known is taken back), store the derived
    status, and confirm or release the appointment when the payment has just become paid or
    expired (``in_step`` run with that change, as the core runs it). Safe to call again with
    the same facts."""
    with transaction.atomic():
        current = Payment.objects.select_for_update().get(pk=payment.pk)
        before = status_of(facts_of(current))
        facts = facts_of(current).joined(
            paid_at=paid_at,
            amount_refunded=amount_refunded,
            expired_at=expired_at,
            failed_at=failed_at,
        )
        current.paid_at = facts.paid_at
        current.amount_refunded = facts.amount_refunded
        current.expired_at = facts.expired_at
        current.failed_at = facts.failed_at
        current.status = status_of(facts)
        current.save()
        appointment = current.appointment
        # The appointment as the booking service left it, so the caller reads its new status.
        if before in (PaymentStatus.PENDING, PaymentStatus.EXPIRED, PaymentStatus.FAILED) and (
            facts.paid_at is not None
        ):
            current.appointment = appointment_confirm_deposit(
                appointment=appointment,
                actor=source,
                data={"payment": current.pk},
                in_step=in_step,
            )
        elif current.status in (PaymentStatus.EXPIRED, PaymentStatus.FAILED):
            current.appointment = appointment_release_unpaid(
                appointment=appointment,
                actor=source,
                data={"payment": current.pk},
                in_step=in_step,
            )
    return current
