"""Money as a reader of the active language expects it: the amount in the business's currency,
written the way that language writes money ("€60.00" in English, "60,00 €" in Spanish), from
the Unicode CLDR data through Babel — the same data the booking page's script draws amounts
with (Intl.NumberFormat), so the server's and the script's figures read alike.

Project plumbing beside ``babel_locale``, not part of an app: the client pages and the
dashboard's reading of conversations and of the audit log all write money this way, and the
shell (agent) may not import a surface (pages) for it. It decides nothing about an amount."""

from decimal import Decimal

from babel.numbers import format_currency

from ordina.locales import babel_locale


def money_text(amount: Decimal, currency: str) -> str:
    return format_currency(amount, currency, locale=babel_locale())
