"""Prices: every amount stated is one the core computed.

Amounts are recognised only with a currency marker ("$85", "85 EUR", "85 euros"), so times
("14.00") and counts ("2 people") are never taken for prices; a bare "85" is not checked.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from agent.guards.ledger import GuardResult, Price, Rewrite, TurnFacts
from agent.guards.sentences import drop_sentences, sentences

# --------------------------------------------------------------------------- (3) prices

_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
_CODE_WORDS = {
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
}
_NUMBER = r"\d{1,3}(?:[,\u202f ]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"
AMOUNT = re.compile(
    rf"(?P<sym>[$€£])\s?(?P<n1>{_NUMBER})"
    rf"|(?P<code1>USD|EUR|GBP|CHF)\s?(?P<n2>{_NUMBER})"
    rf"|(?P<n3>{_NUMBER})\s?(?:(?P<sym2>[$€£])|(?P<code2>USD|EUR|GBP|CHF|dollars?|euros?|pounds?)\b)",
    re.IGNORECASE,
)


def _to_decimal(number: str) -> Decimal | None:
    cleaned = number.replace("\u202f", "").replace(" ", "")
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
    currency = _SYMBOLS.get(marker) or _CODE_WORDS.get(marker.lower(), marker.upper())
    amount = _to_decimal(number)
    return None if amount is None else Price(amount, currency)


def format_price(price: Price) -> str:
    symbol = {code: sym for sym, code in _SYMBOLS.items()}.get(price.currency)
    amount = f"{price.amount:.2f}"
    return f"{symbol}{amount}" if symbol else f"{amount} {price.currency}"


def _is_core_price(price: Price, facts: TurnFacts) -> bool:
    return any(
        price.amount == known.amount and price.currency == known.currency for known in facts.prices
    )


def prices_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """Every amount stated is one the core computed; otherwise corrected, or dropped. What the
    core itself said (a refund refusal naming what is left) is never touched."""
    wrong = [
        match
        for match in AMOUNT.finditer(reply)
        if (price := amount_of(match)) is None or not _is_core_price(price, facts)
    ]
    core_spans = _core_said_spans(reply, facts)
    wrong = [m for m in wrong if not any(a <= m.start() < b for a, b in core_spans)]
    if not wrong:
        return GuardResult(reply)
    if len(facts.prices) == 1:
        correct = format_price(facts.prices[0])
        rewrites = [
            Rewrite("prices", "amount the core did not compute", match[0], correct)
            for match in wrong
        ]
        wrong_at = {match.span() for match in wrong}
        text = AMOUNT.sub(lambda m: correct if m.span() in wrong_at else m[0], reply)
        return GuardResult(text, rewrites)
    # No core price, or several: which one was meant is unknowable, so the sentence goes.
    wrong_spans = {match[0] for match in wrong}
    return drop_sentences(
        reply,
        facts,
        "prices",
        lambda s: (
            "amount the core did not compute" if any(span in s for span in wrong_spans) else None
        ),
    )


def _core_said_spans(reply: str, facts: TurnFacts) -> list[tuple[int, int]]:
    """Where in ``reply`` the core's own sentences stand."""
    spans = []
    for sentence in sentences(reply):
        if facts.is_core_said(sentence):
            start = reply.find(sentence)
            spans.append((start, start + len(sentence)))
    return spans
