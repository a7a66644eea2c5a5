"""Stripe webhooks: verify, store once, process once.

The event row (unique on Stripe's event id) is inserted in the same transaction as the state
change it causes, so a redelivery — sequential or concurrent — finds the row and changes
nothing. Before a payment is marked paid, the session or intent id, the amount, the currency
and livemode must match what we stored. Unknown event types are stored and acknowledged.

A signed event whose fields have shapes Stripe never sends (``payments.stripe_events`` decides
which) is stored too, with outcome failed and the field named, and answered 200: it is neither
lost nor applied, and the replay command can run it again. Only a body with no event id to
store it under is refused (400).
"""

import logging
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from bookings.actors import Actor
from bookings.services import InStep
from payments import stripe_api
from payments.deposits import from_minor_units, to_minor_units
from payments.models import Payment, WebhookEvent, WebhookOutcome
from payments.stripe_events import (
    INTENT_SUCCEEDED,
    SESSION_EVENTS,
    HandledEvent,
    MalformedEvent,
    StripeObject,
    read_handled_event,
)

from .facts import PaymentMismatch, apply_payment_facts

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class WebhookReceipt:
    event: WebhookEvent
    duplicate: bool


def webhook_receive(
    payload: bytes, signature: str | None, *, in_step: InStep | None = None
) -> WebhookReceipt:
    """Verify and record one delivery. Raises stripe_api.WebhookSignatureInvalid or
    stripe_events.NotAnEvent (both → 400, nothing stored); any event with an id is stored."""
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
            _process(event, in_step)
    except IntegrityError:
        # Already stored by an earlier (or concurrent, now committed) delivery; any other
        # integrity error is a bug and surfaces as one.
        earlier = WebhookEvent.objects.filter(stripe_event_id=verified.id).first()
        if earlier is None:
            raise
        return WebhookReceipt(earlier, True)
    return WebhookReceipt(event, False)


def webhook_reprocess(event: WebhookEvent, *, in_step: InStep | None = None) -> WebhookEvent:
    """Run a stored event through processing again (the replay command, for failed ones)."""
    with transaction.atomic():
        locked = WebhookEvent.objects.select_for_update().get(pk=event.pk)
        _process(locked, in_step)
    return locked


def _process(event: WebhookEvent, in_step: InStep | None) -> None:
    """Apply the event inside the caller's transaction; a failure is recorded on the event
    (in a savepoint, so the event row itself is kept) and answered 200: Stripe retrying the
    same delivery would not fix it, the replay command can."""
    try:
        handled = read_handled_event(event.payload)
    except MalformedEvent as problem:
        logger.warning("Stripe event %s is malformed: %s", event.stripe_event_id, problem)
        _record(event, WebhookOutcome.FAILED, error=str(problem))
        return
    if handled is None:
        _record(event, WebhookOutcome.IGNORED)
        return
    try:
        with transaction.atomic():
            payment = _apply(handled, in_step)
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


def _apply(event: HandledEvent, in_step: InStep | None) -> Payment:
    kind, obj, at = event.type, event.object, event.created
    if kind in SESSION_EVENTS:
        payment = _payment_for(obj, id_field="checkout_session_id", value=obj.id)
        _check_session(payment, obj, event.livemode)
        if kind == "checkout.session.expired":
            return apply_payment_facts(
                payment, source=Actor.payments(), expired_at=at, in_step=in_step
            )
        if kind == "checkout.session.async_payment_failed":
            return apply_payment_facts(
                payment, source=Actor.payments(), failed_at=at, in_step=in_step
            )
        if kind == "checkout.session.completed" and obj.payment_status != "paid":
            return payment  # paid later by async_payment_succeeded, or not at all
        return apply_payment_facts(payment, source=Actor.payments(), paid_at=at, in_step=in_step)
    if kind == INTENT_SUCCEEDED:
        payment = _payment_for(obj, id_field="payment_intent_id", value=obj.id)
        _check_money(payment, obj, event.livemode)
        return apply_payment_facts(payment, source=Actor.payments(), paid_at=at, in_step=in_step)
    # charge.refunded: amount_refunded is the charge's cumulative total.
    payment = _payment_for(obj, id_field="payment_intent_id", value=obj.payment_intent)
    _check_money(payment, obj, event.livemode)
    return apply_payment_facts(
        payment,
        source=Actor.payments(),
        paid_at=at,
        amount_refunded=from_minor_units(obj.amount_refunded or 0),
        in_step=in_step,
    )


def _payment_for(obj: StripeObject, *, id_field: str, value: str | None) -> Payment:
    """Our payment for a Stripe object: by the metadata we attached, else by its id."""
    field = id_field
    if obj.reference:
        field, value = "pk", obj.reference
    if not value:
        raise PaymentMismatch("the event names no payment of ours")
    try:
        return Payment.objects.get(**{field: value})
    except Payment.DoesNotExist:
        # Perhaps not yet: an event can arrive before we stored the id; replay it then.
        raise PaymentMismatch(f"no payment of ours has {field} {value}") from None


def _check_session(payment: Payment, session: StripeObject, livemode: bool) -> None:
    if payment.checkout_session_id and session.id != payment.checkout_session_id:
        raise PaymentMismatch(
            f"checkout {session.id} is not the one opened for payment {payment.pk}"
        )
    _check_money(payment, session, livemode)
    intent = session.payment_intent
    if intent and not payment.payment_intent_id:
        # The intent id is unique: one already another payment's is a mismatch, not a crash.
        holder = Payment.objects.filter(payment_intent_id=intent).values_list("pk", flat=True)
        if holder:
            raise PaymentMismatch(
                f"intent {intent} is payment {holder[0]}'s, not payment {payment.pk}'s"
            )
        Payment.objects.filter(pk=payment.pk).update(payment_intent_id=intent)


def _check_money(payment: Payment, obj: StripeObject, livemode: bool) -> None:
    if obj.amount is not None and obj.amount != to_minor_units(payment.amount):
        raise PaymentMismatch(
            f"Stripe reports {obj.amount} minor units, payment {payment.pk} is for "
            f"{to_minor_units(payment.amount)}"
        )
    if obj.currency and obj.currency.upper() != payment.currency:
        raise PaymentMismatch(
            f"Stripe reports {obj.currency}, payment {payment.pk} is in {payment.currency}"
        )
    if livemode != payment.livemode:
        raise PaymentMismatch(f"livemode {livemode} does not match payment {payment.pk}")
    # A refunded charge reports the payment paid too, so its intent is checked like an intent's.
    intent = obj.id if obj.kind == "payment_intent" else obj.payment_intent
    is_ours = not payment.payment_intent_id or intent == payment.payment_intent_id
    if obj.kind in ("payment_intent", "charge") and not is_ours:
        raise PaymentMismatch(f"intent {intent} is not payment {payment.pk}'s")
