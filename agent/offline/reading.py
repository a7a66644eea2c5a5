"""What a client's message contains, read deterministically: times, contacts, money, intent.

``read_message`` is a pure function over the message and the business's context (``now``, its
IANA zone, its country, its services, the conversation's language and the business's dayparts).
It decides nothing about availability, prices or confirmation — it only reports what the client
wrote, for the shell to check against the core.

Choices a reader should know:

* Every word and language-specific pattern is looked up in the reading table of the
  conversation's language (``agent.offline.languages``: English and Spanish); this module holds
  only the logic, the same in every language. Only a supported language is read (ValueError
  otherwise). Spanish is read with its accents folded ("mañana" as "manana"), so a client who
  writes without accents is read alike; names keep theirs.
* Dayparts are windows in the business's zone: from its opening hours on that weekday when the
  caller passes them (``dayparts``, built by ``agent.offline.dayparts``), else the fixed
  windows morning 09:00–12:00, midday 12:00–15:00, afternoon 12:00–17:00, evening 17:00–20:00
  ("tonight", "esta noche" is today's evening). A day with no time is the whole day (00:00 to
  the next 00:00); "next week" is next Monday 00:00 to the Monday after.
* A bare weekday ("Friday", "next Friday", "el viernes") is the coming one, today excluded;
  "this Friday" ("este viernes") said on a Friday is today. "Tuesday next week" is the Tuesday
  of next week. A weekday just before a date is the date's ("el domingo 29 de marzo": that
  date, even when the weekday is wrong). Spanish "mañana" alone is tomorrow; "por la mañana" is
  the morning. A bare day of the month is the next such day ("the 3rd", "el 27", "al 3").
* A clock after a boundary word is a window on its day, not a time: "before 12", "antes de las
  12", "hasta las 11" from the day's start to it; "after 10am", "después de las 10", "a partir
  de las 11" from it to the day's end (the core offers what is open in it). "Hasta las 11 no
  puedo" turns round (after 11); "desde las 10 hasta las 12", "from 9am until 11am" is the
  window between them. A clock said not to suit ("pero no a las 10", "not at 10") is
  not asked for. English "after 10" without am/pm is no clock, as "10" alone is not.
* An hour without am/pm after "at" ("at 3", "a las 3") is read as business hours: 1–7 are
  afternoon; "a las 5 de la tarde", "a las 2:30 por la tarde" say which half themselves.
  "14.30" is not a time (it may be money), but "a las 12.30" is; "14:30", "14h30", "14h",
  "2:30pm" are.
* Wall times are built in the zone on that day (``datetime.combine`` with the ZoneInfo), so
  10:00 the day after spring-forward is 10:00 summer time; a wall time that does not exist
  (inside the skipped hour) is moved forward through UTC.
* Emails, phone numbers and money are read and blanked out first, so their digits are never
  read as dates or times. A bare number is money only next to a money verb ("do 75", "pay 75",
  "te doy 30").
* Services are matched by name and by the table's synonyms ("fisio" is "fisioterapia"),
  accents ignored both ways.
* ``is_routine`` is the conservative routine-turn classifier (paper §5.1): True only when the
  whole message is one routine shape — a bare name, email, phone, yes/no/confirm or time —
  and False on any question mark, question word or unread word. False means "fetch knowledge".
  A bare name is routine only when the client said it was their name ("my name is …") or its
  first word is a known given name (``given_names``): "Balayage" and "gel nails" are
  name-shaped too. Its proof is a labelled corpus per language (tests/agent/corpus/).
"""

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from enum import StrEnum
from zoneinfo import ZoneInfo

import dateparser
import phonenumbers
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from agent.offline.dayparts import FIXED_DAYPARTS, DaypartWindows
from agent.offline.given_names import GIVEN_NAMES
from agent.offline.languages import fold_accents, table_for
from agent.offline.languages.table import NUMBER, ReadingTable


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


# --- the reading ------------------------------------------------------------------------------


