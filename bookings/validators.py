"""Field validators for values the database cannot check by itself."""

import zoneinfo
from functools import cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import get_supported_language_variant

from bookings.contrast import (
    MINIMUM_TEXT_CONTRAST,
    NEAR_BLACK,
    WHITE,
    contrast_ratio,
    ink_on,
    is_hex_colour,
)
from bookings.embed_origins import OriginsRefused, parse_origins


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


def validate_language(value: str) -> None:
    """A language the clients can be answered in (settings.LANGUAGES, or a variant of one:
    "es-ES" speaks Spanish): any other would greet every client in a language nobody chose."""
    try:
        get_supported_language_variant(value)
    except LookupError:
        spoken = ", ".join(f"{code} ({name})" for code, name in settings.LANGUAGES)
        raise ValidationError(
            "%(value)s is not a language Ordina speaks; choose one of %(spoken)s.",
            code="unsupported_language",
            params={"value": value, "spoken": spoken},
        ) from None


def validate_accent_colour(value: str) -> None:
    """``#rrggbb`` on which white or near-black text reaches WCAG AA (4.5:1): the accent fills
    primary buttons, and their labels must stay readable."""
    if not is_hex_colour(value):
        raise ValidationError(
            "Write the colour as # and six hexadecimal digits, for example #2563eb.",
            code="invalid_colour",
        )
    verdict = ink_on(value)
    if not verdict.readable:
        raise ValidationError(
            "%(value)s fails contrast: neither white (%(white).2f:1) nor near-black "
            "(%(dark).2f:1) text reaches %(minimum)s:1 on it, so button labels would be hard to "
            "read. Choose a darker or a lighter shade.",
            code="low_contrast",
            params={
                "value": value,
                "white": contrast_ratio(WHITE, value),
                "dark": contrast_ratio(NEAR_BLACK, value),
                "minimum": MINIMUM_TEXT_CONTRAST,
            },
        )


def validate_embed_origins(value: str) -> None:
    """One site per line, each an origin a browser could send (see bookings.embed_origins)."""
    try:
        parse_origins(value)
    except OriginsRefused as refused:
        raise ValidationError(
            [ValidationError(problem, code="invalid_origin") for problem in refused.problems]
        ) from None
