"""Reminder rows: one per (appointment, kind), claimed by the dispatcher and sent at most once."""

from django.db import models
from django.db.models import Q

from bookings.models import Appointment, Business
from bookings.models.base import TimeStampedModel
from reminders import choices


class ReminderKind(models.TextChoices):
    # Values are reminders.choices.ReminderKind's, which reminders.plan uses.
    CONFIRMATION = choices.ReminderKind.CONFIRMATION.value, "Booking confirmation"
    BEFORE_24H = choices.ReminderKind.BEFORE_24H.value, "Reminder a day before"
    BEFORE_2H = choices.ReminderKind.BEFORE_2H.value, "Reminder two hours before"
    ATTENDANCE = choices.ReminderKind.ATTENDANCE.value, "Attendance confirmation request"
    NO_SHOW = choices.ReminderKind.NO_SHOW.value, "No-show follow-up"
    POST_VISIT = choices.ReminderKind.POST_VISIT.value, "Post-visit message"


class ReminderStatus(models.TextChoices):
    PENDING = "pending", "Waiting until due"
    SENDING = "sending", "Being sent"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Dropped"


class ReminderSetting(models.Model):
    """A business's choice for one kind of reminder: on or off, and when. Kinds without a row
    follow the defaults in ``reminders.plan``."""

    business_path = "business"

    business = models.ForeignKey(
        Business, on_delete=models.CASCADE, related_name="reminder_settings"
    )
    kind = models.CharField(max_length=20, choices=ReminderKind.choices)
    enabled = models.BooleanField(default=True)
    offset_minutes = models.IntegerField(
        help_text="Minutes before the visit (or after it, for the post-visit message)."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["business", "kind"],
                name="reminder_setting_one_per_kind",
                violation_error_message="This business already has a setting for that kind.",
            ),
            models.CheckConstraint(
                condition=Q(offset_minutes__gte=0, offset_minutes__lte=60 * 24 * 14),
                name="reminder_setting_offset_0_to_14_days",
                violation_error_message="The timing must be between 0 minutes and 14 days.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({'on' if self.enabled else 'off'})"


class Reminder(TimeStampedModel):
    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="reminders")
    appointment = models.ForeignKey(Appointment, on_delete=models.CASCADE, related_name="reminders")
    kind = models.CharField(max_length=20, choices=ReminderKind.choices)
    due_at = models.DateTimeField()
    status = models.CharField(
        max_length=10, choices=ReminderStatus.choices, default=ReminderStatus.PENDING
    )
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["due_at"]
        indexes = [
            models.Index(
                fields=["due_at"],
                condition=Q(status__in=["pending", "sending"]),
                name="reminder_due",
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["appointment", "kind"],
                name="reminder_once_per_appointment_and_kind",
                violation_error_message="This appointment already has that reminder.",
            ),
            models.CheckConstraint(
                condition=Q(status__in=ReminderStatus.values),
                name="reminder_status_known",
                violation_error_message="Unknown reminder status.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.appointment_id} ({self.status})"
