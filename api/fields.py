"""How values cross the API, and what its OpenAPI schema says of them, so that the schema
admits exactly what the fields accept.

Instants are read as RFC 3339 date-times (ISO 8601 with seconds and a UTC offset: a naive time
is refused, never guessed) and written in the business's zone with its offset; days are
``YYYY-MM-DD``. Both are refused outside the years a booking can have before they reach date
arithmetic; the schema cannot bound a date string, so its ``pattern`` bounds the year as written.
Text is a JSON string, measured as sent; a required text must hold a character that survives
stripping, and no text may hold a NUL (PostgreSQL cannot store one).
"""

import datetime as dt
import re
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.http import QueryDict
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

# Far wider than any booking horizon, and far enough from datetime's limits that adding days,
# buffers, margins and any UTC offset to a date or an instant can never overflow.
EARLIEST_DAY = dt.date(1970, 1, 1)
LATEST_DAY = dt.date(2999, 12, 31)
LONGEST_ISO_TEXT = 64

# The patterns are ECMA-262 (the schema's dialect) and Python alike: only ASCII classes, no \d
# (Python's takes any script's digits) and no \s (the two dialects' differ).
_ANY_YEAR = "[0-9]{4}"
_BOOKABLE_YEAR = "(?:19[7-9][0-9]|2[0-9]{3})"  # EARLIEST_DAY.year to LATEST_DAY.year
_DAY = "-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
_TIME = (
    "T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:[.][0-9]+)?"
    "(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
)
DAY_PATTERN = f"^{_BOOKABLE_YEAR}{_DAY}$"
INSTANT_PATTERN = f"^{_BOOKABLE_YEAR}{_DAY}{_TIME}$"
_DAY_SHAPE = re.compile(f"{_ANY_YEAR}{_DAY}")
_INSTANT_SHAPE = re.compile(f"{_ANY_YEAR}{_DAY}{_TIME}")

# Exactly the characters str.strip() removes (those of str.isspace()), spelled out: ECMA-262's
# \s lacks \x1c-\x1f and \x85 and adds \ufeff, so "\S" would admit a text the API finds blank.
STRIPPED = r"\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
NOT_BLANK_PATTERN = f"[^{STRIPPED}]"  # unanchored: somewhere, a character stripping leaves
NUL_PATTERN = r"\u0000"


def iso_in_zone(instant: dt.datetime, zone: dt.tzinfo) -> str:
    """``2026-12-01T09:00:00+00:00``: the wall time in ``zone`` with its UTC offset."""
    return instant.astimezone(zone).isoformat()


