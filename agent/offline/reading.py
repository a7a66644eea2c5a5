"""What a client's message contains, read deterministically: times, contacts, money, intent.

``read_message`` is a pure function over the message and the business's context (``now``, its
IANA zone, its country, its services). It decides nothing about availability, prices or
confirmation — it only reports what the client wrote, for the shell to check against the core.

Choices a reader should know:

* Dayparts are fixed windows in the business's zone: morning 09:00–12:00, afternoon
  12:00–17:00, evening 17:00–20:00 ("tonight" is today's evening). A day with no time is the
  whole day (00:00 to the next 00:00); "next week" is next Monday 00:00 to the Monday after.
* A bare weekday ("Friday", "next Friday") is the coming one, today excluded; "this Friday"
  said on a Friday is today. "Tuesday next week" is the Tuesday of next week.
* An hour without am/pm after "at" ("at 3") is read as business hours: 1–7 are afternoon.
  "14.30" is not a time (it may be money); "14:30", "14h30", "14h", "2:30pm" are.
* Wall times are built in the zone on that day (``datetime.combine`` with the ZoneInfo), so
  10:00 the day after spring-forward is 10:00 summer time; a wall time that does not exist
  (inside the skipped hour) is moved forward through UTC.
* Emails, phone numbers and money are read and blanked out first, so their digits are never
  read as dates or times. A bare number is money only next to a money verb ("do 75", "pay 75").
* ``is_routine`` is the conservative routine-turn classifier (paper §5.1): True only when the
  whole message is one routine shape — a bare name, email, phone, yes/no/confirm or time —
  and False on any question mark, question word or unread word. False means "fetch knowledge".
  A bare name is routine only when the client said it was their name ("my name is …") or its
  first word is a known given name (``given_names``): "Balayage" and "gel nails" are
  name-shaped too. Its proof is a labelled corpus (tests/agent/corpus/client_messages.jsonl).
"""

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from enum import StrEnum
from zoneinfo import ZoneInfo

import dateparser
import phonenumbers
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from agent.offline.given_names import GIVEN_NAMES

MORNING = (time(9), time(12))
AFTERNOON = (time(12), time(17))
EVENING = (time(17), time(20))
DAYPARTS = {"morning": MORNING, "afternoon": AFTERNOON, "evening": EVENING, "tonight": EVENING}


class Intent(StrEnum):
    YES = "yes"
    NO = "no"
    CONFIRM = "confirm"
    CANCEL = "cancel"


@dataclass(frozen=True)
class TimeRequest:
    """A time the client asked for: an exact start (``exact``, start == end) or a window."""

    start: datetime
    end: datetime
    exact: bool


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str | None  # ISO 4217 when the client named one


@dataclass(frozen=True)
class MessageReading:
    times: tuple[TimeRequest, ...]
    emails: tuple[str, ...]
    phones: tuple[str, ...]  # E.164
    amounts: tuple[Money, ...]
    intent: Intent | None
    service_ids: tuple[int, ...]
    name: str | None
    is_routine: bool
    # What the client asks to be done to a booking or with money, in their own words: any of
    # "cancel", "move", "refund". The shell runs none of these unless the client asked.
    requests: frozenset[str] = frozenset()
    # Amounts named about money that moved or is asked back ("refund 5 euros", "I paid €12"):
    # never a price offer; the amount of a refund the client asks for.
    money_back: tuple[Money, ...] = ()
    # Contact details the client tried to give that cannot be used, as written: the client is
    # told what is wrong with them, and they are never stored.
    bad_emails: tuple[str, ...] = ()
    bad_phones: tuple[str, ...] = ()
    is_question: bool = False


# --- the vocabulary ---------------------------------------------------------------------------

