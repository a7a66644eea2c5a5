"""Babel's locale for a language code, for writing days, lists and money the way a language
writes them. One place, so every app reads a language alike."""

from babel import Locale, UnknownLocaleError
from django.utils.translation import get_language, to_locale


def babel_locale(language: str | None = None) -> Locale:
    """Babel's locale for ``language``, the active language when None ("es" → es, "en-us" →
    en_US); English when no language is active or Babel knows none of it (a business's
    language was once free text: never an error page)."""
    try:
        return Locale.parse(to_locale(language or get_language() or "en"))
    except (ValueError, UnknownLocaleError):
        return Locale("en")
