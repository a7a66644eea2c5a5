"""Payments' writers. Only these change a payment's state, and only from facts a verified
server-to-server caller reported: a signed Stripe webhook, or Stripe asked directly. Those that
may move an appointment on take the caller's ``in_step`` (``bookings.services.in_step``); they
are called through ``orchestration.deposit_settlement``, which keeps the reminders in step."""

from .checkout import DepositCheckout, deposit_checkout_open
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
    "deposit_checkout_open",
    "payment_verify",
    "reconcile_pending",
    "refund_issue",
    "release_unpaid_expired",
    "webhook_receive",
    "webhook_reprocess",
]
