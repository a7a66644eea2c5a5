"""The core's statuses and rules as plain values. Imports no Django, so pure deciders in any
app (``payments.deposits``, the conversation's rules) can name them without loading a model.

Each model's ``TextChoices`` of the same name (``bookings.models.AppointmentStatus``,
``bookings.models.DepositRule``) is built from these values, with the labels the dashboard
shows; a member of either compares equal to the other's (both are the stored string)."""

from enum import StrEnum


class AppointmentStatus(StrEnum):
    PENDING_PAYMENT = "pending_payment"
    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"
    ATTENDED = "attended"
    NO_SHOW = "no_show"


class DepositRule(StrEnum):
    NONE = "none"
    FIXED = "fixed"
    PERCENT = "percent"
