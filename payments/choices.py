"""A payment's statuses as plain values. Imports no Django, so the pure deciders
(``payments.states``, ``payments.refund_policy``) can name a status without loading a model.

``payments.models.PaymentStatus`` is the model's ``TextChoices`` built from these values, with
the labels the dashboard shows; a member of either compares equal to the other's (both are the
stored string)."""

from enum import StrEnum


class PaymentStatus(StrEnum):
    PENDING = "pending"
    PAID = "paid"
    PARTIALLY_REFUNDED = "partially_refunded"
    REFUNDED = "refunded"
    EXPIRED = "expired"
    FAILED = "failed"
