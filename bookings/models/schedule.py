"""The calendar a business keeps: weekly hours, date overrides and busy blocks. Times of day are
wall-clock times in the business's zone; busy blocks are instants, stored in UTC."""

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models
from django.db.models import F, Q

from .base import TimeStampedModel
from .business import Business


class Weekday(models.IntegerChoices):
    MONDAY = 0
    TUESDAY = 1
    WEDNESDAY = 2
    THURSDAY = 3
    FRIDAY = 4
    SATURDAY = 5
    SUNDAY = 6


def _overlapping_ranges(rows: models.QuerySet, opens_at, closes_at) -> models.QuerySet:
    return rows.filter(opens_at__lt=closes_at, closes_at__gt=opens_at)


class OpeningHours(TimeStampedModel):
    """One open range on a weekday; a day may have several (e.g. 09:00–13:00 and 14:00–19:00)."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="opening_hours")
    weekday = models.PositiveSmallIntegerField(choices=Weekday.choices)
    opens_at = models.TimeField()
    closes_at = models.TimeField()

    class Meta:
        verbose_name = "opening hours"
        verbose_name_plural = "opening hours"
        ordering = ["business", "weekday", "opens_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(closes_at__gt=F("opens_at")),
                name="opening_hours_close_after_open",
                violation_error_message="Closing time must be after opening time.",
            ),
            models.CheckConstraint(
                condition=Q(weekday__gte=0, weekday__lte=6),
                name="opening_hours_weekday_0_to_6",
                violation_error_message="The weekday must be Monday (0) to Sunday (6).",
            ),
            models.UniqueConstraint(
                fields=["business", "weekday", "opens_at"],
                name="opening_hours_unique_start",
                violation_error_message="These hours already start at that time on that day.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_weekday_display()} {self.opens_at:%H:%M}–{self.closes_at:%H:%M}"

    def clean(self) -> None:
        # Overlap spans rows, so no check constraint can hold it; forms validate it here.
        if self.business_id is None or None in (self.opens_at, self.closes_at):
            return
        same_day = OpeningHours.objects.filter(
            business_id=self.business_id, weekday=self.weekday
        ).exclude(pk=self.pk)
        if _overlapping_ranges(same_day, self.opens_at, self.closes_at).exists():
            raise ValidationError("These hours overlap other hours on the same day.")


class DateOverride(TimeStampedModel):
    """A date that does not follow the weekly hours: closed all day (no times), or open only for
    the special ranges given (one row per range)."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="date_overrides")
    date = models.DateField()
    opens_at = models.TimeField(null=True, blank=True, help_text="Empty for closed all day.")
    closes_at = models.TimeField(null=True, blank=True, help_text="Empty for closed all day.")
    note = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["business", "date", "opens_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(opens_at__isnull=True, closes_at__isnull=True)
                | Q(opens_at__isnull=False, closes_at__isnull=False, closes_at__gt=F("opens_at")),
                name="date_override_closed_or_valid_range",
                violation_error_message=(
                    "Leave both times empty for a closed day, or give a closing time after the "
                    "opening time."
                ),
            ),
            models.UniqueConstraint(
                fields=["business", "date"],
                condition=Q(opens_at__isnull=True),
                name="date_override_one_closure_per_date",
                violation_error_message="This date is already marked closed.",
            ),
            models.UniqueConstraint(
                fields=["business", "date", "opens_at"],
                name="date_override_unique_start",
                violation_error_message="Special hours already start at that time on that date.",
            ),
        ]

    @property
    def is_closed(self) -> bool:
        return self.opens_at is None

    def __str__(self) -> str:
        if self.is_closed:
            return f"{self.date:%Y-%m-%d} closed"
        return f"{self.date:%Y-%m-%d} {self.opens_at:%H:%M}–{self.closes_at:%H:%M}"

    def clean(self) -> None:
        if self.business_id is None or self.date is None:
            return
        same_date = DateOverride.objects.filter(
            business_id=self.business_id, date=self.date
        ).exclude(pk=self.pk)
        if self.is_closed:
            if same_date.exists():
                raise ValidationError(
                    "This date already has special hours; remove them to close the whole day."
                )
            return
        if same_date.filter(opens_at__isnull=True).exists():
            raise ValidationError("This date is marked closed; remove the closure first.")
        if (
            self.closes_at
            and _overlapping_ranges(same_date, self.opens_at, self.closes_at).exists()
        ):
            raise ValidationError("These hours overlap other special hours on the same date.")


class CalendarFeed(TimeStampedModel):
    """A business's connected calendar, read as an ICS feed; its events become busy blocks."""

    business_path = "business"

    business = models.OneToOneField(
        Business, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    url = models.URLField(
        "ICS feed URL",
        max_length=1000,
        validators=[URLValidator(schemes=["http", "https"])],
        help_text="The calendar's secret iCal address (https://…).",
    )
    last_synced_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_error = models.TextField(blank=True, editable=False)
    last_error_at = models.DateTimeField(null=True, blank=True, editable=False)

    def __str__(self) -> str:
        return f"Calendar of {self.business}"

    def clean_fields(self, exclude=None) -> None:
        # Calendar apps hand out "subscribe" links as webcal://; they are plain HTTPS. Rewritten
        # before the URL validator, which knows only http and https.
        if self.url.lower().startswith("webcal://"):
            self.url = "https://" + self.url[len("webcal://") :]
        super().clean_fields(exclude)


class BusyBlock(TimeStampedModel):
    """Time taken elsewhere (a connected calendar's event, or one the owner enters)."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="busy_blocks")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    summary = models.CharField(max_length=200, blank=True)
    feed = models.ForeignKey(
        CalendarFeed,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="busy_blocks",
        editable=False,
        help_text="Set for blocks synced from the connected calendar; a sync replaces them.",
    )
    source_uid = models.CharField(
        max_length=255, blank=True, help_text="The calendar event's UID, for synced blocks."
    )

    class Meta:
        ordering = ["business", "starts_at"]
        indexes = [models.Index(fields=["business", "starts_at"], name="busy_block_by_start")]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=F("starts_at")),
                name="busy_block_ends_after_start",
                violation_error_message="A busy block must end after it starts.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.summary or 'Busy'} {self.starts_at:%Y-%m-%d %H:%M}"
