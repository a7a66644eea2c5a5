from django.db import models
from django.db.models import F, Q

from .business import Business
from .catalog import Service


class SlotHold(models.Model):
    """A conversation's (or widget session's) optimistic claim on one slot until it expires.

    Holds hide a slot from other clients' availability; they are not the guarantee against
    double-booking, which is made when the appointment is created.
    """

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="holds")
    service = models.ForeignKey(Service, on_delete=models.CASCADE, related_name="holds")
    holder = models.CharField(
        max_length=64, help_text="The conversation or widget session holding the slot."
    )
    # Not the client's address: a keyed hash of it (bookings.addresses), enough to count one
    # address's live holds and no more. Empty when the caller did not give an address.
    address_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    occupied_from = models.DateTimeField()
    occupied_until = models.DateTimeField()
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["business", "expires_at"], name="hold_by_expiry"),
            models.Index(
                fields=["business", "address_hash", "expires_at"],
                condition=~Q(address_hash=""),
                name="hold_by_address",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(holder=""),
                name="hold_has_holder",
                violation_error_message="A hold needs a holder.",
            ),
            models.UniqueConstraint(
                fields=["business", "holder"],
                name="hold_one_per_holder",
                violation_error_message="This conversation already holds a slot.",
            ),
            models.CheckConstraint(
                condition=Q(ends_at__gt=F("starts_at")),
                name="hold_ends_after_start",
                violation_error_message="A hold must end after it starts.",
            ),
            models.CheckConstraint(
                condition=Q(occupied_from__lte=F("starts_at"), occupied_until__gte=F("ends_at")),
                name="hold_occupancy_covers_slot",
                violation_error_message="The occupied time must cover the slot.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.service} held by {self.holder[:8]}… until {self.expires_at:%H:%M}"
