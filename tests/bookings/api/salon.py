"""The test world: a business open every day, seen at a fixed moment."""

import datetime as dt
from dataclasses import dataclass

from bookings.models import Business, Service
from tests.factories import BusinessFactory, OpeningHoursFactory, ServiceFactory

# Monday 30 November 2026, 08:00 in Lisbon (winter: UTC+0). Tuesday 1 December is bookable
# from 09:00, every 15 minutes, until the last 45-minute slot at 16:15.
NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
TUESDAY_9 = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)


@dataclass(frozen=True)
class Salon:
    business: Business
    service: Service

    @property
    def base(self) -> str:
        return f"/api/v1/businesses/{self.business.slug}"


def open_every_day(business: Business) -> None:
    for weekday in range(7):
        OpeningHoursFactory(
            business=business, weekday=weekday, opens_at=dt.time(9), closes_at=dt.time(17)
        )


def salon_in(time_zone: str = "Europe/Lisbon", **business_fields) -> Salon:
    business = BusinessFactory(time_zone=time_zone, **business_fields)
    open_every_day(business)
    return Salon(business, ServiceFactory(business=business, name="Haircut"))
