"""Stripe, behind plain values. The only module in Ordina that imports ``stripe``.

Every call goes through one ``StripeClient`` built from settings (STRIPE_SECRET_KEY, and
STRIPE_API_BASE for the local fake Stripe server the tests run). What comes back is turned
into small dataclasses at once, so no Stripe object travels further than this file.
"""

import datetime as dt
from dataclasses import dataclass
from typing import Any

import stripe
from django.conf import settings

from payments.stripe_events import EventEnvelope, NotAnEvent, read_envelope

WEBHOOK_TOLERANCE_SECONDS = 300
# Callers may hold a row lock while they wait for Stripe: a short timeout bounds that wait.
STRIPE_TIMEOUT_SECONDS = 20


class StripeUnavailable(Exception):
    """Stripe could not be reached or refused the call; the message says which."""


class WebhookSignatureInvalid(Exception):
    """The Stripe-Signature header does not verify against our endpoint secret."""


@dataclass(frozen=True)
class CheckoutSession:
    id: str
    url: str
    status: str  # open, complete, expired
    payment_status: str  # paid, unpaid, no_payment_required
    payment_intent: str | None
    amount_total: int
    currency: str
    livemode: bool
    metadata: dict[str, str]


@dataclass(frozen=True)
class RefundResult:
    id: str
    status: str
    amount: int


def _client() -> stripe.StripeClient:
    options: dict[str, Any] = {
        "max_network_retries": 2,
        "http_client": stripe.new_default_http_client(timeout=STRIPE_TIMEOUT_SECONDS),
    }
    if settings.STRIPE_API_BASE:
        options["base_addresses"] = {"api": settings.STRIPE_API_BASE}
    return stripe.StripeClient(settings.STRIPE_SECRET_KEY or "sk_unset", **options)


def _session(resource: Any) -> CheckoutSession:
    raw = resource.to_dict()
    intent = raw.get("payment_intent")
    return CheckoutSession(
        id=raw["id"],
        url=raw.get("url") or "",
        status=raw.get("status") or "",
        payment_status=raw.get("payment_status") or "",
        payment_intent=intent if isinstance(intent, str) or intent is None else intent["id"],
        amount_total=int(raw.get("amount_total") or 0),
        currency=(raw.get("currency") or "").upper(),
        livemode=bool(raw.get("livemode")),
        metadata=dict(raw.get("metadata") or {}),
    )


def create_checkout_session(
    *,
    amount_minor: int,
    currency: str,
    description: str,
    customer_email: str | None,
    success_url: str,
    cancel_url: str,
    expires_at: dt.datetime,
    metadata: dict[str, str],
    idempotency_key: str,
) -> CheckoutSession:
    params: dict[str, Any] = {
        "mode": "payment",
        "line_items": [
            {
                "quantity": 1,
                "price_data": {
                    "currency": currency.lower(),
                    "unit_amount": amount_minor,
                    "product_data": {"name": description},
                },
            }
        ],
        "success_url": success_url,
        "cancel_url": cancel_url,
        "expires_at": int(expires_at.timestamp()),
        "metadata": metadata,
        "payment_intent_data": {"metadata": metadata},
    }
    if customer_email:
        params["customer_email"] = customer_email
    try:
        raw = _client().v1.checkout.sessions.create(
            params,  # type: ignore[arg-type]
            options={"idempotency_key": idempotency_key},
        )
    except stripe.StripeError as error:
        raise StripeUnavailable(
            f"Stripe refused to open a checkout: {error.user_message or error}"
        ) from error
    return _session(raw)


def retrieve_checkout_session(session_id: str) -> CheckoutSession:
    try:
        return _session(_client().v1.checkout.sessions.retrieve(session_id))
    except stripe.StripeError as error:
        raise StripeUnavailable(
            f"Stripe could not say how checkout {session_id} stands: {error}"
        ) from error


def expire_checkout_session(session_id: str) -> CheckoutSession:
    """Close an open Checkout at Stripe, so nobody can pay it any more. Stripe refuses a
    session that is no longer open (paid, or expired already): StripeUnavailable says so."""
    try:
        return _session(_client().v1.checkout.sessions.expire(session_id))
    except stripe.StripeError as error:
        raise StripeUnavailable(
            f"Stripe did not close checkout {session_id}: {error.user_message or error}"
        ) from error


def create_refund(
    *, payment_intent: str, amount_minor: int, metadata: dict[str, str], idempotency_key: str
) -> RefundResult:
    try:
        raw = _client().v1.refunds.create(
            {"payment_intent": payment_intent, "amount": amount_minor, "metadata": metadata},
            options={"idempotency_key": idempotency_key},
        )
    except stripe.StripeError as error:
        raise StripeUnavailable(
            f"Stripe refused the refund: {error.user_message or error}"
        ) from error
    return RefundResult(id=raw.id, status=raw.status or "", amount=int(raw.amount))


def verify_webhook(payload: bytes, signature: str | None) -> EventEnvelope:
    """The event in ``payload`` if ``signature`` verifies against our endpoint secret within
    300 s (a header with two v1 signatures, as during secret rotation, verifies if either does).

    Raises ``WebhookSignatureInvalid`` for a signature that does not verify, and
    ``stripe_events.NotAnEvent`` for a body with no event to store. The body is read by
    ``stripe_events`` as plain JSON, not built into ``stripe`` objects: a signed body whose
    fields have shapes Stripe never sends must still be stored, not crash on the way in.
    """
    try:
        text = payload.decode("utf-8")  # Stripe signs the body's text, sent as UTF-8
    except UnicodeDecodeError:
        raise NotAnEvent("the body is not UTF-8 text") from None
    try:
        stripe.WebhookSignature.verify_header(
            text, signature, settings.STRIPE_WEBHOOK_SECRET, tolerance=WEBHOOK_TOLERANCE_SECONDS
        )
    except stripe.SignatureVerificationError as error:
        raise WebhookSignatureInvalid(str(error)) from error
    return read_envelope(text)
