"""Refunds through the policy: checked against the current state under the payment's row lock,
executed through Stripe with an idempotency key, recorded, and so blocking a second identical
refund by state."""

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from bookings.actors import Actor
from bookings.models import Appointment
from bookings.services import appointment_refund_record
from payments import stripe_api
from payments.deposits import to_minor_units
from payments.models import Payment, Refund
from payments.refund_policy import RefundRequest, RefundState, refund_refusal

from .facts import apply_payment_facts


class RefundRefused(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def refund_state(appointment: Appointment, payment: Payment | None) -> RefundState:
    business = appointment.business
    return RefundState(
        payment_exists=payment is not None,
        status=payment.status if payment else None,
        paid=payment.amount if payment else Decimal("0"),
        refunded=payment.amount_refunded if payment else Decimal("0"),
        visit_ends_at=appointment.ends_at,
        refund_window_days=business.refund_window_days,
        max_refund=business.max_refund,
        currency=business.currency,
    )


def refund_issue(
    *,
    appointment: Appointment,
    amount: Decimal,
    actor: Actor,
    reason: str = "",
    now: dt.datetime | None = None,
) -> Refund:
    """Refund ``amount`` of the appointment's deposit, or raise RefundRefused with the rule's
    reason (or stripe_api.StripeUnavailable)."""
    now = now or timezone.now()
    with transaction.atomic():
        payment = Payment.objects.select_for_update().filter(appointment=appointment).first()
        refusal = refund_refusal(RefundRequest(amount, now), refund_state(appointment, payment))
        if refusal:
            raise RefundRefused(refusal)
        if payment is None or not payment.payment_intent_id:
            raise RefundRefused("Stripe has not told us which charge this payment was.")
        # Derived from the state being acted on: a retry of this very refund reuses the key
        # (Stripe answers with the same refund); a later refund has a different state.
        key = (
            f"ordina-refund-{payment.pk}-{to_minor_units(payment.amount_refunded)}"
            f"-{to_minor_units(amount)}"
        )
        result = stripe_api.create_refund(
            payment_intent=payment.payment_intent_id,
            amount_minor=to_minor_units(amount),
            metadata={"ordina_payment": str(payment.pk)},
            idempotency_key=key,
        )
        refund = Refund.objects.create(
            business=appointment.business,
            payment=payment,
            amount=amount,
            stripe_refund_id=result.id,
            idempotency_key=key,
            reason=reason,
            **actor.fields(),
        )
        apply_payment_facts(payment, source=actor, amount_refunded=payment.amount_refunded + amount)
        appointment_refund_record(
            appointment=appointment,
            actor=actor,
            data={"amount": str(amount), "refund": result.id, "reason": reason},
        )
    return refund
