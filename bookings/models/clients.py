from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from bookings.phones import normalize_phone

from .base import TimeStampedModel
from .business import Business


class Client(TimeStampedModel):
    """A business's client. A returning client is the same row: email (any case) and phone are
    each unique within the business."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="clients")
    name = models.CharField(max_length=120)
    email = models.EmailField(blank=True)
    # Room for how people type numbers ("+1 (415) 555-2671"); clean() stores E.164, which the
    # check constraint below holds the column to.
    phone = models.CharField(max_length=32, blank=True, help_text="E.164, e.g. +351912345678.")

    class Meta:
        ordering = ["business", "name"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(email="") | ~Q(phone=""),
                name="client_has_email_or_phone",
                violation_error_message="A client needs an email address or a phone number.",
            ),
            models.CheckConstraint(
                condition=Q(phone="") | Q(phone__regex=r"^\+[1-9][0-9]{6,14}$"),
                name="client_phone_e164",
                violation_error_message="The phone number must be in E.164 form (+ and digits).",
            ),
            models.UniqueConstraint(
                Lower("email"),
                "business",
                condition=~Q(email=""),
                name="client_unique_email_per_business",
                violation_error_message="This business already has a client with that email.",
            ),
            models.UniqueConstraint(
                fields=["business", "phone"],
                condition=~Q(phone=""),
                name="client_unique_phone_per_business",
                violation_error_message="This business already has a client with that phone.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.email = self.email.strip().lower()
        if self.phone and self.business_id is not None:
            try:
                self.phone = normalize_phone(self.phone, self.business.country)
            except ValidationError as exc:
                raise ValidationError({"phone": exc.messages}) from exc