WEEKDAYS = {
    "monday": 0, "mon": 0,
    "tuesday": 1, "tues": 1, "tue": 1, "tuesady": 1,
    "wednesday": 2, "wed": 2, "wednsday": 2, "wensday": 2, "weds": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "thrusday": 3,
    "friday": 4, "fri": 4, "firday": 4,
    "saturday": 5, "sat": 5, "saterday": 5,
    "sunday": 6, "sun": 6,
}  # fmt: skip
TOMORROW = r"(?:tomorrow|tomorow|tommorow|tommorrow|tmrw|tmr|tmw)"
MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
ORDINAL = r"(?:st|nd|rd|th)"
CURRENCIES = {
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP",
}  # fmt: skip

YES_PHRASES = {
    "yes", "yes please", "yeah", "yep", "yup", "y", "sure", "ok", "okay", "k", "fine",
    "sounds good", "perfect", "great", "go ahead", "please do", "correct", "that works",
    "works for me", "absolutely", "of course", "yes thanks", "ok thanks", "sure thing", "alright",
}  # fmt: skip
CONFIRM_PHRASES = {"confirm", "confirmed", "i confirm", "book it", "confirm it", "confirm please"}
NO_PHRASES = {"no", "nope", "nah", "no thanks", "no thank you", "not really", "n", "no sorry"}
CANCEL_PHRASES = {"cancel", "cancel it", "cancel please", "please cancel"}
CANCEL_SENTENCE = re.compile(r"\b(?:i (?:want|need|would like|'d like) to|please) cancel\b")

# A question, wherever these stand: they ask for something the business knows.
QUESTION_WORDS = {
    "what", "when", "where", "why", "how", "who", "which", "whats", "hows", "any", "anything",
    "wonder", "wondering", "tell", "know", "much", "possible", "available", "availability",
    "free", "open", "price", "prices", "cost", "costs", "if", "or", "whether", "info",
}  # fmt: skip
# A question when they open the message or a clause ("is it free", "ok, do you take cards").
QUESTION_OPENERS = {
    "can", "could", "do", "does", "did", "is", "are", "was", "will", "would", "should", "may",
    "might", "have", "has", "shall", "am", "isnt", "arent", "dont", "doesnt", "cant", "u",
}  # fmt: skip
# Filler around a routine answer; anything else left unread makes the turn non-routine.
FILLER = {
    "at", "on", "the", "please", "pls", "thanks", "thank", "you", "for", "around", "about",
    "after", "before", "by", "until", "till",
}  # fmt: skip
CONTACT_LEADS = re.compile(
    r"^(?:my|the)?\s*(?:e-?\s?mail|e-?\s?mail address|phone|phone number|number|mobile|cell)"
    r"(?:\s+is)?\s*:?\s*",
)
NAME_LEADS = re.compile(r"^(?:my name is|name is|name:|(i am|i'm|im|it's|its|this is))\s+")
# Lower-case words inside a name ("Maria da Silva", "Anne de Vries").
NAME_PARTICLES = {"da", "de", "do", "das", "dos", "e", "di", "del", "la", "le", "du", "van", "von"}
# Words that are never part of a bare name (so "pricing" or "hello there" is not a name).
NOT_NAMES = {
    "hi", "hello", "hey", "thanks", "thank", "you", "please", "good", "morning", "afternoon",
    "evening", "night", "today", "tonight", "week", "weekend", "next", "this", "price",
    "prices", "pricing", "cost", "costs", "hours", "address", "parking", "location", "menu",
    "services", "service", "info", "information", "help", "refund", "payment", "pay", "book",
    "booking", "appointment", "cancel", "reschedule", "available", "availability", "free",
    "open", "closed", "and", "or", "the", "a", "an", "i", "me", "my", "we", "it", "is", "are",
    "be", "to", "of", "in", "for", "with", "not", "want", "need", "like", "would", "can",
    "could", "do", "does", "have", "later", "soon", "now", "asap", "sorry", "again", "ok",
    "wait", "maybe", "perhaps", "too", "also", "just", "anytime", "any", "time", "day", "slot",
    "slots", "lol", "haha", "hmm", "great", "perfect", "fine", "done", "other", "another",
    "else", "different", "same", "still", "there", "here", "sure", "works", "what", "how",
    "when", "where", "why", "who", "which", "discount", "deposit", "voucher", "gift", "card",
    "cash", "policy", "policies", "wifi", "kids", "children", "dog", "dogs", "accessible",
    "late", "early", "ready", "back", "coming", "busy", "sick", "outside", "inside", "nothing",
    "never", "always", "urgent", "emergency", "bye", "goodbye", "cheers", "welcome", "hurry",
}  # fmt: skip


