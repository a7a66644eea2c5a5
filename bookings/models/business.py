import contextlib
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.validators import URLValidator
from django.db import models
from django.db.models import Q

from bookings import choices
from bookings.contrast import ink_on, is_hex_colour
from bookings.embed_origins import OriginsRefused, parse_origins, stored_origins
from bookings.validators import (
    validate_accent_colour,
    validate_embed_origins,
    validate_language,
    validate_time_zone,
)

from .base import TimeStampedModel, money_field
from .negotiation_terms import NegotiationTermsFields, negotiation_constraints


class Currency(models.TextChoices):
    # Currencies with two minor-unit digits only: amounts are stored to the cent.
    EUR = "EUR", "Euro"
    USD = "USD", "US dollar"
    GBP = "GBP", "Pound sterling"
    CHF = "CHF", "Swiss franc"
    CAD = "CAD", "Canadian dollar"
    AUD = "AUD", "Australian dollar"
    NZD = "NZD", "New Zealand dollar"
    SEK = "SEK", "Swedish krona"
    NOK = "NOK", "Norwegian krone"
    DKK = "DKK", "Danish krone"
    PLN = "PLN", "Polish złoty"
    BRL = "BRL", "Brazilian real"
    MXN = "MXN", "Mexican peso"
    ZAR = "ZAR", "South African rand"


class DepositRule(models.TextChoices):
    # Values are bookings.choices.DepositRule's, which payments.deposits uses.
    NONE = choices.DepositRule.NONE.value, "No deposit"
    FIXED = choices.DepositRule.FIXED.value, "Fixed amount"
    PERCENT = choices.DepositRule.PERCENT.value, "Percent of the price"


