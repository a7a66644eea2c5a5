import uuid
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from bookings import choices

from .acted import ActedBy
from .base import TimeStampedModel, money_field
from .business import Business
from .catalog import Service
from .clients import Client


class AppointmentStatus(models.TextChoices):
    # Values are bookings.choices.AppointmentStatus's, for deciders that import no Django.
    PENDING_PAYMENT = choices.AppointmentStatus.PENDING_PAYMENT.value, "Awaiting deposit"
    CONFIRMED = choices.AppointmentStatus.CONFIRMED.value, "Confirmed"
    CANCELLED = choices.AppointmentStatus.CANCELLED.value, "Cancelled"
    EXPIRED = choices.AppointmentStatus.EXPIRED.value, "Released (deposit not paid)"
    ATTENDED = choices.AppointmentStatus.ATTENDED.value, "Attended"
    NO_SHOW = choices.AppointmentStatus.NO_SHOW.value, "No-show"


# Statuses that occupy the calendar. Cancelled and expired appointments free their time.
OCCUPYING_STATUSES = frozenset(
    {
        AppointmentStatus.PENDING_PAYMENT,
        AppointmentStatus.CONFIRMED,
        AppointmentStatus.ATTENDED,
        AppointmentStatus.NO_SHOW,
    }
)


class Appointment(TimeStampedModel):
    """A booked visit. Start and end are aware instants stored in UTC."""

    business_path = "business"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="appointments")
    service = models.ForeignKey(Service, on_delete=models.PROTECT, related_name="appointments")
    client = models.ForeignKey(Client, on_delete=models.PROTECT, related_name="appointments")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    # The time the appointment keeps a place busy (its buffers included) and which place: set
    # only by the booking service, and held apart per seat by a database exclusion constraint.
    occupied_from = models.DateTimeField(editable=False)
    occupied_until = models.DateTimeField(editable=False)
    seat = models.PositiveSmallIntegerField(default=1, editable=False)
    status = models.CharField(
        max_length=20, choices=AppointmentStatus.choices, default=AppointmentStatus.CONFIRMED
    )
    price = money_field("agreed price")
    # The service's list price when booked, so the discount given stays true after the owner
    # changes the list price. NULL for appointments booked before it was recorded.
    list_price = money_field("list price at booking", null=True, blank=True, editable=False)
    # NULL, not "", for "no key": unique constraints treat NULLs as distinct.
    idempotency_key = models.CharField(  # noqa: DJ001
        max_length=255,
        null=True,
        blank=True,
        help_text="The client's key for this booking request; a retry with it finds this row.",
    )
    request_fingerprint = models.CharField(
        max_length=64,
        blank=True,
        editable=False,
        help_text="Hash of the booking request; a retry with the same key must match it.",
    )
    # Only a hash is stored: a leaked table does not leak working management links.
    manage_token_hash = models.CharField(  # noqa: DJ001 - NULL keeps unissued tokens distinct
        max_length=64, null=True, blank=True, editable=False
    )
    manage_token_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["-starts_at"]
        indexes = [
            models.Index(fields=["business", "starts_at"], name="appointment_by_start"),
            # The booking funnel reads a period's bookings by when they were made.
            models.Index(fields=["business", "created_at"], name="appointment_by_booked_at"),
            models.Index(
                fields=["business", "occupied_from"],
                condition=Q(status__in=OCCUPYING_STATUSES),
                name="appointment_occupying",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=F("starts_at")),
                name="appointment_ends_after_start",
                violation_error_message="An appointment must end after it starts.",
            ),
            models.CheckConstraint(
                condition=Q(occupied_from__lte=F("starts_at"), occupied_until__gte=F("ends_at")),
                name="appointment_occupancy_covers_visit",
                violation_error_message="The occupied time must cover the appointment.",
            ),
            models.CheckConstraint(
                condition=Q(seat__gte=1),
                name="appointment_seat_positive",
                violation_error_message="Seats are numbered from 1.",
            ),
            models.CheckConstraint(
                condition=Q(price__gte=0),
                name="appointment_price_not_negative",
                violation_error_message="The agreed price cannot be negative.",
            ),
            models.CheckConstraint(
                condition=Q(list_price__isnull=True) | Q(list_price__gte=0),
                name="appointment_list_price_not_negative",
                violation_error_message="The list price cannot be negative.",
            ),
            models.CheckConstraint(
                condition=Q(status__in=AppointmentStatus.values),
                name="appointment_status_known",
                violation_error_message="Unknown appointment status.",
            ),
            models.CheckConstraint(
                condition=Q(idempotency_key__isnull=True) | ~Q(idempotency_key=""),
                name="appointment_idempotency_key_not_empty",
                violation_error_message="An idempotency key cannot be empty.",
            ),
            models.UniqueConstraint(
                fields=["business", "idempotency_key"],
                name="appointment_unique_idempotency_key",
                violation_error_message=(
                    "This business already has an appointment with that idempotency key."
                ),
            ),
            models.UniqueConstraint(
                fields=["manage_token_hash"],
                name="appointment_unique_manage_token",
                violation_error_message="Management token collision.",
            ),
        ]

    def __str__(self) -> str:
        local = timezone.localtime(self.starts_at, self.business.tzinfo) if self.starts_at else None
        when = f"{local:%Y-%m-%d %H:%M}" if local else "unscheduled"
        return f"{self.service} for {self.client} at {when}"

    @property
    def discount(self) -> Decimal | None:
        """How much below the list price the agreed price is (0: none; None: the list price at
        booking was not recorded)."""
        if self.list_price is None or self.price is None:
            return None
        return max(Decimal(0), self.list_price - self.price)

    def clean(self) -> None:
        # Foreign keys across tenants cannot be refused by a constraint; refuse them here.
        errors = {}
        if self.business_id and self.service_id and self.service.business_id != self.business_id:
            errors["service"] = "This service belongs to another business."
        if self.business_id and self.client_id and self.client.business_id != self.business_id:
            errors["client"] = "This client belongs to another business."
        if errors:
            raise ValidationError(errors)


class AppointmentEventKind(models.TextChoices):
    CREATED = "created", "Created"
    CONFIRMED = "confirmed", "Confirmed"
    RESCHEDULED = "rescheduled", "Rescheduled"
    CANCELLED = "cancelled", "Cancelled"
    EXPIRED = "expired", "Released unpaid"
    PAID = "paid", "Deposit paid"
    REFUNDED = "refunded", "Refunded"
    ATTENDED = "attended", "Attended"
    NO_SHOW = "no_show", "No-show"
    NOTE = "note", "Note"


class AppointmentEvent(ActedBy):
    """Append-only history of an appointment. Rows are never updated or deleted: the model
    refuses it, and a database trigger refuses it for any other writer. Each row names its
    actor, typed (``ActedBy``)."""

    business_path = "business"
    append_only = True

    # The business is copied from the appointment so the history can be scoped and filtered
    # per tenant without a join.
    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="+")
    appointment = models.ForeignKey(Appointment, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=20, choices=AppointmentEventKind.choices)
    occurred_at = models.DateTimeField(default=timezone.now, db_index=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta(ActedBy.Meta):
        ordering = ["-occurred_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.actor_display}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValidationError("Appointment history is append-only; add a new event instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError("Appointment history is append-only; events are never deleted.")