# --- the reading ------------------------------------------------------------------------------


def read_message(
    text: str,
    *,
    now: datetime,
    time_zone: ZoneInfo,
    country: str,
    services: Sequence[tuple[int, str]],
    booked_on: date | None = None,
) -> MessageReading:
    """Read ``text`` as a client's message to a business in ``time_zone`` / ``country``.
    ``booked_on``: the local day of the booking the conversation acts on, if it has one — a
    move to a time with no day named ("can we move it to 12 instead?") is to that day's time."""
    local_now = now.astimezone(time_zone)
    lowered = " ".join(text.lower().split())
    blank = _Blanker(lowered)
    requests = _read_requests(lowered)
    moving_on = booked_on if "move" in requests else None

    emails, bad_emails = _read_emails(blank)
    phones = _read_phones(blank, country=country)
    bad_phones = _read_bad_phones(blank)
    amounts, money_back = _read_amounts(blank)
    before_times = blank.text
    times = _read_times(blank, local_now=local_now, time_zone=time_zone, moving_on=moving_on)
    times_read = blank.text != before_times
    intent = _read_intent(lowered)
    service_ids = _read_services(lowered, services)
    name = _read_name(text) if not (emails or phones or amounts or times or service_ids) else None
    if name is not None and intent is not None:
        name = None

    residue = _words(blank.text)
    is_question = _looks_like_question(text, lowered)
    shapes = [
        bool(emails) and _only_lead(residue, CONTACT_LEADS),
        bool(phones) and _only_lead(residue, CONTACT_LEADS),
        name is not None and _is_recognised_name(text, name),
        intent in (Intent.YES, Intent.NO, Intent.CONFIRM) and _is_bare_intent(lowered),
        bool(times) and times_read and all(word in FILLER for word in residue),
    ]
    is_routine = (
        not is_question
        and not amounts
        and not service_ids
        and sum(shapes) == 1
        and (intent is None or shapes[3])
    )
    return MessageReading(
        times=tuple(times),
        emails=tuple(emails),
        phones=tuple(phones),
        amounts=tuple(amounts),
        intent=intent,
        service_ids=tuple(service_ids),
        name=name,
        is_routine=is_routine,
        requests=requests,
        money_back=tuple(money_back),
        bad_emails=tuple(bad_emails),
        bad_phones=tuple(bad_phones),
        is_question=is_question,
    )


def _is_recognised_name(text: str, name: str) -> bool:
    """Whether a message read as a bare ``name`` is surely one: introduced as a name ("my name
    is ..."), or starting with a known given name and written in one case throughout ("Ana
    Silva", "ana silva"). "Highlights", "wher r u" and "Sofia balayage" are not."""
    cleaned = " ".join(text.strip().rstrip(".!").split())
    lead = NAME_LEADS.match(cleaned.lower())
    if lead is not None and lead.group(1) is None:  # "my name is", "name is", "name:"
        return True
    first = _plain(re.split(r"[\s-]", name, maxsplit=1)[0])
    if first not in GIVEN_NAMES:
        return False
    written = cleaned[lead.end() :] if lead else cleaned
    words = [word for word in written.split() if _plain(word) not in NAME_PARTICLES]
    return all(word[0].isupper() for word in words) or all(word.islower() for word in words)