class Business(NegotiationTermsFields, TimeStampedModel):
    """A tenant: everything an owner sees hangs off exactly one business. Its negotiation terms
    are the default of every service that does not set its own."""

    business_path = "pk"

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    time_zone = models.CharField(
        max_length=64,
        validators=[validate_time_zone],
        help_text="IANA time zone the business's hours are kept in, e.g. Europe/Lisbon.",
    )
    country = models.CharField(
        max_length=2, help_text="ISO 3166 country code; the default region for phone numbers."
    )
    currency = models.CharField(max_length=3, choices=Currency.choices)
    language = models.CharField(
        max_length=8,
        default="en",
        validators=[validate_language],
        help_text="The language the assistant, the pages and the emails speak to your clients.",
    )
    website = models.URLField(
        "website",
        max_length=300,
        blank=True,
        validators=[URLValidator(schemes=["http", "https"])],
        help_text=(
            "Your own site (https://…). The assistant may link to its pages; it links to no "
            "other site."
        ),
    )
    accent_colour = models.CharField(
        "accent colour",
        max_length=7,
        blank=True,
        validators=[validate_accent_colour],
        help_text=(
            "The colour of the main buttons on your booking page, as #rrggbb (e.g. #2563eb). "
            "Empty: Ordina's blue. A colour on which neither white nor dark text is readable "
            "is refused."
        ),
    )
    embed_origins = models.TextField(
        "sites that may embed your booking page",
        blank=True,
        validators=[validate_embed_origins],
        help_text=(
            "One site per line, as its address without a path, e.g. https://www.example.com. "
            "Only these sites can show your booking page inside their pages and call the "
            "booking API from a browser. https:// is required (http://localhost for "
            "development)."
        ),
    )

    capacity = models.PositiveSmallIntegerField(
        default=1, help_text="How many appointments may run at the same time."
    )
    min_notice_minutes = models.PositiveIntegerField(
        default=60, help_text="The earliest a client may book, in minutes from now."
    )
    booking_horizon_days = models.PositiveSmallIntegerField(
        default=60, help_text="How far ahead a client may book, in days."
    )
    slot_interval_minutes = models.PositiveSmallIntegerField(
        default=15, help_text="Offered start times are this many minutes apart."
    )
    hold_minutes = models.PositiveSmallIntegerField(
        default=10, help_text="How long a conversation may hold a slot while the client finishes."
    )

    refund_window_days = models.PositiveSmallIntegerField(
        default=30, help_text="Refunds are possible up to this many days after the visit."
    )
    max_refund = money_field(
        "maximum refund", null=True, blank=True, help_text="Empty: no limit beyond what was paid."
    )

    deposit_rule = models.CharField(
        max_length=10, choices=DepositRule.choices, default=DepositRule.NONE
    )
    deposit_amount = money_field("fixed deposit", null=True, blank=True)
    deposit_percent = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "businesses"
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(capacity__gte=1),
                name="business_capacity_at_least_one",
                violation_error_message="Capacity must be at least 1.",
            ),
            models.CheckConstraint(
                condition=Q(slot_interval_minutes__gte=5, slot_interval_minutes__lte=240),
                name="business_slot_interval_5_to_240",
                violation_error_message="The slot interval must be between 5 and 240 minutes.",
            ),
            models.CheckConstraint(
                condition=Q(booking_horizon_days__gte=1, booking_horizon_days__lte=730),
                name="business_horizon_1_to_730_days",
                violation_error_message="The booking horizon must be between 1 and 730 days.",
            ),
            models.CheckConstraint(
                condition=Q(hold_minutes__gte=1, hold_minutes__lte=120),
                name="business_hold_1_to_120_minutes",
                violation_error_message="A hold must last between 1 and 120 minutes.",
            ),
            models.CheckConstraint(
                condition=Q(max_refund__isnull=True) | Q(max_refund__gte=0),
                name="business_max_refund_not_negative",
                violation_error_message="The maximum refund cannot be negative.",
            ),
            models.CheckConstraint(
                condition=Q(accent_colour="") | Q(accent_colour__regex=r"^#[0-9a-f]{6}$"),
                name="business_accent_colour_hex",
                violation_error_message="The accent colour must be # and six hexadecimal digits.",
            ),
            models.CheckConstraint(
                condition=Q(currency__regex=r"^[A-Z]{3}$"),
                name="business_currency_iso_code",
                violation_error_message="The currency must be a three-letter ISO 4217 code.",
            ),
            models.CheckConstraint(
                condition=Q(country__regex=r"^[A-Z]{2}$"),
                name="business_country_iso_code",
                violation_error_message="The country must be a two-letter ISO 3166 code.",
            ),
            models.CheckConstraint(
                condition=(
                    Q(
                        deposit_rule=DepositRule.NONE,
                        deposit_amount__isnull=True,
                        deposit_percent__isnull=True,
                    )
                    | Q(
                        deposit_rule=DepositRule.FIXED,
                        # "IS NOT NULL" spelled out: a check on NULL is unknown, which passes.
                        deposit_amount__isnull=False,
                        deposit_amount__gt=0,
                        deposit_percent__isnull=True,
                    )
                    | Q(
                        deposit_rule=DepositRule.PERCENT,
                        deposit_percent__isnull=False,
                        deposit_percent__gte=1,
                        deposit_percent__lte=100,
                        deposit_amount__isnull=True,
                    )
                ),
                name="business_deposit_rule_consistent",
                violation_error_message=(
                    "Deposit rule mismatch: 'No deposit' takes neither an amount nor a percent; "
                    "'Fixed amount' needs an amount above zero and no percent; 'Percent of the "
                    "price' needs a percent from 1 to 100 and no amount."
                ),
            ),
            *negotiation_constraints("business"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # Stored the way they are compared: colours in lower case, origins as a browser sends
        # them, one per line. (A value the field validators refused is left for them to report.)
        self.accent_colour = self.accent_colour.strip().lower()
        with contextlib.suppress(OriginsRefused):
            self.embed_origins = "\n".join(parse_origins(self.embed_origins))
        # The default terms have no prices of their own; each service brings its list and floor.
        self.terms_errors(list_price=None, floor=None)

    @property
    def tzinfo(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    @property
    def accent_ink(self) -> str:
        """The text colour for the accent fill ("" when the business keeps Ordina's accent)."""
        return ink_on(self.accent_colour).ink if is_hex_colour(self.accent_colour) else ""

    @property
    def embedding_origins(self) -> tuple[str, ...]:
        """The sites allowed to frame the booking page and call the API from a browser."""
        return stored_origins(self.embed_origins)


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    STAFF = "staff", "Staff"


class Membership(TimeStampedModel):
    """Who works at which business, and as what. The only source of a user's tenant access."""

    business_path = "business"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "business"],
                name="membership_one_role_per_user_and_business",
                violation_error_message="This user already has a role at this business.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of {self.business}"