def read_message(
    text: str,
    *,
    now: datetime,
    time_zone: ZoneInfo,
    country: str,
    services: Sequence[tuple[int, str]],
    booked_on: date | None = None,
    language: str = "en",
    dayparts: Mapping[int, DaypartWindows] | None = None,
) -> MessageReading:
    """Read ``text`` as a client's message to a business in ``time_zone`` / ``country``.
    ``booked_on``: the local day of the booking the conversation acts on, if it has one — a
    move to a time with no day named ("can we move it to 12 instead?") is to that day's time.
    ``language``: the conversation's, one with a reading table (ValueError otherwise).
    ``dayparts``: the daypart windows of each weekday (0 is Monday) from the business's opening
    hours; a weekday missing, or none given, reads the fixed windows."""
    table = table_for(language)
    local_now = now.astimezone(time_zone)
    said = " ".join(text.lower().split())
    lowered = fold_accents(said) if table.fold_accents else said
    blank = _Blanker(lowered)
    requests = _read_requests(lowered, table)
    moving_on = booked_on if "move" in requests else None

    emails, bad_emails = _read_emails(blank)
    phones = _read_phones(blank, country=country)
    bad_phones = _read_bad_phones(blank, table)
    amounts, money_back = _read_amounts(blank, table)
    before_times = blank.text
    times = _read_times(
        blank,
        table,
        local_now=local_now,
        time_zone=time_zone,
        moving_on=moving_on,
        dayparts=dayparts or {},
    )
    times_read = blank.text != before_times
    intent = _read_intent(lowered, table)
    service_ids = _read_services(lowered, services, table)
    name = (
        _read_name(text, table)
        if not (emails or phones or amounts or times or service_ids)
        else None
    )
    if name is not None and intent is not None:
        name = None

    residue = _words(blank.text)
    is_question = _looks_like_question(text, said, lowered, table)
    shapes = [
        bool(emails) and _only_lead(residue, table),
        bool(phones) and _only_lead(residue, table),
        name is not None and _is_recognised_name(text, name, table),
        intent in (Intent.YES, Intent.NO, Intent.CONFIRM) and _is_bare_intent(lowered, table),
        bool(times) and times_read and all(word in table.filler for word in residue),
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


def _is_recognised_name(text: str, name: str, table: ReadingTable) -> bool:
    """Whether a message read as a bare ``name`` is surely one: introduced as a name ("my name
    is ..."), or starting with a known given name and written in one case throughout ("Ana
    Silva", "ana silva"). "Highlights", "wher r u" and "Sofia balayage" are not."""
    cleaned = " ".join(text.strip().rstrip(".!").split())
    lead = table.name_leads.match(cleaned.lower())
    if lead is not None and lead.group(1) is None:  # "my name is", "name is", "name:"
        return True
    first = _plain(re.split(r"[\s-]", name, maxsplit=1)[0])
    if first not in GIVEN_NAMES:
        return False
    written = cleaned[lead.end() :] if lead else cleaned
    words = [word for word in written.split() if _plain(word) not in table.name_particles]
    return all(word[0].isupper() for word in words) or all(word.islower() for word in words)


def _looks_like_question(text: str, said: str, lowered: str, table: ReadingTable) -> bool:
    """``said`` is the message lower-cased, ``lowered`` as the table reads it (accents folded
    in Spanish): a question word is looked for in both, so "qué" asks and "que" need not."""
    if any(mark in text for mark in table.question_marks):
        return True
    if table.question_words & (set(_words(said)) | set(_words(lowered))):
        return True
    if table.question_phrases.search(lowered):
        return True
    clauses = table.clauses.split(lowered)
    openers = (re.findall(r"[a-z0-9]+", clause.replace("'", ""))[:1] for clause in clauses)
    return any(first and first[0] in table.question_openers for first in openers)


class _Blanker:
    """The lowered message with what has been read replaced by spaces (positions kept)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def take(self, start: int, end: int) -> None:
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z\u00c0-\u024f']+", text)


def _only_lead(residue: list[str], table: ReadingTable) -> bool:
    left = " ".join(word for word in residue if word not in table.filler)
    return left == "" or table.contact_leads.fullmatch(left) is not None


def _named(match: re.Match[str], prefix: str) -> str | None:
    """The first group set whose name starts with ``prefix`` (see the table's docstring)."""
    for name, value in match.groupdict().items():
        if value is not None and name.startswith(prefix):
            return value
    return None


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


def _read_bad_phones(blank: _Blanker, table: ReadingTable) -> list[str]:
    bad = []
    for match in table.phone_attempt.finditer(blank.text):
        bad.append(match.group(1))
        blank.take(match.start(1), match.end(1))
    return bad


SYMBOL_FIRST = re.compile(r"([€$£])\s?" + NUMBER)


def _read_amounts(blank: _Blanker, table: ReadingTable) -> tuple[list[Money], list[Money]]:
    """The amounts the client names as a price, and those in a sentence about a deposit, a
    payment or a refund ("refund 5 euros"): no offer, but what a refund asks for. Both are
    blanked (never read as times)."""
    found: list[tuple[int, Money]] = []
    for pattern, symbol_first in ((SYMBOL_FIRST, True), (table.symbol_after, False)):
        for match in pattern.finditer(blank.text):
            number, unit = (match.group(2), match.group(1)) if symbol_first else match.groups()
            found.append((match.start(), Money(_decimal(number), table.currencies[unit])))
            blank.take(match.start(), match.end())
    for pattern in (table.bare_amount, table.asked_amount, table.for_amount):
        for match in pattern.finditer(blank.text):
            found.append((match.start(1), Money(_decimal(match.group(1)), None)))
            blank.take(match.start(1), match.end(1))
    moved = [
        (sentence.start(), sentence.end())
        for sentence in re.finditer(r"[^.!?;]+", blank.text)
        if table.money_moved.search(sentence[0])
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

NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")


def _read_times(
    blank: _Blanker,
    table: ReadingTable,
    *,
    local_now: datetime,
    time_zone: ZoneInfo,
    moving_on: date | None = None,
    dayparts: Mapping[int, DaypartWindows],
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

    dated = take_all(table.month_date)
    numeric = take_all(NUMERIC_DATE)
    date_starts = [match.start() for match in dated + numeric]
    for match in dated:
        parsed = dateparser.parse(
            match.group(),
            languages=[table.dateparser_language],
            settings={
                "RELATIVE_BASE": local_now.replace(tzinfo=None),
                "PREFER_DATES_FROM": "future",
                "TIMEZONE": str(time_zone),
                "RETURN_AS_TIMEZONE_AWARE": True,
            },
        )
        if parsed is not None:
            days.append(parsed.date())
    for match in numeric:
        days.extend(_numeric_date(match, today))
    if take_all(table.after_tomorrow):
        days.append(today + timedelta(days=2))
    if take_all(table.tomorrow):
        days.append(today + timedelta(days=1))
    if take_all(table.today):
        days.append(today)
    for match in take_all(table.in_days):
        days.append(today + timedelta(days=int(match.group("count"))))
    next_week = bool(take_all(table.next_week))
    if next_week:
        monday = today + timedelta(days=7 - today.weekday())
        week = (monday, monday + timedelta(days=7))
    for match in take_all(table.weekend):
        saturday = today + timedelta(days=(5 - today.weekday()) % 7 or 7)
        if today.weekday() == 6 and _named(match, "next") is None:
            saturday = today - timedelta(days=1)
        week = (max(saturday, today), saturday + timedelta(days=2))
    for match in take_all(table.weekday):
        # "el domingo 29 de marzo", "Sunday 29 March": the weekday is the date's own.
        if any(re.fullmatch(r"[\s,]*", blank.text[match.end() : at]) for at in date_starts):
            continue
        weekday = table.weekdays[match.group("day")]
        ahead = (weekday - today.weekday()) % 7
        if next_week and week is not None:
            days.append(week[0] + timedelta(days=weekday))
            week = None
            continue
        if ahead == 0 and (match.group("which") or "").strip() not in table.this_words:
            ahead = 7
        days.append(today + timedelta(days=ahead))
    for match in take_all(table.day_of_month):
        days.extend(_day_of_month(int(_named(match, "day") or 0), today))

    said = blank.text  # as it was before the clocks are taken
    clocks: list[tuple[time, str | None]] = []
    for match in take_all(table.clock):
        clock = _clock(match, table)
        # "pero no a las 10" asks for no time at 10: the clock is taken, and not read.
        if clock is not None and not table.negated_clock.search(said[: match.start()]):
            clocks.append((clock, _bound(match, said, table)))
    if moving_on is not None and not clocks:
        moved = take_all(table.moved_to)
        clocks = [(clock, None) for match in moved if (clock := _hour(match)) is not None]
    # "desde las 10 hasta las 12", "after 10am, before noon": one window between the two.
    between = None
    if [bound for _, bound in clocks] == ["after", "before"] and clocks[0][0] < clocks[1][0]:
        between = (clocks[0][0], clocks[1][0])
    parts = take_all(table.daypart)
    part_words = _named(parts[0], "part") if parts else None
    daypart = table.daypart_words[" ".join(part_words.split())] if part_words else None
    if daypart == "tonight" and not days:
        days.append(today)

    def window_on(day: date) -> tuple[time, time] | None:
        if daypart is None:
            return None
        windows = dayparts.get(day.weekday(), FIXED_DAYPARTS)
        return windows.get(daypart) or FIXED_DAYPARTS[daypart]

    requests: list[TimeRequest] = []
    if week is not None and not days:
        start = _at(week[0], time(0), time_zone)
        requests.append(TimeRequest(max(start, local_now), _at(week[1], time(0), time_zone), False))
    if not days and (clocks or daypart) and moving_on is not None:
        days = [moving_on]
    if not days and (clocks or daypart):
        # A day from a clock's hour on ("after 10") runs to its end, so today may still do.
        latest = [time(23, 59) if bound == "after" else clock for clock, bound in clocks]
        days = [_next_day_with(latest, window_on(today), local_now, time_zone)]
    for day in dict.fromkeys(days):
        if between is not None:
            start, end = (_at(day, clock, time_zone) for clock in between)
            if end > local_now:
                requests.append(TimeRequest(max(start, local_now), end, False))
            continue
        if clocks:
            for clock, bound in clocks:
                requests.extend(_clock_request(day, clock, bound, local_now, time_zone))
            continue
        window = window_on(day)
        start_time, end_time = window or (time(0), time(0))
        start = _at(day, start_time, time_zone)
        end = _at(day + timedelta(days=1) if window is None else day, end_time, time_zone)
        if end > local_now:
            requests.append(TimeRequest(max(start, local_now), end, False))
    return requests


def _bound(match: re.Match[str], said: str, table: ReadingTable) -> str | None:
    """Whether the clock ``match`` in ``said`` is a boundary: "before" ("antes de las 12",
    "until 11am") or "after" ("después de las 10", "from 10am"); None for a time asked for.
    A boundary said not to suit turns round: "hasta las 11 no puedo" is after 11."""
    hour_at = next(
        (
            match.start(name)
            for name, value in match.groupdict().items()
            if value is not None and name.startswith(("hour", "bare", "named"))
        ),
        match.start(),
    )
    before_hour = said[:hour_at]
    bound = (
        "before"
        if table.bound_before.search(before_hour)
        else "after"
        if table.bound_after.search(before_hour)
        else None
    )
    if bound is not None and table.negated_after.search(said[match.end() :]):
        return "after" if bound == "before" else "before"
    return bound


def _clock_request(
    day: date, clock: time, bound: str | None, local_now: datetime, zone: ZoneInfo
) -> list[TimeRequest]:
    """The time ``clock`` on ``day`` asks for: that exact start, or with a ``bound`` the window
    from the day's start to it ("before") or from it to the day's end ("after"); a window
    already over asks for nothing."""
    moment = _at(day, clock, zone)
    if bound is None:
        return [TimeRequest(moment, moment, True)]
    if bound == "before":
        start, end = _at(day, time(0), zone), moment
    else:
        start, end = moment, _at(day + timedelta(days=1), time(0), zone)
    return [TimeRequest(max(start, local_now), end, False)] if end > local_now else []


def _hour(match: re.Match[str]) -> time | None:
    """A bare hour in business hours: 8–11 the morning, 12 noon, 1–7 the afternoon."""
    hour = int(match.group(1))
    if 1 <= hour <= 7:
        hour += 12
    return time(hour) if 8 <= hour <= 19 else None


def _clock(match: re.Match[str], table: ReadingTable) -> time | None:
    """The wall time a clock match names, or None when it names no time ("31:00", "15pm")."""
    named = _named(match, "named")
    if named is not None:
        return table.named_times[named]
    bare = _named(match, "bare")
    written = _named(match, "hour") or bare or "0"
    hour = int(written) if written.isdigit() else table.number_words[written]
    minute = int(_named(match, "minute") or 0)
    ampm = _named(match, "ampm")
    suffix = ampm[0] + "m" if ampm else None
    half = _named(match, "half")
    if suffix is None and half is not None and hour <= 12:
        suffix = table.day_halves[" ".join(half.split())]  # "a las 17 de la tarde" is 17:00
    if suffix is None and bare is not None and 1 <= hour <= 7:
        suffix = "pm"  # "at 3" in business hours is the afternoon
    if hour > 23 or minute > 59 or (suffix and not 1 <= hour <= 12):
        return None
    if suffix == "pm" and hour < 12:
        hour += 12
    if suffix == "am" and hour == 12:
        hour = 0
    shift = _named(match, "shift")
    if shift is None:
        return time(hour, minute)
    # "las seis menos cuarto" is a quarter before 18:00.
    minutes = hour * 60 + minute + table.minute_words[" ".join(shift.split())]
    return time(minutes // 60, minutes % 60) if 0 <= minutes < 24 * 60 else None


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


# --- picks among the times offered -----------------------------------------------------------


def read_pick(text: str, language: str) -> int | None:
    """Which of the times offered ``text`` picks: an index into them ("the first" 0, "the last"
    -1, "option 2" 1), or None. An ordinal picks only on its own or before an option word ("la
    primera", "the second one", "la primera opción, por favor"): "la primera semana de
    diciembre" and "the first visit" name something else; "not the first" and "la primera no"
    refuse it ("la primera no, la segunda" picks the second). A question picks nothing ("¿la
    primera visita es gratis?"): the caller checks that on its reading."""
    table = table_for(language)
    said = " ".join(text.lower().split())
    lowered = fold_accents(said) if table.fold_accents else said
    for match in table.pick.finditer(lowered):
        if match[2]:
            return int(match[2]) - 1
        if table.pick_negated.search(lowered[: match.start()]):
            continue
        if table.pick_followers.match(lowered, match.end()):
            return table.ordinals[match[1]]
    return None


# --- intent, requests, services, names --------------------------------------------------------


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    stripped = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(re.sub(r"[^a-z0-9@.+' ]", " ", stripped).split())


def _phrase(text: str) -> str:
    return " ".join(re.sub(r"[^a-z' ]", " ", _plain(text)).split())


def _read_intent(lowered: str, table: ReadingTable) -> Intent | None:
    phrase = _phrase(lowered)
    for phrases, intent in (
        (table.confirm_phrases, Intent.CONFIRM),
        (table.cancel_phrases, Intent.CANCEL),
        (table.no_phrases, Intent.NO),
        (table.yes_phrases, Intent.YES),
    ):
        if any(phrase == lead or phrase.startswith(lead + " ") for lead in phrases):
            return intent
    if table.cancel_sentence.search(phrase):
        return Intent.CANCEL
    return None


def _read_requests(lowered: str, table: ReadingTable) -> frozenset[str]:
    """What the client asks to be done, however it is put; a request said not to be made
    ("don't cancel it", "no quiero cancelar") is not one."""
    asked = set()
    for request, pattern in table.requests.items():
        for match in pattern.finditer(lowered):
            if not table.negated.search(lowered[: match.start()]):
                asked.add(request)
                break
    return frozenset(asked)


def _is_bare_intent(lowered: str, table: ReadingTable) -> bool:
    phrase = _phrase(lowered)
    return phrase in table.yes_phrases | table.no_phrases | table.confirm_phrases


def _stem(word: str) -> str:
    for ending in ("es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3 and not word.endswith("ss"):
            return word[: -len(ending)]
    return word


def _tokens(text: str, synonyms: Mapping[str, str] | None = None) -> list[str]:
    words = re.findall(r"[a-z0-9]+", _plain(text).replace("'s", ""))
    if synonyms:
        words = [part for word in words for part in synonyms.get(word, word).split()]
    return [_stem(word) for word in words]


def _read_services(
    lowered: str, services: Sequence[tuple[int, str]], table: ReadingTable
) -> list[int]:
    words = _tokens(lowered, table.synonyms)
    joined = " " + " ".join(words) + " "
    full = [sid for sid, name in services if " " + " ".join(_tokens(name)) + " " in joined]
    if full:
        return full
    message_words = set(words)
    ignored = table.service_ignored | _ordinal_tokens(table.code)
    return [
        sid
        for sid, name in services
        if any(len(tok) >= 4 and tok not in ignored for tok in message_words & set(_tokens(name)))
    ]


@functools.cache
def _ordinal_tokens(language: str) -> frozenset[str]:
    """Words that pick an offered time ("la primera"): on their own they never name a service,
    even one called "Primera consulta" (its whole name still does)."""
    return frozenset(tok for word in table_for(language).ordinals for tok in _tokens(word))


def _read_name(text: str, table: ReadingTable) -> str | None:
    cleaned = " ".join(text.strip().rstrip(".!").split())
    lead = table.name_leads.match(cleaned.lower())
    if lead:
        cleaned = cleaned[lead.end() :]
    parts = cleaned.split()
    if not 1 <= len(parts) <= 4:
        return None
    name_part = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")
    if not all(name_part.fullmatch(part) for part in parts):
        return None
    if any(_plain(part) in table.not_names or _plain(part) in table.weekdays for part in parts):
        return None
    casual_lead = lead is not None and lead.group(1) is not None  # "i'm ...", "soy ..."
    single_bare_word = lead is None and len(parts) == 1
    if (casual_lead or single_bare_word) and not all(part[0].isupper() for part in parts):
        return None  # "parking", "i'm late": a lower-case word is more often not a name
    return " ".join(part[0].upper() + part[1:] for part in parts)
