"""A phone number in the one form the core stores: E.164. Decided on plain values and importable
without settings, so the conversation's rules read a typed number the way the client form
stores it. Its only Django is the ``ValidationError`` a form or a model turns into a field
error."""

import phonenumbers
from django.core.exceptions import ValidationError


def normalize_phone(raw: str, region: str) -> str:
    """The E.164 form of ``raw`` (read in ``region`` when it has no country code)."""
    try:
        number = phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException as exc:
        raise ValidationError(f"{raw!r} is not a phone number: {exc}") from exc
    if not phonenumbers.is_valid_number(number):
        raise ValidationError(f"{raw!r} is not a valid phone number for {region}.")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
