"""The test world: a business open every day, seen at a fixed moment."""

import datetime as dt
from dataclasses import dataclass

from bench.harness import open_salon
from bookings.models import Business, Service
from tests.factories import ServiceFactory

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


def salon_in(time_zone: str = "Europe/Lisbon", **business_fields) -> Salon:
    business = open_salon(time_zone=time_zone, **business_fields)
    return Salon(business, ServiceFactory(business=business, name="Haircut"))
