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
    NEXT_STEPS,
    NOTHING_HANDED_OVER,
    THURSDAY_14,
    facts,
    facts_in,
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
    ("draft", "today"),
    [
        ("Ich habe morgen um 15 Uhr frei. Bis dann!", None),
        ("Ich habe am 5. Dezember um 15 Uhr frei. Bis dann!", None),
        # True, but a language without date words cannot be vouched for: "morgen" without a
        # digit is a date no parser hit would show.
        ("Ich habe morgen um 14 Uhr frei.", date(2026, 12, 2)),
        ("Ich habe morgen frei.", None),
    ],
)
def test_dates_in_a_language_without_date_words_fail_closed(draft, today):
    given = facts(language="de", today=today) if today else facts(language="de", datetimes=())

    result = dates_guard(draft, given)

    assert result.text == NEXT_STEP
    assert {rewrite.guard for rewrite in result.rewrites} == {"dates"}


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


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "How about Tuesday at 3pm?"),
        ("es", "¿Qué tal el martes a las 15:00?"),
        ("en", "I can fit you in tomorrow at 3pm."),
        ("es", "Puedo atenderle mañana."),
        ("es", "Tengo hueco el 4 de diciembre."),
        ("en", "Sorry, we're closed that day, try next week."),
        ("es", "Mejor la semana que viene."),
        ("es", "La próxima semana tenemos sitio."),
        ("en", "Pop in at 10."),
        ("es", "Pase a las 10."),
        ("es", "Venga a la una."),
        ("es", "Venga a las cuatro y media."),
        ("es", "Podemos a mediodía."),
        ("es", "Abrimos de lunes a viernes."),
        ("es", "Por la tarde es mejor."),
        ("es", "Dentro de 2 días."),
    ],
)
def test_in_each_language_no_date_is_stated_when_the_core_handed_over_none(language, draft):
    result = dates_guard(draft, facts_in(language, **NOTHING_HANDED_OVER))

    assert result.text == NEXT_STEPS[language]
    assert [rewrite.guard for rewrite in result.rewrites] == ["dates"]


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "Thursday, Dec 3 at 14:00 or 16:30?"),
        ("es", "¿El jueves 3 de diciembre a las 14:00 o a las 16:30?"),
        ("es", "¿Le va bien el jueves a las dos de la tarde?"),
        ("es", "¿Prefiere a las cuatro y media?"),
        ("es", "¿Le viene bien el jueves por la tarde?"),
        ("es", "Hay hueco el 3 de diciembre."),
    ],
)
def test_in_each_language_the_dates_the_core_handed_over_pass(language, draft):
    result = dates_guard(draft, facts_in(language))

    assert result.text == draft
    assert result.rewrites == []


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "Thursday at 5pm works."),
        ("es", "El viernes a las 14:00 me va bien."),
        ("es", "¿Qué tal a las cinco menos cuarto?"),
        ("es", "Tenemos el jueves a las cuatro y media de la mañana."),
    ],
)
def test_in_each_language_a_time_not_offered_goes_even_when_others_were(language, draft):
    result = dates_guard(draft, facts_in(language))

    assert result.text == NEXT_STEPS[language]


@pytest.mark.parametrize(
    ("language", "draft"),
    [("en", "Tomorrow at 2pm?"), ("es", "¿Mañana a las 14:00?"), ("es", "¿Mañana a las dos?")],
)
def test_in_each_language_tomorrow_passes_only_when_it_is_an_offered_day(language, draft):
    on_wednesday = facts_in(language, today=date(2026, 12, 2))

    assert dates_guard(draft, on_wednesday).text == draft
    assert dates_guard(draft, facts_in(language)).text == NEXT_STEPS[language]
    assert dates_guard(draft, facts_in(language, today=None)).text == NEXT_STEPS[language]


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "Your booking is confirmed for Thursday at 16:30."),
        ("es", "Su cita está confirmada para el jueves a las 16:30."),
    ],
)
def test_in_each_language_a_booking_claim_names_only_the_booked_time(language, draft):
    booked = facts_in(language, booking_confirmed=True, booked_at=THURSDAY_14)

    assert dates_guard(draft, booked).text == NEXT_STEPS[language]
    assert dates_guard(draft.replace("16:30", "14:00"), booked).rewrites == []


THURSDAY = (2026, 12, 3)


@pytest.mark.parametrize(
    ("draft", "offered", "kept"),
    [
        ("¿Le va bien el jueves a las cinco menos cuarto?", [(16, 45)], True),
        ("¿Le va bien el jueves a las cinco menos cuarto?", [(17, 45)], False),
        ("¿Le va bien el jueves a la una y cuarto?", [(13, 15)], True),
        # "de la mañana" says which half of the day: 4:00, not the 16:00 also offered
        ("¿Le va bien el jueves a las cuatro de la mañana?", [(10, 0), (16, 0)], False),
        ("¿Le va bien el jueves a las cuatro de la tarde?", [(10, 0), (16, 0)], True),
        ("¿Le va bien el jueves a las once de la noche?", [(11, 0), (23, 0)], True),
        # "las doce de la noche" is midnight, not the noon also offered
        ("¿Le va bien el jueves a las doce de la noche?", [(12, 0), (21, 0)], False),
    ],
)
def test_a_spanish_spoken_hour_is_the_clock_reading_it_says(draft, offered, kept):
    times = tuple(datetime(*THURSDAY, h, m, tzinfo=AMSTERDAM) for h, m in offered)

    result = dates_guard(draft, facts_in("es", datetimes=times))

    assert (result.text == draft) is kept
