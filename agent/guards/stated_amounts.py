"""Every amount a reply states, however it is written: with a currency marker ("€40",
"40 euros", "EUR 40", "40,00 €"), in words with one ("forty euros"), as a bare decimal with
cents ("40.00"), in slang ("45 bucks"), or as a plain number a price word or an acceptance
stands next to ("I can do it for 40", "forty is fine, deal", "Fine, forty."). And the discounts
a reply claims ("20% off", "half price", "€10 off the list price"), for the prices guard to
check against the list price and the core's figure.

Read this widely only while a negotiation is active (the prices guard): there a careless
"OK, 20 is fine, deal!" must not reach the client, and taking a stray count for a price costs a
sentence its wording, never the business its money. Still never amounts: clock times ("14.00",
"10:30", "at 3"), dates ("3 December", "3/12"), counts and durations ("2 people", "45 minutes")
and phone numbers ("+31 20 123 4567"); nor a small number beside a day ("3 on Thursday", "11
tomorrow") or before "instead" in a sentence naming no money ("how about 11 instead?"). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from agent.guards.money import AMOUNT, MARKER, amount_of, currency_of, to_decimal


@dataclass(frozen=True)
class Stated:
    start: int
    end: int
    text: str
    amount: Decimal
    currency: str | None  # None: no marker — the business's own currency is meant


_UNITS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip


def _either(words: Iterable[str]) -> str:
    # Longest first, so "seventeen" is never read as "seven".
    return "|".join(sorted(words, key=len, reverse=True))


_DIGIT_WORD = _either(w for w, n in _UNITS.items() if n < 10)
_BELOW_100 = rf"(?:(?:{_either(_TENS)})(?:[-\s](?:{_DIGIT_WORD}))?|(?:{_either(_UNITS)}))"
# Up to nine hundred and ninety-nine: "forty", "forty-five", "a hundred and twenty".
_WORDS = rf"\b(?:(?:a|{_DIGIT_WORD})[-\s]hundred(?:[-\s](?:and\s)?{_BELOW_100})?|{_BELOW_100})\b"
_MARKED_WORDS = re.compile(
    rf"(?P<w1>{_WORDS})\s?(?P<m1>{MARKER})|(?P<m2>[$€£]|\b(?:USD|EUR|GBP|CHF)\b)\s?(?P<w2>{_WORDS})",
    re.IGNORECASE,
)
# A decimal with cents and nothing around it that makes it part of a longer number or a date.
_CENTS = re.compile(
    r"(?<![\d.,:/])(?P<whole>\d{1,6})(?P<sep>[.,])(?P<cents>\d{2})(?![\d]|[.,:/]\d)"
)
_PLAIN = re.compile(rf"(?<![\d.,:/+\-])\b\d{{1,6}}\b(?![.,:/]\d)|{_WORDS}", re.IGNORECASE)

_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
# A price word, then at most two small words, then the number: "for 40", "the price is 40",
# "costs just 40", "I can offer you 40", "a total of 40", "I can do 40", "how about 40".
_PRICE_BEFORE = re.compile(
    r"\b(?:for|prices?|priced|costs?|pay|charge|fee|offer|deal|total|rate|do|make it"
    r"|(?:how|what) about|down to)"
    r"(?:\s+(?:is|of|just|only|you|it|me|us|about|around|a|an|the|then))?"
    r"(?:\s+(?:is|of|just|only|you|it|me|us|about|around|a|an|the|then))?\s+$",
    re.IGNORECASE,
)
# The number, then an acceptance: "20 is fine", "20 works", "20 it is", "20, deal".
_PRICE_AFTER = re.compile(
    r"^[\s,]*(?:(?:is|would be|will be|sounds|then)\s+)?"
    r"(?:fine|ok|okay|good|great|works?|agreed|deal|it is)\b",
    re.IGNORECASE,
)
# What makes a number a time, a date, a count or a duration instead.
_UNIT_AFTER = re.compile(
    r"^\s*(?:people|persons?|guests?|adults?|kids?|child(?:ren)?|minutes?|mins?|hours?|hrs?|h\b"
    r"|days?|nights?|weeks?|months?|years?|slots?|times?|spots?|sessions?|visits?|rounds?"
    rf"|%|percent|[ap]\.?m\b|o'?\s?clock|of\s|st\b|nd\b|rd\b|th\b|(?:{_MONTHS})\b)",
    re.IGNORECASE,
)
# A small number then a day ("3 on Thursday", "11 tomorrow", "10 or 11 on Wednesday"): a time.
_DAY_AFTER = re.compile(
    r"^(?:\s*(?:,|or|and|to|-)\s*\d{1,2})*\s*(?:on\s+|this\s+|next\s+)?"
    r"(?:today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|morning|afternoon|evening|week(?:end)?)\b",
    re.IGNORECASE,
)
# "How about 11 instead?", "make it 2 instead of 1": with no money named, another time or count.
_INSTEAD_AFTER = re.compile(r"^\s*instead\b", re.IGNORECASE)
_MONEY_WORD = re.compile(
    rf"{MARKER}|\b(?:bucks|quid|prices?|priced|costs?|pay|charge|fee|discount|cheaper|off)\b",
    re.IGNORECASE,
)
# An acceptance, then the number alone: "Fine, forty.", "OK, 45!", "Deal: 50."
_ACCEPT_BEFORE = re.compile(
    r"(?:^|[.!?;]\s+)(?:fine|ok|okay|sure|alright|all right|deal|agreed|done)[,:!]?\s+$",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"^\s*(?:[.!?;]|$)")
# Slang for money: "45 bucks", "forty quid" — the business's currency is meant.
_SLANG = re.compile(
    rf"(?<![\d.,])(?P<n>\d{{1,6}}(?:[.,]\d{{2}})?|{_WORDS})\s?(?:bucks|quid)\b", re.IGNORECASE
)
HOUR_AT_MOST = 24  # a plain number above this is no clock hour
_TIME_BEFORE = re.compile(
    rf"\b(?:at|from|until|till|between|around|before|after|on|{_MONTHS}"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+$",
    re.IGNORECASE,
)


def stated_amounts(text: str) -> list[Stated]:
    """Every amount ``text`` states, in order; marked amounts first take their span."""
    found: list[Stated] = []
    for match in AMOUNT.finditer(text):
        if (price := amount_of(match)) is not None:
            found.append(Stated(*match.span(), match[0], price.amount, price.currency))
    for match in _MARKED_WORDS.finditer(text):
        words, marker = (match["w1"], match["m1"]) if match["w1"] else (match["w2"], match["m2"])
        found.append(Stated(*match.span(), match[0], words_value(words), currency_of(marker)))
    for match in _SLANG.finditer(text):
        number = match["n"]
        value = to_decimal(number) if number[0].isdigit() else words_value(number)
        if value is not None:
            found.append(Stated(*match.span(), match[0], value, None))
    for match in _CENTS.finditer(text):
        whole, cents = int(match["whole"]), int(match["cents"])
        if match["sep"] == "." and whole <= 23 and cents <= 59:
            continue  # "14.00": a clock reading (the dates guard's)
        amount = to_decimal(match[0])
        if amount is not None and not _UNIT_AFTER.match(text[match.end() :]):
            found.append(Stated(*match.span(), match[0], amount, None))
    for match in _PLAIN.finditer(text):
        if _priced_plain(text, match):
            number = match[0]
            value = Decimal(number) if number.isdigit() else words_value(number)
            found.append(Stated(*match.span(), number, value, None))
    return _first_of_overlapping(found)


def words_value(words: str) -> Decimal:
    """The number written in words: "forty-five" 45, "a hundred and twenty" 120."""
    total = 0
    for word in re.split(r"[-\s]+", words.lower()):
        if word == "a":
            total = 1
        elif word == "hundred":
            total = (total or 1) * 100
        else:
            total += _UNITS.get(word, 0) + _TENS.get(word, 0)
    return Decimal(total)


def _priced_plain(text: str, match: re.Match[str]) -> bool:
    """A plain number stands for money: a price word is next to it and nothing makes it a
    time, a date, a count or part of a phone number."""
    before, after = text[: match.start()], text[match.end() :]
    if match[0].lower() == "one":
        return False  # "either one works": the word, hardly ever a price
    if _UNIT_AFTER.match(after) or _TIME_BEFORE.search(before):
        return False
    if re.search(r"[\d+]\s?$", before) or re.match(r"^[\s-]?\d", after):
        return False  # one group of a phone number ("+31 20 123 4567")
    number = match[0]
    value = int(number) if number.isdigit() else int(words_value(number))
    if value <= HOUR_AT_MOST and (
        _DAY_AFTER.match(after) or (_INSTEAD_AFTER.match(after) and not _MONEY_WORD.search(text))
    ):
        return False  # "I can do 3 on Thursday", "how about 11 instead?": a time
    return bool(
        _PRICE_BEFORE.search(before)
        or _PRICE_AFTER.match(after)
        or (_ACCEPT_BEFORE.search(before) and _CLAUSE_END.match(after))
    )


def _first_of_overlapping(found: list[Stated]) -> list[Stated]:
    kept: list[Stated] = []
    for stated in found:  # in order of trust: marked, marked words, slang, cents, plain
        if not any(stated.start < k.end and k.start < stated.end for k in kept):
            kept.append(stated)
    return sorted(kept, key=lambda s: s.start)


# ------------------------------------------------------------------------- discounts


@dataclass(frozen=True)
class DiscountClaim:
    """A discount a sentence claims: a share of the list price or an amount off it."""

    start: int
    end: int
    percent: Decimal | None = None
    amount: Decimal | None = None


_OFF_NUMBER = rf"(?:[$€£]\s?)?(?P<n>\d{{1,6}}(?:[.,]\d{{2}})?|{_WORDS})"
_PERCENT = r"\d{1,3}(?:[.,]\d{1,2})?\s?(?:%|per\s?cent\b)"
# A share off: "20% off", "a 10 percent discount", "a discount of 15%", "save 20%".
_PERCENT_OFF = re.compile(
    rf"(?P<n>{_PERCENT})\s+(?:off|discount|less|lower|cheaper|reduction)\b"
    rf"|\b(?:discount|reduction|save|saving)\s+(?:of\s+)?(?P<m>{_PERCENT})",
    re.IGNORECASE,
)
_HALF = re.compile(r"\bhalf[-\s](?:price|off)\b|\bhalf\s+the\s+(?:list\s+)?price\b", re.IGNORECASE)
_AMOUNT_OFF = re.compile(
    rf"{_OFF_NUMBER}(?:\s?(?:[$€£]|{MARKER}|bucks|quid))?\s+(?:off|discount|cheaper|less)\b(?!-)"
    rf"|\bdiscount\s+of\s+{_OFF_NUMBER.replace('?P<n>', '?P<m>')}",
    re.IGNORECASE,
)


def discount_claims(text: str) -> list[DiscountClaim]:
    """Every discount ``text`` claims: "20% off", "a 10 percent discount", "half price",
    "€10 off the list price", "a discount of 5 euros"."""
    claims = [
        DiscountClaim(
            *m.span(), percent=_number(re.sub(r"\s?(?:%|per\s?cent)", "", m["n"] or m["m"]))
        )
        for m in _PERCENT_OFF.finditer(text)
    ]
    claims += [DiscountClaim(*m.span(), percent=Decimal(50)) for m in _HALF.finditer(text)]
    for match in _AMOUNT_OFF.finditer(text):
        if not any(c.start <= match.start() < c.end for c in claims):
            number = match["n"] or match["m"]
            claims.append(DiscountClaim(*match.span(), amount=_number(number)))
    return claims


def _number(number: str) -> Decimal:
    value = to_decimal(number) if number[0].isdigit() else None
    return value if value is not None else words_value(number)
