"""Stripe webhooks: verify, store once, process once.

The event row (unique on Stripe's event id) is inserted in the same transaction as the state
change it causes, so a redelivery — sequential or concurrent — finds the row and changes
nothing. Before a payment is marked paid, the session or intent id, the amount, the currency
and livemode must match what we stored. Unknown event types are stored and acknowledged.
"""

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from payments import stripe_api
from payments.deposits import from_minor_units, to_minor_units
from payments.models import Payment, WebhookEvent, WebhookOutcome

from .facts import PaymentMismatch, apply_payment_facts

logger = logging.getLogger(__name__)

SESSION_EVENTS = {
    "checkout.session.completed",
    "checkout.session.async_payment_succeeded",
    "checkout.session.async_payment_failed",
    "checkout.session.expired",
}
HANDLED = SESSION_EVENTS | {"payment_intent.succeeded", "charge.refunded"}


@dataclass(frozen=True)
class WebhookReceipt:
    event: WebhookEvent
    duplicate: bool


def webhook_receive(payload: bytes, signature: str | None) -> WebhookReceipt:
    """Verify and record one delivery. Raises stripe_api.WebhookSignatureInvalid (→ 400)."""
    verified = stripe_api.verify_webhook(payload, signature)
    try:
        with transaction.atomic():
            event = WebhookEvent.objects.create(
                stripe_event_id=verified.id,
                type=verified.type,
                livemode=verified.livemode,
                payload=verified.payload,
                outcome=WebhookOutcome.IGNORED,
            )
            _process(event)
    except IntegrityError:
        # Already stored by an earlier (or concurrent, now committed) delivery; any other
        # integrity error is a bug and surfaces as one.
        earlier = WebhookEvent.objects.filter(stripe_event_id=verified.id).first()
        if earlier is None:
            raise
        return WebhookReceipt(earlier, True)
    return WebhookReceipt(event, False)


def webhook_reprocess(event: WebhookEvent) -> WebhookEvent:
    """Run a stored event through processing again (the replay command, for failed ones)."""
    with transaction.atomic():
        locked = WebhookEvent.objects.select_for_update().get(pk=event.pk)
        _process(locked)
    return locked


def _process(event: WebhookEvent) -> None:
    """Apply the event inside the caller's transaction; a failure is recorded on the event
    (in a savepoint, so the event row itself is kept) and answered 200: Stripe retrying the
    same delivery would not fix it, the replay command can."""
    if event.type not in HANDLED:
        _record(event, WebhookOutcome.IGNORED)
        return
    try:
        with transaction.atomic():
            payment = _apply(
                event.type, event.payload["data"]["object"], event.livemode, _created(event)
            )
    except (PaymentMismatch, Payment.DoesNotExist, KeyError, ValueError) as problem:
        logger.warning("Stripe event %s not applied: %s", event.stripe_event_id, problem)
        _record(event, WebhookOutcome.FAILED, error=str(problem) or type(problem).__name__)
        return
    _record(event, WebhookOutcome.PROCESSED, payment=payment)


def _record(event: WebhookEvent, outcome: str, *, error: str = "", payment=None) -> None:
    event.outcome = outcome
    event.error = error
    event.payment = payment or event.payment
    event.processed_at = timezone.now()
    event.save(update_fields=["outcome", "error", "payment", "processed_at"])


def _created(event: WebhookEvent) -> dt.datetime:
    return dt.datetime.fromtimestamp(int(event.payload.get("created") or 0), dt.UTC)


def _apply(kind: str, obj: dict[str, Any], livemode: bool, at: dt.datetime) -> Payment:
    if kind in SESSION_EVENTS:
        payment = _payment_for(obj, id_field="checkout_session_id")
        _check_session(payment, obj, livemode)
        if kind == "checkout.session.expired":
            return apply_payment_facts(payment, source="stripe", expired_at=at)
        if kind == "checkout.session.async_payment_failed":
            return apply_payment_facts(payment, source="stripe", failed_at=at)
        if kind == "checkout.session.completed" and obj.get("payment_status") != "paid":
            return payment  # paid later by async_payment_succeeded, or not at all
        return apply_payment_facts(payment, source="stripe", paid_at=at)
    if kind == "payment_intent.succeeded":
        payment = _payment_for(obj, id_field="payment_intent_id")
        _check_money(payment, obj.get("amount_received"), obj.get("currency"), obj, livemode)
        return apply_payment_facts(payment, source="stripe", paid_at=at)
    # charge.refunded: amount_refunded is the charge's cumulative total.
    payment = _payment_for(obj, id_field="payment_intent_id", id_key="payment_intent")
    _check_money(payment, obj.get("amount"), obj.get("currency"), obj, livemode)
    return apply_payment_facts(
        payment,
        source="stripe",
        paid_at=at,
        amount_refunded=from_minor_units(int(obj.get("amount_refunded") or 0)),
    )


def _payment_for(obj: dict[str, Any], *, id_field: str, id_key: str = "id") -> Payment:
    """Our payment for a Stripe object: by the metadata we attached, else by its id."""
    reference = (obj.get("metadata") or {}).get("ordina_payment")
    if reference and str(reference).isdigit():
        field, value = "pk", reference
    else:
        field, value = id_field, obj.get(id_key)
    if not value:
        raise PaymentMismatch("the event names no payment of ours")
    try:
        return Payment.objects.get(**{field: value})
    except Payment.DoesNotExist:
        # Perhaps not yet: an event can arrive before we stored the id; replay it then.
        raise PaymentMismatch(f"no payment of ours has {field} {value}") from None


def _check_session(payment: Payment, session: dict[str, Any], livemode: bool) -> None:
    if payment.checkout_session_id and session.get("id") != payment.checkout_session_id:
        raise PaymentMismatch(
            f"checkout {session.get('id')} is not the one opened for payment {payment.pk}"
        )
    _check_money(payment, session.get("amount_total"), session.get("currency"), session, livemode)
    intent = session.get("payment_intent")
    if intent and not payment.payment_intent_id:
        Payment.objects.filter(pk=payment.pk).update(payment_intent_id=intent)


def _check_money(
    payment: Payment, amount: Any, currency: Any, obj: dict[str, Any], livemode: bool
) -> None:
    if amount is not None and int(amount) != to_minor_units(payment.amount):
        raise PaymentMismatch(
            f"Stripe reports {amount} minor units, payment {payment.pk} is for "
            f"{to_minor_units(payment.amount)}"
        )
    if currency and str(currency).upper() != payment.currency:
        raise PaymentMismatch(
            f"Stripe reports {currency}, payment {payment.pk} is in {payment.currency}"
        )
    if livemode != payment.livemode:
        raise PaymentMismatch(f"livemode {livemode} does not match payment {payment.pk}")
    # A refunded charge reports the payment paid too, so its intent is checked like an intent's.
    kind = obj.get("object")
    intent = obj.get("id") if kind == "payment_intent" else obj.get("payment_intent")
    is_ours = not payment.payment_intent_id or intent == payment.payment_intent_id
    if kind in ("payment_intent", "charge") and not is_ours:
        raise PaymentMismatch(f"intent {intent} is not payment {payment.pk}'s")