@extend_schema_field(
    {
        "type": "string",
        "format": "date-time",
        "pattern": INSTANT_PATTERN,
        "maxLength": LONGEST_ISO_TEXT,
    }
)
class InstantField(serializers.Field):
    """An aware instant. Read from an RFC 3339 date-time (returned in UTC); written in the zone
    the serializer's context names (``time_zone``)."""

    default_error_messages = {
        "invalid": (
            "Give a date and time in RFC 3339 (ISO 8601 with seconds and a UTC offset), "
            "e.g. 2026-12-01T09:00:00+00:00."
        ),
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
        # fromisoformat also reads other ISO 8601 spellings (no seconds, a space for the T,
        # basic format); the schema promises RFC 3339, so that is all that is accepted.
        if not _INSTANT_SHAPE.fullmatch(data):
            self.fail("invalid")
        # The year as written, as the schema's pattern reads it; its offset (under a day)
        # cannot take a year in this range out of datetime's.
        if not EARLIEST_DAY.year <= value.year <= LATEST_DAY.year:
            self.fail("out_of_range")
        return value.astimezone(dt.UTC)

    def to_representation(self, value: dt.datetime) -> str:
        return iso_in_zone(value, self.context.get("time_zone", dt.UTC))


@extend_schema_field({"type": "string", "format": "date", "pattern": DAY_PATTERN})
class DayField(serializers.DateField):
    """A day as ``YYYY-MM-DD`` (the schema's ``date``): Python's parser would also take
    ``20261201`` and week dates, which the schema does not admit."""

    def to_internal_value(self, value: Any) -> dt.date:
        if not isinstance(value, str) or not _DAY_SHAPE.fullmatch(value):
            self.fail("invalid", format="YYYY-MM-DD")
        return super().to_internal_value(value)


def day_field(**kwargs: Any) -> DayField:
    """A day (YYYY-MM-DD) between 1970 and 2999."""
    return DayField(
        input_formats=["iso-8601"],
        validators=[MinValueValidator(EARLIEST_DAY), MaxValueValidator(LATEST_DAY)],
        **kwargs,
    )


class StrictCharField(serializers.CharField):
    """A CharField that takes only a JSON string (DRF's also takes numbers: 123 → "123"), and
    measures it as sent: the schema's maxLength is the raw length, so surrounding whitespace
    is stripped only after the length is checked. DRF's own checks then refuse a blank text
    (unless allow_blank) and a NUL; the schema below says both."""

    def __init__(self, **kwargs: Any) -> None:
        # DRF would measure a minimum after stripping; nothing here needs one.
        if "min_length" in kwargs:
            raise TypeError("StrictCharField takes no min_length.")
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class StrictCharFieldSchema(OpenApiSerializerFieldExtension):
    """What a StrictCharField accepts, as the schema says it: no NUL anywhere, and, unless it
    may be blank, a character that stripping leaves. The NUL is refused with ``not`` rather than
    folded into the pattern: drf-spectacular splits a blank-allowing field with a pattern into
    ``oneOf`` [pattern, empty], and the empty text would then match both, which ``oneOf``
    refuses."""

    target_class = StrictCharField
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction) -> dict[str, Any]:
        field = self.target
        schema: dict[str, Any] = {"type": "string", "not": {"pattern": NUL_PATTERN}}
        if not field.allow_blank:
            schema.update(minLength=1, pattern=NOT_BLANK_PATTERN)
        if field.max_length is not None:
            schema["maxLength"] = field.max_length
        return schema


class SlotSerializer(serializers.Serializer):
    """An interval of the booking core: when an appointment would start and end."""

    start = InstantField()
    end = InstantField()

    class Meta:
        ref_name = "Slot"


HOLDER_NEEDED = (
    "Give a holder: 16 to 64 letters, digits, '-' or '_', made at random once per visitor "
    "(a UUID without its dashes will do) and kept for the visit."
)


def holder_field(*, required: bool = False, **kwargs: Any) -> serializers.RegexField:
    """Whoever names a holder is treated as its owner (sees its held slot as open, books it),
    so a holder must be hard to guess: 16 to 64 url-safe characters. The client makes one at
    random per visitor (a UUID without its dashes will do) and keeps it for the visit."""
    return serializers.RegexField(
        r"^[-A-Za-z0-9_]{16,64}$",
        required=required,
        error_messages={
            "invalid": "A holder is 16 to 64 letters, digits, '-' or '_'.",
            "required": HOLDER_NEEDED,
            "blank": HOLDER_NEEDED,
        },
        **kwargs,
    )


class WholeNumberField(serializers.IntegerField):
    """An integer as the schema says it: digits (or a JSON integer), never "1.0" or 1.0, which
    DRF's IntegerField would take for 1 though the schema's ``integer`` does not admit them."""

    re_decimal = re.compile(r"(?!)")  # DRF strips a trailing ".0" by this pattern: match nothing

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool | float):
            self.fail("invalid")
        return super().to_internal_value(data)


REPEATED = "Give this parameter once."


def single_valued(query: QueryDict) -> dict[str, Any]:
    """The query's parameters as a plain dict, each given once. A parameter given more than
    once is refused by name: which of its values was meant cannot be told (a QueryDict would
    quietly take the last). A blank value stays a value, for the field to refuse."""
    repeated = sorted(name for name, values in query.lists() if len(values) > 1)
    if repeated:
        raise serializers.ValidationError({name: [REPEATED] for name in repeated})
    return query.dict()
