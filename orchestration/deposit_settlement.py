"""Payments' facts moving appointments on, with their reminders in step: each is the
``payments.services`` function of the same name, handed the reminders to run inside the
appointment's change (a deposit paid confirms the appointment, which then has its reminders;
one unpaid releases it). Entry points — the webhook, the periodic sweeps, the commands, the
chat — call these, never payments' own."""

import datetime as dt

from bookings.models import Appointment
from payments import services as payments
from payments.models import Payment, WebhookEvent
from payments.services.reconcile import Reconciliation

from .reminders_in_step import reminders_in_step


def webhook_receive(payload: bytes, signature: str | None) -> payments.WebhookReceipt:
    """Verify, store once and apply one Stripe delivery (``payments.services``)."""
    return payments.webhook_receive(payload, signature, in_step=reminders_in_step)


def webhook_reprocess(event: WebhookEvent) -> WebhookEvent:
    """Apply a stored event again (the replay command)."""
    return payments.webhook_reprocess(event, in_step=reminders_in_step)


def payment_verify(payment: Payment, *, now: dt.datetime | None = None) -> Payment:
    """Ask Stripe how the payment's Checkout stands and record what it confirms."""
    return payments.payment_verify(payment, now=now, in_step=reminders_in_step)


def reconcile_pending(*, now: dt.datetime | None = None) -> Reconciliation:
    """Every payment still pending a few minutes after its Checkout opened, asked about."""
    return payments.reconcile_pending(now=now, in_step=reminders_in_step)


def release_unpaid_expired(*, now: dt.datetime | None = None) -> int:
    """Appointments whose deposit was not paid within its hold let go of their time."""
    return payments.release_unpaid_expired(now=now, in_step=reminders_in_step)


def deposit_checkout_open(
    *, appointment: Appointment, now: dt.datetime | None = None
) -> payments.DepositCheckout | None:
    """The deposit's Checkout, opened once; when Stripe cannot open it the appointment is
    released and StripeUnavailable raised."""
    return payments.deposit_checkout_open(
        appointment=appointment, now=now, in_step=reminders_in_step
    )
