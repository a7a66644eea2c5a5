"""How times cross the API: instants are read as ISO 8601 with a UTC offset (a naive time is
refused, never guessed) and written in the business's zone with its offset; dates and instants
outside the years a booking can have are refused before they reach date arithmetic."""

import datetime as dt
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

# Far wider than any booking horizon, and far enough from datetime's limits that adding days,
# buffers and margins to a date or an instant can never overflow.
EARLIEST_DAY = dt.date(1970, 1, 1)
LATEST_DAY = dt.date(2999, 12, 31)
EARLIEST = dt.datetime.combine(EARLIEST_DAY, dt.time(0), tzinfo=dt.UTC)
LATEST = dt.datetime.combine(LATEST_DAY, dt.time(0), tzinfo=dt.UTC)
LONGEST_ISO_TEXT = 64


def iso_in_zone(instant: dt.datetime, zone: dt.tzinfo) -> str:
    """``2026-12-01T09:00:00+00:00``: the wall time in ``zone`` with its UTC offset."""
    return instant.astimezone(zone).isoformat()


@extend_schema_field(OpenApiTypes.DATETIME)
class InstantField(serializers.Field):
    """An aware instant. Read from ISO 8601 with a UTC offset (returned in UTC); written in the
    zone the serializer's context names (``time_zone``)."""

    default_error_messages = {
        "invalid": "Give a date and time in ISO 8601, e.g. 2026-12-01T09:00:00+00:00.",
        "naive": (
            "The time needs a UTC offset (e.g. 2026-12-01T09:00:00+00:00); "
            "a time without one is ambiguous."
        ),
        "out_of_range": "The time must lie between 1970 and 2999.",
    }

    def to_internal_value(self, data: Any) -> dt.datetime:
        if not isinstance(data, str) or len(data) > LONGEST_ISO_TEXT:
            self.fail("invalid")
        try:
            value = dt.datetime.fromisoformat(data)
        except ValueError:
            self.fail("invalid")
        if value.utcoffset() is None:
            self.fail("naive")
        try:
            instant = value.astimezone(dt.UTC)
        except OverflowError:
            self.fail("out_of_range")
        if not EARLIEST <= instant <= LATEST:
            self.fail("out_of_range")
        return instant

    def to_representation(self, value: dt.datetime) -> str:
        return iso_in_zone(value, self.context.get("time_zone", dt.UTC))


def day_field(**kwargs: Any) -> serializers.DateField:
    """An ISO date (YYYY-MM-DD) between 1970 and 2999."""
    return serializers.DateField(
        input_formats=["iso-8601"],
        validators=[MinValueValidator(EARLIEST_DAY), MaxValueValidator(LATEST_DAY)],
        **kwargs,
    )


class SlotSerializer(serializers.Serializer):
    """An interval of the booking core: when an appointment would start and end."""

    start = InstantField()
    end = InstantField()

    class Meta:
        ref_name = "Slot"


def holder_field(**kwargs: Any) -> serializers.RegexField:
    """Whoever names a holder is treated as its owner (sees its held slot as open, books it),
    so a holder must be hard to guess: 16 to 64 url-safe characters."""
    return serializers.RegexField(
        r"^[-A-Za-z0-9_]{16,64}$",
        required=False,
        error_messages={"invalid": "A holder is 16 to 64 letters, digits, '-' or '_'."},
        **kwargs,
    )
