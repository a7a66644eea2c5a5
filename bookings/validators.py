"""Field validators for values the database cannot check by itself."""

import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError


@cache
def _known_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value not in _known_time_zones():
        raise ValidationError(
            "%(value)s is not an IANA time zone (for example Europe/Lisbon or America/New_York).",
            code="invalid_time_zone",
            params={"value": value},
        )
