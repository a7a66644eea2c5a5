"""Money as a client reads it on the pages: the amount in the business's currency, written the
way the active language writes money ("€60.00" in English, "60,00 €" in Spanish), from the
Unicode CLDR data through Babel — the same data the page's script draws amounts with
(Intl.NumberFormat), so the server's and the script's figures read alike."""

from decimal import Decimal

from babel import Locale, UnknownLocaleError
from babel.numbers import format_currency
from django.utils import translation


def active_locale() -> Locale:
    """The active language as Babel knows it. A business's language is free text: one Babel
    has no data for is written as English, never an error page."""
    try:
        return Locale.parse(translation.to_locale(translation.get_language() or "en"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def money_text(amount: Decimal, currency: str) -> str:
    return format_currency(amount, currency, locale=active_locale())
