from django.db import models
from django.db.models import F, Q

from .base import TimeStampedModel, money_field
from .business import Business
from .negotiation_terms import NegotiationTermsFields, negotiation_constraints


class TermsSource(models.TextChoices):
    BUSINESS = "business", "Use the business's terms"
    OWN = "own", "Its own terms (below)"


class Service(NegotiationTermsFields, TimeStampedModel):
    """Something a client can book. The floor is the hard lower bound of any negotiated price;
    how a price is negotiated is the business's terms or, when it says so, the service's own."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="services")
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    duration_minutes = models.PositiveSmallIntegerField()
    buffer_before_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="Kept free before the appointment (preparation)."
    )
    buffer_after_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="Kept free after the appointment (clean-up)."
    )
    list_price = money_field(
        "list price", help_text="What a client is quoted and pays unless a lower price is agreed."
    )
    price_floor = money_field(
        "price floor",
        help_text=(
            "The lowest price ever agreed for this service, whatever a client says: the "
            "assistant's counters never go below it, and no booking (assistant, booking page or "
            "dashboard) is accepted below it. Clients are not told it unless the ask has come "
            "down to it. Equal to the list price: no discount is possible."
        ),
    )
    deposit_amount = money_field(
        "deposit",
        null=True,
        blank=True,
        help_text="Overrides the business's deposit rule for this service; 0 means none.",
    )
    is_active = models.BooleanField("bookable", default=True)
    negotiation_terms = models.CharField(
        "negotiation terms",
        max_length=10,
        choices=TermsSource.choices,
        default=TermsSource.BUSINESS,
        help_text=(
            "The business's terms (set on the business) or this service's own, below. With the "
            "business's terms the fields below are not used."
        ),
    )

    class Meta:
        ordering = ["business", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(duration_minutes__gte=5, duration_minutes__lte=720),
                name="service_duration_5_to_720_minutes",
                violation_error_message="A service lasts between 5 and 720 minutes.",
            ),
            models.CheckConstraint(
                condition=Q(buffer_before_minutes__lte=240, buffer_after_minutes__lte=240),
                name="service_buffers_at_most_240_minutes",
                violation_error_message="A buffer may be at most 240 minutes.",
            ),
            models.CheckConstraint(
                condition=Q(price_floor__gte=0),
                name="service_floor_not_negative",
                violation_error_message="The price floor cannot be negative.",
            ),
            models.CheckConstraint(
                condition=Q(price_floor__lte=F("list_price")),
                name="service_floor_at_most_list_price",
                violation_error_message="The price floor cannot be above the list price.",
            ),
            models.CheckConstraint(
                condition=Q(deposit_amount__isnull=True)
                | Q(deposit_amount__gte=0, deposit_amount__lte=F("list_price")),
                name="service_deposit_within_list_price",
                violation_error_message="The deposit must be between 0 and the list price.",
            ),
            models.UniqueConstraint(
                fields=["business", "name"],
                name="service_unique_name_per_business",
                violation_error_message="This business already has a service with that name.",
            ),
            models.CheckConstraint(
                condition=Q(negotiation_terms__in=TermsSource.values),
                name="service_negotiation_terms_known",
                violation_error_message=(
                    "Negotiation terms are the business's or the service's own."
                ),
            ),
            *negotiation_constraints("service"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # The service's own terms are checked against its own prices, on the fields at fault.
        self.terms_errors(list_price=self.list_price, floor=self.price_floor)