def _looks_like_question(text: str, lowered: str) -> bool:
    if "?" in text or QUESTION_WORDS & set(_words(lowered)):
        return True
    clauses = re.split(r"[.,;:!\n]|\b(?:and|but|so|also|then)\b", lowered)
    openers = (re.findall(r"[a-z0-9]+", clause.replace("'", ""))[:1] for clause in clauses)
    return any(first and first[0] in QUESTION_OPENERS for first in openers)


class _Blanker:
    """The lowered message with what has been read replaced by spaces (positions kept)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def take(self, start: int, end: int) -> None:
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z\u00c0-\u024f']+", text)


def _only_lead(residue: list[str], lead: re.Pattern[str]) -> bool:
    left = " ".join(word for word in residue if word not in FILLER)
    return left == "" or lead.fullmatch(left) is not None


# --- contacts and money -----------------------------------------------------------------------

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# Anything with an @ the client may have meant as an email address ("name@example", "@gmail").
EMAIL_ATTEMPT = re.compile(r"[^\s,;:<>()\[\]\"']*@[^\s,;:<>()\[\]\"']*")


def _read_emails(blank: _Blanker) -> tuple[list[str], list[str]]:
    """The email addresses in the message, and what looked meant as one but is not valid."""
    found: list[str] = []
    for match in EMAIL.finditer(blank.text):
        candidate = match.group().rstrip(".")
        try:
            validate_email(candidate)
        except ValidationError:
            continue
        found.append(candidate)
        blank.take(match.start(), match.end())
    bad: list[str] = []
    for match in EMAIL_ATTEMPT.finditer(blank.text):
        attempt = match.group().rstrip(".!?")
        if len(attempt) > 1:
            bad.append(attempt)
            blank.take(match.start(), match.end())
    return found, bad


def _read_phones(blank: _Blanker, *, country: str) -> list[str]:
    found = []
    matcher = phonenumbers.PhoneNumberMatcher(
        blank.text, country.upper(), leniency=phonenumbers.Leniency.VALID
    )
    for match in matcher:
        e164 = phonenumbers.format_number(match.number, phonenumbers.PhoneNumberFormat.E164)
        if e164 not in found:
            found.append(e164)
        blank.take(match.start, match.end)
    return found


# Digits the client gave as a phone number ("my number is 12") that did not read as one.
PHONE_ATTEMPT = re.compile(
    r"\b(?:phone|mobile|cell|tel|telephone|number|whatsapp)(?:\s+(?:number|no\.?))?"
    r"(?:\s+is)?\s*:?\s*(\+?\d[\d\s().-]*\d|\d)"
)


def _read_bad_phones(blank: _Blanker) -> list[str]:
    bad = []
    for match in PHONE_ATTEMPT.finditer(blank.text):
        bad.append(match.group(1))
        blank.take(match.start(1), match.end(1))
    return bad


# An amount as written: grouped in thousands ("1,200", "1.200", "1,000,000.50", "1.200,50"),
# or plain with up to two decimals ("45", "45.50", "45,5"); never the start or the end of a
# longer number ("30.999", "1e309" are not read at all).
NUMBER = (
    r"(?<![\d.,])("
    r"\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?|\d+(?:[.,]\d{1,2})?"
    r")(?![.,]?\d|e\d)"
)
SYMBOL_FIRST = re.compile(r"([€$£])\s?" + NUMBER)
SYMBOL_AFTER = re.compile(
    NUMBER + r"\s?(€|\$|£|eur|euros?|usd|dollars?|bucks|gbp|pounds?)(?![a-z])"
)
BARE_AMOUNT = re.compile(
    r"\b(?:pay|do|offer|give|budget|price|accept|take|spend|max|maximum|only|cost|costs|"
    r"charge|how about|what about|is)\s+(?:you\s+)?(?:up to\s+)?"
    + NUMBER
    + r"(?!\s*(?::|h\b|am|pm|a\.m|p\.m|o'?clock|st\b|nd\b|rd\b|th\b|people|persons?|"
    r"hours?|mins?|minutes?|days?|weeks?|of\b|\d))"
)


# A bare number asked about as a price: "55 ok?", "40 fine?", "would 40 work?" — the whole
# message or clause, so "2 ok?" after "how many people" would still need the question mark
# and no time word ("10 ok?" about a time is "10:00 ok?" or "at 10 ok?", read as times).
ASKED_AMOUNT = re.compile(
    r"(?:^|(?<=[,.;!]\s)|\bwould\s+)(?<![:.,\d])" + NUMBER + r"\s+(?:ok|okay|fine|work|good)\s*\?"
)
# "do it for 40", "that for 45": "for" names a price only after what is being priced.
FOR_AMOUNT = re.compile(
    r"\b(?:it|that|this|one)\s+for\s+" + NUMBER + r"(?!\s*(?::|h\b|am|pm|a\.m|p\.m|o'?clock|"
    r"st\b|nd\b|rd\b|th\b|people|persons?|hours?|mins?|minutes?|days?|weeks?|of\b|\d))"
)


# Money that moved or is due: "I paid the €12 deposit", "my refund of €20" name no price.
MONEY_MOVED = re.compile(
    r"\b(?:deposits?|paid|payments?|refund\w*|reimburs\w*|charged|money back)\b"
)


def _read_amounts(blank: _Blanker) -> tuple[list[Money], list[Money]]:
    """The amounts the client names as a price, and those in a sentence about a deposit, a
    payment or a refund ("refund 5 euros"): no offer, but what a refund asks for. Both are
    blanked (never read as times)."""
    found: list[tuple[int, Money]] = []
    for pattern, symbol_first in ((SYMBOL_FIRST, True), (SYMBOL_AFTER, False)):
        for match in pattern.finditer(blank.text):
            number, unit = (match.group(2), match.group(1)) if symbol_first else match.groups()
            found.append((match.start(), Money(_decimal(number), CURRENCIES[unit])))
            blank.take(match.start(), match.end())
    for pattern in (BARE_AMOUNT, ASKED_AMOUNT, FOR_AMOUNT):
        for match in pattern.finditer(blank.text):
            found.append((match.start(1), Money(_decimal(match.group(1)), None)))
            blank.take(match.start(1), match.end(1))
    moved = [
        (sentence.start(), sentence.end())
        for sentence in re.finditer(r"[^.!?;]+", blank.text)
        if MONEY_MOVED.search(sentence[0])
    ]
    in_order = sorted(found, key=lambda pair: pair[0])
    asked_back = [money for at, money in in_order if any(a <= at < b for a, b in moved)]
    return [money for at, money in in_order if not any(a <= at < b for a, b in moved)], asked_back


def _decimal(number: str) -> Decimal:
    """The amount ``number`` (as NUMBER reads it) stands for: "1,200" 1200, "1.200,50" 1200.50,
    "45,5" 45.5."""
    grouped = re.fullmatch(r"\d{1,3}(?:([.,])\d{3})+(?:[.,]\d{1,2})?", number)
    if grouped:
        number = number.replace(grouped[1], "")
    return Decimal(number.replace(",", "."))


# --- days and times ---------------------------------------------------------------------------

CLOCK = re.compile(
    r"\b(\d{1,2})(?::(\d{2})|h(\d{2})?|\.(\d{2})(?=\s*[ap]\.?m))\s*(am|pm|a\.m\.|p\.m\.)?(?!\d)"
    r"|(?<![\d.,])\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])"
    r"|\bat\s+(\d{1,2})(?:\s*o'?clock)?(?![\d:/.]|\s*(?:" + ORDINAL + r"|" + MONTHS + r"))\b"
    r"|\b(\d{1,2})\s*o'?clock\b"
    r"|\b(noon|midday|midnight)\b"
)
DAYPART = re.compile(r"\b(this\s+)?(morning|afternoon|evening|tonight)s?\b")
TODAY = re.compile(r"\btoday\b")
AFTER_TOMORROW = re.compile(r"\b(?:the\s+)?day\s+after\s+" + TOMORROW + r"\b")
TOMORROW_WORD = re.compile(r"\b" + TOMORROW + r"\b")
IN_DAYS = re.compile(r"\bin\s+(\d{1,2})\s+days?\b")
NEXT_WEEK = re.compile(r"\b(?:any\s*time\s+|sometime\s+)?next\s+week\b")
WEEKEND = re.compile(r"\b(?:this\s+|next\s+)?weekend\b")
WEEKDAY = re.compile(
    r"\b(next\s+|this\s+|on\s+)?(" + "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + r")s?\b"
)
MONTH_DATE = re.compile(
    r"\b\d{1,2}" + ORDINAL + r"?\s+(?:of\s+)?" + MONTHS + r"\b|\b" + MONTHS + r"\s+\d{1,2}"
    r"(?:" + ORDINAL + r")?\b"
)
DAY_OF_MONTH = re.compile(r"\b(?:the\s+)(\d{1,2})" + ORDINAL + r"?\b|\b(\d{1,2})" + ORDINAL + r"\b")
NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")


def _read_times(
    blank: _Blanker, *, local_now: datetime, time_zone: ZoneInfo, moving_on: date | None = None
) -> list[TimeRequest]:
    """The times asked for. ``moving_on``: the day of a booking being moved — a bare hour
    ("to 12", "to 11:30") is read as a time, on that day when no day is named."""
    today = local_now.date()
    days: list[date] = []
    week: tuple[date, date] | None = None

    def take_all(pattern: re.Pattern[str]) -> list[re.Match[str]]:
        matches = list(pattern.finditer(blank.text))
        for match in matches:
            blank.take(match.start(), match.end())
        return matches

    for match in take_all(MONTH_DATE):
        parsed = dateparser.parse(
            match.group(),
            languages=["en"],
            settings={
                "RELATIVE_BASE": local_now.replace(tzinfo=None),
                "PREFER_DATES_FROM": "future",
                "TIMEZONE": str(time_zone),
                "RETURN_AS_TIMEZONE_AWARE": True,
            },
        )
        if parsed is not None:
            days.append(parsed.date())
    for match in take_all(NUMERIC_DATE):
        days.extend(_numeric_date(match, today))
    if take_all(AFTER_TOMORROW):
        days.append(today + timedelta(days=2))
    if take_all(TOMORROW_WORD):
        days.append(today + timedelta(days=1))
    if take_all(TODAY):
        days.append(today)
    for match in take_all(IN_DAYS):
        days.append(today + timedelta(days=int(match.group(1))))
    next_week = bool(take_all(NEXT_WEEK))
    if next_week:
        monday = today + timedelta(days=7 - today.weekday())
        week = (monday, monday + timedelta(days=7))
    for match in take_all(WEEKEND):
        saturday = today + timedelta(days=(5 - today.weekday()) % 7 or 7)
        if today.weekday() == 6 and not match.group().startswith("next"):
            saturday = today - timedelta(days=1)
        week = (max(saturday, today), saturday + timedelta(days=2))
    for match in take_all(WEEKDAY):
        weekday = WEEKDAYS[match.group(2)]
        ahead = (weekday - today.weekday()) % 7
        if next_week and week is not None:
            days.append(week[0] + timedelta(days=weekday))
            week = None
            continue
        if ahead == 0 and (match.group(1) or "").strip() != "this":
            ahead = 7
        days.append(today + timedelta(days=ahead))
    for match in take_all(DAY_OF_MONTH):
        days.extend(_day_of_month(int(match.group(1) or match.group(2)), today))

    clocks = [clock for match in take_all(CLOCK) if (clock := _clock(match)) is not None]
    if moving_on is not None and not clocks:
        clocks = [clock for match in take_all(MOVED_TO) if (clock := _hour(match)) is not None]
    parts = take_all(DAYPART)
    window = DAYPARTS[parts[0].group(2)] if parts else None
    if parts and parts[0].group(2) == "tonight" and not days:
        days.append(today)

    requests: list[TimeRequest] = []
    if week is not None and not days:
        start = _at(week[0], time(0), time_zone)
        requests.append(TimeRequest(max(start, local_now), _at(week[1], time(0), time_zone), False))
    if not days and (clocks or window) and moving_on is not None:
        days = [moving_on]
    if not days and (clocks or window):
        days = [_next_day_with(clocks, window, local_now, time_zone)]
    for day in dict.fromkeys(days):
        if clocks:
            for clock in clocks:
                moment = _at(day, clock, time_zone)
                requests.append(TimeRequest(moment, moment, True))
            continue
        start_time, end_time = window or (time(0), time(0))
        start = _at(day, start_time, time_zone)
        end = _at(day + timedelta(days=1) if window is None else day, end_time, time_zone)
        if end > local_now:
            requests.append(TimeRequest(max(start, local_now), end, False))
    return requests


# "to 12", "to 4": a bare hour after "to", read only when a booking is being moved (elsewhere
# "to 2" could be people or a count).
MOVED_TO = re.compile(r"\bto\s+(\d{1,2})(?![\d:/.,]|\s*(?:people|persons|of|days?|weeks?))\b")


def _hour(match: re.Match[str]) -> time | None:
    """A bare hour in business hours: 8–11 the morning, 12 noon, 1–7 the afternoon."""
    hour = int(match.group(1))
    if 1 <= hour <= 7:
        hour += 12
    return time(hour) if 8 <= hour <= 19 else None


def _clock(match: re.Match[str]) -> time | None:
    """The wall time a clock match names, or None when it names no time ("31:00", "15pm")."""
    groups = match.groups()
    if groups[9]:
        return time(0) if groups[9] == "midnight" else time(12)
    if groups[0]:
        hour, suffix = int(groups[0]), groups[4]
        minute = int(groups[1] or groups[2] or groups[3] or 0)
    elif groups[5]:
        hour, minute, suffix = int(groups[5]), 0, groups[6]
    else:
        hour, minute, suffix = int(groups[7] or groups[8]), 0, None
        if 1 <= hour <= 7:
            suffix = "pm"  # "at 3" in business hours is the afternoon
    if hour > 23 or minute > 59 or (suffix and not 1 <= hour <= 12):
        return None
    if suffix and suffix.startswith("p") and hour < 12:
        hour += 12
    if suffix and suffix.startswith("a") and hour == 12:
        hour = 0
    return time(hour, minute)


def _at(day: date, clock: time, time_zone: ZoneInfo) -> datetime:
    """The wall time ``clock`` on ``day`` in the zone; a skipped wall time moves forward."""
    local = datetime.combine(day, clock, tzinfo=time_zone)
    return local.astimezone(UTC).astimezone(time_zone)


def _next_day_with(
    clocks: list[time], window: tuple[time, time] | None, local_now: datetime, zone: ZoneInfo
) -> date:
    today = local_now.date()
    last = max(clocks) if clocks else window[1] if window else time(23, 59)
    return today if _at(today, last, zone) > local_now else today + timedelta(days=1)


def _day_of_month(number: int, today: date) -> list[date]:
    year, month = today.year, today.month
    for _ in range(3):
        try:
            candidate = date(year, month, number)
        except ValueError:
            candidate = None
        if candidate is not None and candidate >= today:
            return [candidate]
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return []


def _numeric_date(match: re.Match[str], today: date) -> list[date]:
    day, month = int(match.group(1)), int(match.group(2))
    year = int(match.group(3)) if match.group(3) else today.year
    year = year + 2000 if year < 100 else year
    try:
        candidate = date(year, month, day)
    except ValueError:
        return []
    if candidate < today and not match.group(3):
        candidate = candidate.replace(year=year + 1)
    return [candidate]


# --- intent, services, names ------------------------------------------------------------------


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    stripped = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(re.sub(r"[^a-z0-9@.+' ]", " ", stripped).split())


def _phrase(text: str) -> str:
    return " ".join(re.sub(r"[^a-z' ]", " ", _plain(text)).split())


def _read_intent(lowered: str) -> Intent | None:
    phrase = _phrase(lowered)
    for phrases, intent in (
        (CONFIRM_PHRASES, Intent.CONFIRM),
        (CANCEL_PHRASES, Intent.CANCEL),
        (NO_PHRASES, Intent.NO),
        (YES_PHRASES, Intent.YES),
    ):
        if any(phrase == lead or phrase.startswith(lead + " ") for lead in phrases):
            return intent
    if CANCEL_SENTENCE.search(phrase):
        return Intent.CANCEL
    return None


# What the client asks to be done, however it is put; a request said not to be made ("don't
# cancel it") is not one.
REQUESTS = {
    "cancel": re.compile(r"\b(?:cancel\w*|call(?:ing)? (?:it|this|that|the \w+ )?off)\b"),
    "move": re.compile(
        r"\b(?:move|moving|reschedul\w*|re-schedul\w*|postpon\w*|push (?:it|that) back|"
        r"bring (?:it|that) forward|change (?:the |my |it to another )?(?:time|day|date|slot|"
        r"appointment|booking)|another (?:time|day|date|slot)|(?:earlier|later) (?:time|slot))\b"
    ),
    "refund": re.compile(
        r"\b(?:refund\w*|reimburs\w*|(?:money|deposit|payment) back|"
        r"get (?:it|my (?:money|deposit|payment)) back|pay (?:me|it) back)\b"
    ),
}
NEGATED = re.compile(r"\b(?:don'?t|do not|not|never|no need to|won'?t)\s+(?:\w+\s+){0,2}$")


def _read_requests(lowered: str) -> frozenset[str]:
    asked = set()
    for request, pattern in REQUESTS.items():
        for match in pattern.finditer(lowered):
            if not NEGATED.search(lowered[: match.start()]):
                asked.add(request)
                break
    return frozenset(asked)


def _is_bare_intent(lowered: str) -> bool:
    phrase = _phrase(lowered)
    return phrase in YES_PHRASES | NO_PHRASES | CONFIRM_PHRASES


def _stem(word: str) -> str:
    for ending in ("es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3 and not word.endswith("ss"):
            return word[: -len(ending)]
    return word


def _tokens(text: str) -> list[str]:
    return [_stem(word) for word in re.findall(r"[a-z0-9]+", _plain(text).replace("'s", ""))]


def _read_services(lowered: str, services: Sequence[tuple[int, str]]) -> list[int]:
    words = _tokens(lowered)
    joined = " " + " ".join(words) + " "
    full = [sid for sid, name in services if " " + " ".join(_tokens(name)) + " " in joined]
    if full:
        return full
    ignored = {"and", "with", "the", "for", "men", "women", "kid", "full", "short", "long"}
    message_words = set(words)
    return [
        sid
        for sid, name in services
        if any(len(tok) >= 4 and tok not in ignored for tok in message_words & set(_tokens(name)))
    ]


def _read_name(text: str) -> str | None:
    cleaned = " ".join(text.strip().rstrip(".!").split())
    lead = NAME_LEADS.match(cleaned.lower())
    if lead:
        cleaned = cleaned[lead.end() :]
    parts = cleaned.split()
    if not 1 <= len(parts) <= 4:
        return None
    name_part = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")
    if not all(name_part.fullmatch(part) for part in parts):
        return None
    if any(_plain(part) in NOT_NAMES or _plain(part) in WEEKDAYS for part in parts):
        return None
    casual_lead = lead is not None and lead.group(1) is not None  # "i'm ...", "it's ..."
    single_bare_word = lead is None and len(parts) == 1
    if (casual_lead or single_bare_word) and not all(part[0].isupper() for part in parts):
        return None  # "parking", "i'm late": a lower-case word is more often not a name
    return " ".join(part[0].upper() + part[1:] for part in parts)
