"""The demo businesses a newcomer meets after `make demo`: a salon with services, weekly hours, a
closure and special hours, a price floor and a deposit rule, a haircut whose price a client may
negotiate (meet halfway, never below its floor), and an owner who can sign in; and a clinic in
Madrid whose assistant speaks Spanish, open mornings and, after lunch, afternoons.

Running it again brings the demo back to the same state (it updates rather than duplicates).
"""

import datetime as dt
import secrets
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction

from bookings.models import (
    Business,
    ConcessionRule,
    DateOverride,
    DepositRule,
    Membership,
    OpeningHours,
    Role,
    Service,
    TermsSource,
    Weekday,
)

SLUG = "studio-lumen"
OWNER_USERNAME = "owner"
# Where `make run` serves the embedding example (DEBUG only): a page on 127.0.0.1 that loads
# the widget from localhost, a different origin. The demo business lists it, so it may embed.
EMBED_EXAMPLE_ORIGIN = "http://127.0.0.1:8000"

WEEKLY_HOURS = {
    Weekday.TUESDAY: [(dt.time(9), dt.time(13)), (dt.time(14), dt.time(19))],
    Weekday.WEDNESDAY: [(dt.time(9), dt.time(13)), (dt.time(14), dt.time(19))],
    Weekday.THURSDAY: [(dt.time(9), dt.time(13)), (dt.time(14), dt.time(20))],
    Weekday.FRIDAY: [(dt.time(9), dt.time(13)), (dt.time(14), dt.time(19))],
    Weekday.SATURDAY: [(dt.time(9), dt.time(14))],
}

SERVICES = [
    # name, minutes, buffer after, list price, floor, deposit override (None: business rule)
    ("Haircut", 45, 10, Decimal("60.00"), Decimal("50.00"), None),
    ("Colour", 120, 15, Decimal("150.00"), Decimal("130.00"), Decimal("40.00")),
    ("Beard trim", 20, 5, Decimal("25.00"), Decimal("25.00"), Decimal("0.00")),
]
NEGOTIABLE = "Haircut"
# The haircut's own terms: each counter meets the client halfway, rounded up to 5.00, never below
# its floor, at most twice. "Can you do 30?" is answered with 55.00. Every other service keeps
# the business's terms, which do not negotiate.
NEGOTIATION_TERMS = {
    "negotiation_terms": TermsSource.OWN,
    "negotiable": True,
    "concession_rule": ConcessionRule.HALFWAY,
    "concession_rounding": Decimal("5.00"),
    "concession_step_amount": None,
    "concession_step_percent": None,
    "concession_max_rounds": 2,
    "last_minute_hours": None,
}
NO_NEGOTIATION = {"negotiation_terms": TermsSource.BUSINESS, "negotiable": False}


@dataclass(frozen=True)
class DemoSetup:
    business: Business
    owner_username: str
    owner_password: str
    closed_on: dt.date
    special_hours_on: dt.date


def next_christmas(today: dt.date) -> dt.date:
    christmas = dt.date(today.year, 12, 25)
    return christmas if christmas > today else dt.date(today.year + 1, 12, 25)


