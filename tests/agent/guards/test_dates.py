"""Dates and times: only those the core handed over this turn; with none, none at all.

Pure: no database, no clock.
"""

from datetime import date, datetime

import pytest

from agent.guards import (
    dates_guard,
)
from tests.agent.guards.common import (
    AMSTERDAM,
    CUT,
    NEXT_STEP,
    NOTHING_HANDED_OVER,
    facts,
)


@pytest.mark.parametrize(
    "draft",
    [
        "How about Tuesday at 3pm?",
        "I can fit you in tomorrow at 3pm.",
        "We have 14:00 free.",
        "Dec 3 works well.",
        "Come by at 3 pm.",
        "We could do noon.",
        "We are open Monday to Friday.",
        "I have a slot on 3 December.",
        "How about 2026-12-03?",
        "Maybe 12/03?",
        "Around 4 o'clock would work.",
        "Sorry, we're closed that day, try next week.",
        "The afternoon is best.",
        "Pop in at 10.",
    ],
)
def test_when_the_core_handed_over_no_time_no_date_or_time_is_stated(draft):
    # given a turn where availability was unavailable (nothing handed over)
    given = facts(**NOTHING_HANDED_OVER)
    # when the model invents a time anyway
    result = dates_guard(draft, given)
    # then the sentence is gone and only the real next step remains
    assert result.text == NEXT_STEP
    assert [rewrite.guard for rewrite in result.rewrites] == ["dates"]
    assert result.rewrites[0].before == draft


def test_only_the_sentence_with_the_invented_time_is_removed():
    draft = "Thanks, Anna! How about Tuesday at 3pm? Let me know what you prefer."
    result = dates_guard(draft, facts(**NOTHING_HANDED_OVER))
    assert result.text == "Thanks, Anna! Let me know what you prefer."


@pytest.mark.parametrize(
    "draft",
    [
        "I have openings at 2:00pm and 4:30pm on Thursday.",
        "Thursday, Dec 3 at 14:00 or 16:30?",
        "How about 3 December at 2 pm?",
        "Would Thursday afternoon suit you?",
        "Does 16:30 on Thursday work?",
        "Thursday 3/12 at 14:00 is open.",
    ],
)
def test_the_dates_and_times_the_core_handed_over_pass_untouched(draft):
    result = dates_guard(draft, facts())
    assert result.text == draft
    assert result.rewrites == []


def test_tomorrow_passes_only_when_the_core_handed_over_today_and_tomorrow_is_offered():
    draft = "Tomorrow at 2pm?"
    on_wednesday = facts(today=date(2026, 12, 2))
    assert dates_guard(draft, on_wednesday).text == draft
    # today is Tuesday: tomorrow (Wednesday) is not offered
    assert dates_guard(draft, facts()).text == NEXT_STEP
    assert dates_guard(draft, facts(today=None)).text == NEXT_STEP  # unknowable without "today"


@pytest.mark.parametrize(
    "draft",
    [
        "How about Friday at 14:00?",
        "I have 15:00 on Thursday.",
        "Or Dec 4?",
        "Tomorrow at 2pm works.",
        "Thursday evening is free.",
    ],
)
def test_a_time_the_core_did_not_offer_is_removed_even_when_others_were(draft):
    result = dates_guard(draft, facts())
    assert result.text == NEXT_STEP
    assert result.rewrites[0].guard == "dates"


@pytest.mark.parametrize(
    ("draft", "today", "kept"),
    [
        ("Ich habe morgen um 15 Uhr frei. Bis dann!", None, "Bis dann!"),
        ("Ich habe am 5. Dezember um 15 Uhr frei. Bis dann!", None, "Bis dann!"),
        ("Ich habe morgen um 14 Uhr frei.", date(2026, 12, 2), "Ich habe morgen um 14 Uhr frei."),
    ],
)
def test_dates_in_the_business_language_are_checked_too(draft, today, kept):
    given = facts(language="de", today=today) if today else facts(language="de", datetimes=())
    assert dates_guard(draft, given).text == kept


def test_weekday_names_are_dates_and_pass_only_when_handed_over():
    # decided: "We are open Monday to Friday" states dates, so it needs a Monday and a Friday
    draft = "We are open Monday to Friday."
    monday = datetime(2026, 11, 30, 9, 0, tzinfo=AMSTERDAM)
    friday = datetime(2026, 12, 4, 9, 0, tzinfo=AMSTERDAM)
    assert dates_guard(draft, facts(datetimes=(monday, friday))).text == draft
    assert dates_guard(draft, facts()).text == NEXT_STEP


@pytest.mark.parametrize(
    "draft",
    [
        "The cut is €45.00.",
        "That's 45.00 EUR for 2 people.",
        "Good morning! How can I help?",
        "We can seat 3 people.",
        "What is your name?",
        "Our stylists have 12 years of experience.",
    ],
)
def test_prices_greetings_and_counts_are_not_taken_for_dates(draft):
    result = dates_guard(draft, facts(**NOTHING_HANDED_OVER | {"prices": (CUT,)}))
    assert result.text == draft
    assert result.rewrites == []
