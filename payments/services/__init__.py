"""Payments' writers. Only these change a payment's state, and only from facts a verified
server-to-server caller reported: a signed Stripe webhook, or Stripe asked directly."""

from .checkout import DepositCheckout, deposit_checkout_open
from .deposit_booking import booking_with_deposit_create
from .facts import PaymentMismatch, apply_payment_facts
from .reconcile import payment_verify, reconcile_pending, release_unpaid_expired
from .refunds import RefundRefused, refund_issue
from .webhooks import WebhookReceipt, webhook_receive, webhook_reprocess

__all__ = [
    "DepositCheckout",
    "PaymentMismatch",
    "RefundRefused",
    "WebhookReceipt",
    "apply_payment_facts",
    "booking_with_deposit_create",
    "deposit_checkout_open",
    "payment_verify",
    "reconcile_pending",
    "refund_issue",
    "release_unpaid_expired",
    "webhook_receive",
    "webhook_reprocess",
]