@transaction.atomic
def seed_demo(*, today: dt.date, owner_password: str | None = None) -> DemoSetup:
    business, _ = Business.objects.update_or_create(
        slug=SLUG,
        defaults={
            "name": "Studio Lumen",
            "time_zone": "Europe/Lisbon",
            "country": "PT",
            "currency": "EUR",
            "language": "en",
            "capacity": 2,
            "min_notice_minutes": 120,
            "booking_horizon_days": 60,
            "slot_interval_minutes": 15,
            "hold_minutes": 10,
            "refund_window_days": 14,
            "max_refund": Decimal("100.00"),
            "deposit_rule": DepositRule.PERCENT,
            "deposit_percent": 20,
            "deposit_amount": None,
            # The page `make demo` points at to try the embed (pages.embed.views.embed_example).
            "embed_origins": EMBED_EXAMPLE_ORIGIN,
            "negotiable": False,  # the business's default terms: only the haircut negotiates
        },
    )
    business.full_clean()

    business.opening_hours.all().delete()
    for weekday, ranges in WEEKLY_HOURS.items():
        for opens_at, closes_at in ranges:
            OpeningHours.objects.create(
                business=business, weekday=weekday, opens_at=opens_at, closes_at=closes_at
            )

    closed_on = next_christmas(today)
    special_hours_on = closed_on - dt.timedelta(days=1)
    business.date_overrides.all().delete()
    DateOverride.objects.create(business=business, date=closed_on, note="Christmas Day")
    DateOverride.objects.create(
        business=business,
        date=special_hours_on,
        opens_at=dt.time(9),
        closes_at=dt.time(13),
        note="Christmas Eve: mornings only",
    )

    for name, minutes, buffer_after, list_price, floor, deposit in SERVICES:
        service, _ = Service.objects.update_or_create(
            business=business,
            name=name,
            defaults={
                "duration_minutes": minutes,
                "buffer_after_minutes": buffer_after,
                "list_price": list_price,
                "price_floor": floor,
                "deposit_amount": deposit,
                "is_active": True,
                **(NEGOTIATION_TERMS if name == NEGOTIABLE else NO_NEGOTIATION),
            },
        )
        service.full_clean()

    password = owner_password or secrets.token_urlsafe(12)
    owner, _ = get_user_model().objects.get_or_create(
        username=OWNER_USERNAME, defaults={"email": "owner@studio-lumen.example"}
    )
    owner.is_staff = True
    owner.set_password(password)
    owner.save()
    Membership.objects.update_or_create(
        user=owner, business=business, defaults={"role": Role.OWNER}
    )
    return DemoSetup(business, OWNER_USERNAME, password, closed_on, special_hours_on)


CLINIC_SLUG = "clinica-sol"
CLINIC_OWNER_USERNAME = "clinica"
# A Madrid clinic's day: closed for lunch, so "por la tarde" is 15:00-19:00 here.
CLINIC_HOURS = {
    weekday: [(dt.time(9), dt.time(13)), (dt.time(15), dt.time(19))]
    for weekday in (
        Weekday.MONDAY,
        Weekday.TUESDAY,
        Weekday.WEDNESDAY,
        Weekday.THURSDAY,
        Weekday.FRIDAY,
    )
}
CLINIC_SERVICES = [
    # name, minutes, buffer after, list price, deposit override (None: business rule)
    ("Fisioterapia", 45, 15, Decimal("50.00"), None),
    ("Masaje deportivo", 60, 15, Decimal("60.00"), None),
    ("Primera consulta", 30, 0, Decimal("40.00"), Decimal("0.00")),
]


@transaction.atomic
def seed_demo_clinic(*, owner_password: str) -> Business:
    """Clínica Sol: the demo's Spanish-speaking business, with its own owner login."""
    clinic, _ = Business.objects.update_or_create(
        slug=CLINIC_SLUG,
        defaults={
            "name": "Clínica Sol",
            "time_zone": "Europe/Madrid",
            "country": "ES",
            "currency": "EUR",
            "language": "es",
            "capacity": 1,
            "min_notice_minutes": 60,
            "booking_horizon_days": 60,
            "slot_interval_minutes": 15,
            "hold_minutes": 10,
            "refund_window_days": 2,
            "max_refund": Decimal("50.00"),
            "deposit_rule": DepositRule.FIXED,
            "deposit_amount": Decimal("10.00"),
            "negotiable": False,
        },
    )
    clinic.full_clean()
    clinic.opening_hours.all().delete()
    for weekday, ranges in CLINIC_HOURS.items():
        for opens_at, closes_at in ranges:
            OpeningHours.objects.create(
                business=clinic, weekday=weekday, opens_at=opens_at, closes_at=closes_at
            )
    for name, minutes, buffer_after, list_price, deposit in CLINIC_SERVICES:
        service, _ = Service.objects.update_or_create(
            business=clinic,
            name=name,
            defaults={
                "duration_minutes": minutes,
                "buffer_after_minutes": buffer_after,
                "list_price": list_price,
                "price_floor": list_price,
                "deposit_amount": deposit,
                "is_active": True,
                **NO_NEGOTIATION,
            },
        )
        service.full_clean()
    owner, _ = get_user_model().objects.get_or_create(
        username=CLINIC_OWNER_USERNAME, defaults={"email": "owner@clinica-sol.example"}
    )
    owner.is_staff = True
    owner.set_password(owner_password)
    owner.save()
    Membership.objects.update_or_create(user=owner, business=clinic, defaults={"role": Role.OWNER})
    return clinic
