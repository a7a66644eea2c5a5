"""What the booking page's script is told when the page loads: the business, its services
(with the deposit each asks for, so the progress indicator shows a deposit step only where
there is one), and the business's today, from which the pick-a-time view counts its days.

Nothing here belongs to a conversation: the page is the same for every visitor.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from decimal import Decimal
from typing import Any

from api.lookups import bookable_services
from bookings.models import Appointment, Business
from ordina.money import money_text
from payments.services.checkout import deposit_for

# How many days the pick-a-time view asks availability for at once (the API allows 62).
DAYS_PER_PAGE = 14


@dataclass(frozen=True)
class BookableService:
    id: int
    name: str
    minutes: int
    price: str  # as the API writes money: two decimals
    price_text: str  # as the page's language writes it, for the page before its script runs
    deposit: str  # "0.00" when the service asks for none


def bookable_services_with_deposits(*, business: Business) -> list[BookableService]:
    services = []
    for service in bookable_services(business):
        # The deposit of a booking at list price: what the confirm card will show.
        deposit = deposit_for(
            Appointment(business=business, service=service, price=service.list_price)
        )
        services.append(
            BookableService(
                id=service.pk,
                name=service.name,
                minutes=service.duration_minutes,
                price=_money(service.list_price),
                price_text=money_text(service.list_price, business.currency),
                deposit=_money(deposit),
            )
        )
    return services


def script_settings(
    *, business: Business, services: list[BookableService], now: dt.datetime
) -> dict[str, Any]:
    today = now.astimezone(business.tzinfo).date()
    return {
        "slug": business.slug,
        "business": business.name,
        "currency": business.currency,
        "today": today.isoformat(),
        "lastDay": (today + dt.timedelta(days=business.booking_horizon_days)).isoformat(),
        "daysPerPage": DAYS_PER_PAGE,
        "services": [asdict(service) for service in services],
    }


def _money(amount: Decimal) -> str:
    return f"{amount:.2f}"
