"""A reading table: every word and pattern the offline reader knows in one language.

``read_message`` (agent.offline.reading) holds the logic — what is read first, how a day and a
clock make a time, when a turn is routine — and looks every word up in the table of the
conversation's language. A language is added by writing a table (see ``en.py`` and ``es.py``),
never by touching the reader.

Patterns are compiled once, when the table's module is imported, and match the message as the
reader prepares it: lower-cased, whitespace collapsed and, when ``fold_accents`` is set,
accents folded one character for one ("mañana" is matched as "manana"; positions are kept).

Named groups carry meaning; the reader reads a group by the start of its name, so one pattern
may hold several alternatives (``hour`` and ``hour_2``):

* ``clock``: ``hour`` an hour as written (digits or a word in ``number_words``), read on the
  24-hour clock unless ``ampm`` or ``half`` says which half of the day; ``bare`` an hour read in
  business hours (1–7 are the afternoon); ``minute`` minutes in digits; ``shift`` words moving
  the minutes (``minute_words``: "y media" +30, "menos cuarto" −15); ``ampm`` "am"/"pm" as
  written; ``half`` words naming the half of the day (``day_halves``: "de la tarde" is "pm");
  ``named`` a word for a time (``named_times``: "noon").
* ``weekday``: ``day`` the weekday word (``weekdays``), ``which`` the word before it
  ("next", "this": ``this_words`` keep today).
* ``weekend``: ``next`` when the weekend after this one is meant.
* ``daypart``: ``part`` the daypart words, looked up in ``daypart_words``.
* ``day_of_month``: ``day``; ``in_days``: ``count``; ``moved_to``: group 1, the hour.

A clock is read as a boundary ("before 12", "a partir de las 11": a window on its day) when
``bound_before`` or ``bound_after`` matches the text up to its hour.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time

Pattern = re.Pattern[str]

# An amount as written, in every language: grouped in thousands ("1,200", "1.200",
# "1,000,000.50", "1.200,50"), or plain with up to two decimals ("45", "45.50", "45,5"); never
# the start or the end of a longer number ("30.999", "1e309" are not read at all).
NUMBER = (
    r"(?<![\d.,])("
    r"\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?|\d+(?:[.,]\d{1,2})?"
    r")(?![.,]?\d|e\d)"
)


@dataclass(frozen=True)
class ReadingTable:
    code: str  # the language code, as in settings.LANGUAGES
    fold_accents: bool
    dateparser_language: str  # for dates with a month name ("4 de diciembre")

    # --- days
    weekdays: Mapping[str, int]  # the word (as prepared) -> 0 Monday … 6 Sunday
    weekday: Pattern
    this_words: frozenset[str]  # a weekday after one of these may be today
    month_date: Pattern
    day_of_month: Pattern
    today: Pattern
    tomorrow: Pattern
    after_tomorrow: Pattern
    in_days: Pattern
    next_week: Pattern
    weekend: Pattern

    # --- times
    clock: Pattern
    number_words: Mapping[str, int]
    minute_words: Mapping[str, int]
    day_halves: Mapping[str, str]  # the words -> "am" or "pm"
    named_times: Mapping[str, time]
    daypart: Pattern
    # The daypart words -> "morning", "midday", "afternoon", "evening" or "tonight" (the
    # evening of today).
    daypart_words: Mapping[str, str]
    moved_to: Pattern  # a bare hour, read only while a booking is being moved

    # --- answers
    yes_phrases: frozenset[str]
    confirm_phrases: frozenset[str]
    no_phrases: frozenset[str]
    cancel_phrases: frozenset[str]
    cancel_sentence: Pattern

    # --- questions
    question_marks: str
    question_words: frozenset[str]  # a question wherever they stand
    question_openers: frozenset[str]  # a question when they open a clause
    question_phrases: Pattern  # several words that ask ("se puede")
    clauses: Pattern  # what separates clauses, for the openers
    filler: frozenset[str]  # words around a routine answer

    # --- contacts and names
    contact_leads: Pattern
    phone_attempt: Pattern
    name_leads: Pattern  # group 1 set: a casual lead ("i'm", "soy"), not "my name is"
    name_particles: frozenset[str]
    not_names: frozenset[str]

    # --- money
    currencies: Mapping[str, str]  # a symbol or word -> ISO 4217
    symbol_after: Pattern  # groups: the number, the unit
    bare_amount: Pattern  # group 1: the number
    asked_amount: Pattern
    for_amount: Pattern
    money_moved: Pattern

    # --- requests on a booking
    requests: Mapping[str, Pattern]  # "cancel", "move", "refund"
    negated: Pattern  # matches the text before a request said not to be made

    # --- services
    synonyms: Mapping[str, str]  # a word -> the words of a service name it stands for
    service_ignored: frozenset[str]  # too common to name a service on their own

    # --- the offline model's own reading of the message
    human: Pattern
    ordinals: Mapping[str, int]
    pick: Pattern  # group 1 an ordinal word, group 2 an option number
    about_my_booking: Pattern
    question_stems: frozenset[str]  # first four letters of words every question has

    # --- telling languages apart (``clear_language``)
    function_words: frozenset[str]

    # --- greetings and thanks: a message of only these asks nothing (``unreadable``)
    pleasantries: frozenset[str] = frozenset()

    # --- a clock as a boundary, and a clock said not to suit (``_read_times``)
    # Matched on the text before a clock's hour ends there: "antes de las ", "until " make the
    # clock the end of a window on that day, "después de las ", "after " its start.
    bound_before: Pattern = re.compile(r"(?!)")
    bound_after: Pattern = re.compile(r"(?!)")
    # Matched on the text before a clock: "no a las 10", "not at 10" is not asked for.
    negated_clock: Pattern = re.compile(r"(?!)")
    # Matched on the text after a boundary clock: "hasta las 11 no puedo" is after 11.
    negated_after: Pattern = re.compile(r"(?!)")

    # --- picks among the times offered (``read_pick``)
    # Matched right after an ordinal ("the first", "la primera opción"): what may follow it in a
    # pick — the message's end, punctuation, "please", "is fine" — and not another noun ("la
    # primera semana", "the first visit").
    pick_followers: Pattern = re.compile(r"\s*(?:$|[^\w\s])")
    # Matched on the text before an ordinal: "not the first" picks nothing.
    pick_negated: Pattern = re.compile(r"(?!)")

    def vocabulary(self) -> frozenset[str]:
        """The words this table knows as words of its language (folded as prepared)."""
        phrases = self.yes_phrases | self.confirm_phrases | self.no_phrases | self.cancel_phrases
        words = {word for phrase in phrases for word in phrase.split()}
        return frozenset(
            words
            | set(self.weekdays)
            | set(self.ordinals)
            | self.question_words
            | self.question_openers
            | self.filler
            | self.not_names
            | self.function_words
        )
