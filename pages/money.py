"""Money as a client reads it on the pages: the amount in the business's currency, written the
way the active language writes money ("€60.00" in English, "60,00 €" in Spanish), from the
Unicode CLDR data through Babel — the same data the page's script draws amounts with
(Intl.NumberFormat), so the server's and the script's figures read alike."""

from decimal import Decimal

from babel.numbers import format_currency

from ordina.locales import babel_locale


def money_text(amount: Decimal, currency: str) -> str:
    return format_currency(amount, currency, locale=babel_locale())
