"""Payments' tables. A payment's state is derived from facts that only grow (paid, amount
refunded, expired, failed), so webhook deliveries in any order end in the same state."""

from django.db import models
from django.db.models import F, Q

from bookings.models import Appointment, Business
from bookings.models.acted import ActedBy
from bookings.models.base import TimeStampedModel, money_field
from payments import choices


class PaymentStatus(models.TextChoices):
    # Values are payments.choices.PaymentStatus's, which the pure deciders use.
    PENDING = choices.PaymentStatus.PENDING.value, "Awaiting payment"
    PAID = choices.PaymentStatus.PAID.value, "Paid"
    PARTIALLY_REFUNDED = choices.PaymentStatus.PARTIALLY_REFUNDED.value, "Partially refunded"
    REFUNDED = choices.PaymentStatus.REFUNDED.value, "Refunded"
    EXPIRED = choices.PaymentStatus.EXPIRED.value, "Expired unpaid"
    FAILED = choices.PaymentStatus.FAILED.value, "Failed"


class Payment(TimeStampedModel):
    """A deposit taken through Stripe Checkout for one appointment."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="payments")
    appointment = models.OneToOneField(
        Appointment, on_delete=models.PROTECT, related_name="payment"
    )
    amount = money_field("amount")
    currency = models.CharField(max_length=3)
    status = models.CharField(
        max_length=20, choices=PaymentStatus.choices, default=PaymentStatus.PENDING
    )
    # The facts the status is derived from; each only ever grows.
    paid_at = models.DateTimeField(null=True, blank=True)
    amount_refunded = money_field("amount refunded", default=0)
    expired_at = models.DateTimeField(null=True, blank=True)
    failed_at = models.DateTimeField(null=True, blank=True)

    checkout_session_id = models.CharField(max_length=255, unique=True, null=True, blank=True)
    payment_intent_id = models.CharField(max_length=255, unique=True, null=True, blank=True)
    checkout_url = models.URLField(max_length=2000, blank=True)
    livemode = models.BooleanField(default=False)
    expires_at = models.DateTimeField(help_text="When the unpaid appointment is released.")

    class Meta:
        indexes = [models.Index(fields=["status", "created_at"], name="payment_by_status")]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0),
                name="payment_amount_positive",
                violation_error_message="A payment is for more than zero.",
            ),
            models.CheckConstraint(
                condition=Q(amount_refunded__gte=0, amount_refunded__lte=F("amount")),
                name="payment_refunds_within_amount",
                violation_error_message="Refunds cannot exceed what was paid.",
            ),
            models.CheckConstraint(
                condition=Q(status__in=PaymentStatus.values),
                name="payment_status_known",
                violation_error_message="Unknown payment status.",
            ),
            models.CheckConstraint(
                condition=Q(amount_refunded=0) | Q(paid_at__isnull=False),
                name="payment_refunded_only_if_paid",
                violation_error_message="Only a paid payment can be refunded.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} {self.currency} for {self.appointment_id} ({self.status})"

    @property
    def refundable(self):
        return self.amount - self.amount_refunded


class WebhookOutcome(models.TextChoices):
    PROCESSED = "processed", "Processed"
    IGNORED = "ignored", "Stored, nothing to do"
    FAILED = "failed", "Failed"


class WebhookEvent(models.Model):
    """Every verified Stripe event, once: the unique event id is inserted in the same
    transaction as the state change it causes, so a redelivery changes nothing."""

    stripe_event_id = models.CharField(max_length=255, unique=True)
    type = models.CharField(max_length=100)
    livemode = models.BooleanField(default=False)
    payload = models.JSONField()
    received_at = models.DateTimeField(auto_now_add=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=WebhookOutcome.choices)
    error = models.TextField(blank=True)
    payment = models.ForeignKey(
        Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )

    class Meta:
        ordering = ["-received_at"]
        indexes = [models.Index(fields=["outcome", "received_at"], name="webhook_by_outcome")]

    def __str__(self) -> str:
        return f"{self.type} {self.stripe_event_id}"


class Refund(ActedBy, TimeStampedModel):
    """Money given back through Stripe, decided by the refund policy; ``actor`` says who asked
    for it (an owner in the dashboard, the assistant in a chat)."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="refunds")
    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="refunds")
    amount = money_field("amount")
    stripe_refund_id = models.CharField(max_length=255, unique=True)
    idempotency_key = models.CharField(max_length=255, unique=True)
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            *ActedBy.Meta.constraints,
            models.CheckConstraint(
                condition=Q(amount__gt=0),
                name="refund_amount_positive",
                violation_error_message="A refund is for more than zero.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} refunded on {self.payment_id}"
