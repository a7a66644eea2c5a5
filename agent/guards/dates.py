"""Dates and times: only those the core handed over this turn; with none, none at all.

Regexes find English and Spanish mentions (the Spanish words are ``agent.guards.dates_es``) and
check each against the handed-over moments in the business's zone; dateparser.search adds
other phrasings, keeping only hits with a digit that are neither amounts nor durations (its
bare-word hits, "We" or "now", are noise).
Weekday names are dates: "We are open Monday to Friday" needs a Monday and a Friday handed over.
A language without patterns here fails closed: the guard cannot tell a date from any other
word there, so every sentence that is not the core's goes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, timedelta

import dateparser.search

from agent.guards import dates_es as es
from agent.guards.claims import is_booking_claim
from agent.guards.ledger import GuardResult, TurnFacts
from agent.guards.links import LINK
from agent.guards.prices import AMOUNT
from agent.guards.reading import language_of, plain, unreadable
from agent.guards.sentences import drop_sentences

# --------------------------------------------------------------------------- (2) dates and times

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
# Full weekday names only: "sun", "sat", "wed" and "mon" are ordinary words too.
_WEEKDAY = r"(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?"
)
_ORDINAL = r"(?:st|nd|rd|th)?"

_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "clock",
        re.compile(
            r"\b(?P<h>[01]?\d|2[0-3])[:h](?P<m>[0-5]\d)\s*(?P<ampm>[ap]\.?m\.?)?(?![\d])",
            re.IGNORECASE,
        ),
    ),
    (
        "ampm",
        re.compile(r"\b(?P<h>1[0-2]|0?[1-9])\s*(?P<ampm>[ap]\.?m\b\.?)", re.IGNORECASE),
    ),
    (
        "oclock",
        re.compile(r"\b(?P<h>1[0-2]|0?[1-9])\s*o'?\s?clock\b", re.IGNORECASE),
    ),
    ("at_hour", re.compile(r"\bat (?P<h>1[0-2]|0?[1-9])\b(?![.,:]?\d|\s*(?:%|people))")),
    # "10.30" is a time (the European way) unless money is next to it.
    (
        "dotted_clock",
        re.compile(r"(?<![\d.,])\b(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)\b(?![.,]?\d)"),
    ),
    # "in 2 days", "in 3 hours", "48 hours from now": a moment all the same.
    (
        "offset",
        re.compile(
            r"\bin\s+(?P<n>\d+)\s+(?P<unit>days?|weeks?|hours?|minutes?|mins?)\b"
            r"|\b(?P<n2>\d+)\s+(?P<unit2>days?|weeks?|hours?|minutes?|mins?)\s+from\s+now\b",
            re.IGNORECASE,
        ),
    ),
    ("noon", re.compile(r"\b(?P<word>noon|midday|midnight)\b", re.IGNORECASE)),
    ("weekday", re.compile(rf"\b{_WEEKDAY}\b", re.IGNORECASE)),
    (
        "month_day",
        re.compile(
            rf"\b(?P<month>{_MONTH})\s+(?P<day>[0-3]?\d){_ORDINAL}\b"
            rf"|\b(?P<day2>[0-3]?\d){_ORDINAL}\s+(?:of\s+)?(?P<month2>{_MONTH})(?=\W|$)",
            re.IGNORECASE,
        ),
    ),
    (
        "numeric",
        re.compile(
            r"\b(?P<y>20\d\d)-(?P<mo>[01]?\d)-(?P<d>[0-3]?\d)\b"
            r"|\b(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)(?:/(?:20)?\d\d)?\b(?![.,]?\d)"
            r"|\b(?P<a2>[0-3]?\d)\.(?P<b2>[01]?\d)\.(?:(?:20)?\d\d\b)?"
        ),
    ),
    (
        "relative",
        re.compile(
            r"\b(?P<rel>today|tonight|tomorrow|day after tomorrow|yesterday|"
            r"this (?:morning|afternoon|evening|week|weekend)|next (?:week|weekend|month)|"
            r"later today|the weekend|weekends?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "part_of_day",
        re.compile(r"(?<!good )\b(?P<part>mornings?|afternoons?|evenings?)\b", re.IGNORECASE),
    ),
]
_PARTS_OF_DAY = {
    "morning": range(5, 12),
    "afternoon": range(12, 17),
    "evening": range(17, 23),
    **es.PARTS_OF_DAY,
}
# "12 years of experience" is a duration, which dateparser reads as a date "12 years ago".
_DURATION = re.compile(
    r"\b(years?|months?|weeks?|days?|hours?|minutes?|mins?|people|persons?|guests?"
    r"|a[nñ]os?|mes|meses|semanas?|d[ií]as?|horas?|minutos?|personas?)\b",
    re.IGNORECASE,
)
# A number with its unit ("45 minutes", "2 people"): any dateparser hit in it names the unit.
_COUNTED = re.compile(r"\b\d+(?:[.,]\d+)?\s*(?:-\s*\d+\s*)?" + _DURATION.pattern, re.IGNORECASE)
_PRICE_NEAR = re.compile(
    r"[$€£]|\b(usd|eur|gbp|chf|dollars?|euros?|pounds?|d[oó]lar(?:es)?|libras?)\b", re.IGNORECASE
)

_SHARED = {"clock", "ampm", "dotted_clock", "numeric"}
# Per language, the patterns that find its mentions: clock readings and numeric dates are
# shared; words are the language's own.
_PATTERNS_BY_LANGUAGE = {
    "en": _DATE_PATTERNS,
    "es": [(k, p) for k, p in _DATE_PATTERNS if k in _SHARED] + es.PATTERNS,
}


def _month_number(word: str) -> int:
    if plain(word) in es.MONTHS:
        return es.MONTHS[plain(word)]
    prefix = word.lower()[:3]
    return next(i for i, name in enumerate(_MONTHS, start=1) if name.startswith(prefix))


def _weekday_number(word: str) -> int:
    name = plain(word)
    name = name if name in es.WEEKDAYS else name.removesuffix("s")  # "sábados", not "lunes"
    if name in es.WEEKDAYS:
        return es.WEEKDAYS[name]
    prefix = word.lower()[:3]
    return next(i for i, name in enumerate(_WEEKDAYS) if name.startswith(prefix))


def _hours(h: int, ampm: str | None) -> set[int]:
    if ampm:
        pm = ampm.lower().startswith("p")
        return {(h % 12) + (12 if pm else 0)}
    return {h} if h > 12 or h == 0 else {h % 12, h % 12 + 12}


def _mention_supported(kind: str, match: re.Match[str], facts: TurnFacts) -> bool:
    local = facts.local_datetimes()
    times = {(moment.hour, moment.minute) for moment in local}
    days = {moment.date() for moment in local}
    if kind in {"clock", "dotted_clock"}:
        minute, ampm = int(match["m"]), match.groupdict().get("ampm")
        return any((hour, minute) in times for hour in _hours(int(match["h"]), ampm))
    if kind in {"ampm", "oclock", "at_hour"}:
        return any(
            (hour, 0) in times for hour in _hours(int(match["h"]), match.groupdict().get("ampm"))
        )
    if kind == "hour_es":
        return bool(es.spoken_hour(match) & times)
    if kind == "noon":
        return (0 if plain(match["word"]) in {"midnight", "medianoche"} else 12, 0) in times
    if kind == "weekday":
        return _weekday_number(match["weekday"]) in {day.weekday() for day in days}
    if kind == "month_day":
        groups = match.groupdict()
        month = _month_number(groups.get("month") or match["month2"])
        day = int(groups.get("day") or match["day2"])
        return (month, day) in {(d.month, d.day) for d in days}
    if kind == "numeric":
        if match["y"]:
            candidates = {(int(match["mo"]), int(match["d"]))}
        else:
            a, b = int(match["a"] or match["a2"]), int(match["b"] or match["b2"])
            candidates = {(a, b), (b, a)}  # day/month or month/day: either may be meant
        return bool(candidates & {(d.month, d.day) for d in days})
    if kind == "relative":
        rel = " ".join(plain(match["rel"]).split())
        return _relative_supported(es.RELATIVE.get(rel, rel), facts.today, local)
    if kind == "offset":
        # Days from today can be checked; hours from "now" cannot (the core hands over no now).
        unit = plain(match["unit"] or match.groupdict().get("unit2") or "")
        if facts.today is None or not unit.startswith(("day", "week", "dia", "semana")):
            return False
        weeks = unit.startswith(("week", "semana"))
        count = int(match["n"] or match.groupdict().get("n2") or 0) * (7 if weeks else 1)
        return facts.today + timedelta(days=count) in days
    if kind == "part_of_day":
        part = plain(match["part"]).rstrip("s")
        return any(moment.hour in _PARTS_OF_DAY[part] for moment in local)
    return False


def _relative_supported(rel: str, today: date | None, local: list[datetime]) -> bool:
    if today is None:
        return False  # no "today" from the core: relative days cannot be checked
    days = {moment.date() for moment in local}
    monday = today - timedelta(days=today.weekday())
    spans: dict[str, tuple[date, date]] = {
        "today": (today, today),
        "later today": (today, today),
        "tomorrow": (today + timedelta(1), today + timedelta(1)),
        "day after tomorrow": (today + timedelta(2), today + timedelta(2)),
        "this week": (today, monday + timedelta(6)),
        "next week": (monday + timedelta(7), monday + timedelta(13)),
        "this weekend": (monday + timedelta(5), monday + timedelta(6)),
        "the weekend": (monday + timedelta(5), monday + timedelta(6)),
    }
    if rel in {"tonight", "this evening"}:
        return any(m.date() == today and m.hour in _PARTS_OF_DAY["evening"] for m in local)
    if rel in {"this morning", "this afternoon"}:
        part = _PARTS_OF_DAY[rel.split()[1]]
        return any(m.date() == today and m.hour in part for m in local)
    if rel not in spans:
        return False  # "yesterday", "next month", "weekends": never a fact handed over
    first, last = spans[rel]
    return any(first <= day <= last for day in days)


def _regex_date_problem(sentence: str, facts: TurnFacts) -> tuple[str | None, str]:
    """The first unsupported mention, and the sentence with every checked mention and amount
    blanked out (what is left for dateparser to look at)."""
    # Amounts and durations are never dates (dateparser's hits in them are discarded below);
    # blanked with spaces of the same length, so the regexes' spans still line up.
    rest = _COUNTED.sub(_blank, AMOUNT.sub(_blank, sentence))
    for kind, pattern in _PATTERNS_BY_LANGUAGE[language_of(facts)]:
        for match in pattern.finditer(sentence):
            if kind in {"at_hour", "numeric", "dotted_clock"} and _price_adjacent(sentence, match):
                continue
            if not _mention_supported(kind, match, facts):
                return f"date/time not handed over by the core: {match[0]!r}", rest
            rest = rest[: match.start()] + " " * len(match[0]) + rest[match.end() :]
    return None, rest


def _blank(match: re.Match[str]) -> str:
    return " " * len(match[0])


def _price_adjacent(sentence: str, match: re.Match[str]) -> bool:
    around = sentence[max(0, match.start() - 2) : match.end() + 9]
    return bool(_PRICE_NEAR.search(around))


def _parser_date_problem(sentence: str, facts: TurnFacts) -> str | None:
    """dateparser catches phrasings the regexes miss (and other languages), digits only.

    Hits without a digit are too noisy ("We", "now"); amounts are prices, not dates.
    """
    base = datetime.combine(facts.today or date(2000, 1, 1), datetime.min.time())
    found = dateparser.search.search_dates(
        sentence,
        languages=[facts.language.split("-")[0]],
        settings={"RELATIVE_BASE": base, "RETURN_AS_TIMEZONE_AWARE": False},
    )
    local = facts.local_datetimes()
    for text, moment in found or []:
        if not re.search(r"\d", text) or _PRICE_NEAR.search(text) or text.strip().isdigit():
            continue
        if _DURATION.search(text):
            continue
        if AMOUNT.search(text):
            continue
        same_day = any((m.month, m.day) == (moment.month, moment.day) for m in local)
        same_time = any((m.hour, m.minute) == (moment.hour, moment.minute) for m in local)
        if not (same_day or (same_time and moment.time() != datetime.min.time())):
            return f"date/time not handed over by the core: {text!r}"
    return None


def dates_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """Only the dates and times the core handed over this turn; with none, none at all. A
    sentence claiming the booking may name only the booked time, not any offered one."""
    if language_of(facts) not in _PATTERNS_BY_LANGUAGE:
        return drop_sentences(reply, facts, "dates", unreadable(facts, "date"))
    booked = replace(facts, datetimes=(facts.booked_at,)) if facts.booked_at else facts

    def problem(sentence: str) -> str | None:
        ledger = booked if is_booking_claim(sentence, language_of(facts)) else facts
        return _problem(sentence, ledger)

    return drop_sentences(reply, facts, "dates", problem)


def date_problem(sentence: str, facts: TurnFacts) -> str | None:
    """The first date or time in ``sentence`` that is not among ``facts.datetimes``."""
    return _problem(sentence, facts)


def _problem(sentence: str, facts: TurnFacts) -> str | None:
    if language_of(facts) not in _PATTERNS_BY_LANGUAGE:
        return f"no date words for the language {facts.language!r}: nothing is vouched for"
    # The links left are the core's (the links guard ran first); their digits are no dates.
    sentence = LINK.sub(lambda link: " " * len(link[0]), sentence)
    found, rest = _regex_date_problem(sentence, facts)
    if found is not None:
        return found
    # dateparser keeps only hits with a digit; when every digit sits in a mention the regexes
    # already checked (or in an amount), it could only re-find those. It is the guard's slowest
    # step (milliseconds per sentence), so it runs only where it can help.
    if not re.search(r"\d", rest):
        return None
    return _parser_date_problem(sentence, facts)
