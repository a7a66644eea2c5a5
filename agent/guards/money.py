"""Money as a reply writes it with a currency marker ("$85", "85 EUR", "85 euros", "€ 44,50"),
in English or Spanish ("30 dólares", "30,50 €": a comma before two digits is a decimal comma;
"12.345,50 €", "45,00 US$": how Babel writes Spanish amounts; "1.500 €" and "€1,500" are both
fifteen hundred), and as the core's figures are
written back to the client: "€45.00" in English, in any other language as Babel (CLDR) writes
it there ("45,00 €")."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from babel.numbers import format_currency
from django.utils.translation import get_language

from agent.guards.ledger import Price
from ordina.locales import babel_locale

SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "US$": "USD"}
# How the core writes a currency in English: its symbol before the amount, else its code after.
ENGLISH_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}
CODE_WORDS = {
    "usd": "USD",
    "dollar": "USD",
    "dollars": "USD",
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "gbp": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "chf": "CHF",
    "dolar": "USD",
    "dolares": "USD",
    "dólar": "USD",
    "dólares": "USD",
    "libra": "GBP",
    "libras": "GBP",
}
# A currency marker on its own: a symbol, an ISO code, or a currency's name.
_NAMES = r"dollars?|euros?|pounds?|d[oó]lar(?:es)?|libras?"
MARKER = rf"[$€£]|\b(?:USD|EUR|GBP|CHF|{_NAMES})\b"
# Thousands grouped with dots ("1.500", "12.345,50": Spanish) are tried first, so a grouped
# number is read whole — never its last group alone ("500" of "1.500"). Money has at most two
# decimals, so three digits after a dot or a comma are a thousands group in any language
# ("1.500 €", "€1,500"). Any other run of digits and separators ("1.5000") is still read whole,
# as whatever it says: not the core's figure, it is rewritten whole.
_NUMBER = (
    r"\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?"
    r"|\d{1,3}(?:[,\u202f ]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)+"
)
# A number is read from its first digit to its last: never from inside another number.
_WHOLE = rf"(?<![\d.,])(?:{_NUMBER})(?![.,]?\d)"
AMOUNT = re.compile(
    rf"(?P<sym>US\$|[$€£])\s?(?P<n1>{_WHOLE})"
    rf"|(?P<code1>USD|EUR|GBP|CHF)\s?(?P<n2>{_WHOLE})"
    rf"|(?P<n3>{_WHOLE})\s?(?:(?P<sym2>US\$|[$€£])|(?P<code2>USD|EUR|GBP|CHF|{_NAMES})\b)",
    re.IGNORECASE,
)


def currency_of(marker: str) -> str:
    """The ISO code a marker ("€", "euros", "usd") stands for."""
    return SYMBOLS.get(marker) or CODE_WORDS.get(marker.lower(), marker.upper())


def to_decimal(number: str) -> Decimal | None:
    cleaned = number.replace("\u202f", "").replace(" ", "")
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?", cleaned):  # "1.500", "12.345,50"
        cleaned = cleaned.replace(".", "")
    if re.fullmatch(r"\d+,\d{1,2}", cleaned):  # decimal comma: "85,50"
        cleaned = cleaned.replace(",", ".")
    cleaned = cleaned.replace(",", "")
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        return None


def amount_of(match: re.Match[str]) -> Price | None:
    number = match["n1"] or match["n2"] or match["n3"]
    marker = match["sym"] or match["sym2"] or match["code1"] or match["code2"] or ""
    amount = to_decimal(number)
    return None if amount is None else Price(amount, currency_of(marker))


def format_price(price: Price, language: str | None = None) -> str:
    """``price`` as the core writes it to the client in ``language`` (the active language when
    not given): "€45.00", "45.00 CHF" in English; "45,00 €", "45,00 US$" in Spanish."""
    language = language or get_language() or "en"
    if language.split("-")[0].lower() == "en":
        symbol = ENGLISH_SYMBOLS.get(price.currency)
        amount = f"{price.amount:.2f}"
        return f"{symbol}{amount}" if symbol else f"{amount} {price.currency}"
    return format_currency(price.amount, price.currency, locale=babel_locale(language))
