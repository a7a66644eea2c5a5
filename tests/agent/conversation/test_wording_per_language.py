"""Days, times, lists and money as the client reads them, in the active language: Babel's names
and forms in Spanish ("miércoles 2 de diciembre a las 10:00", "45,00 €", "a, b y c"), and in
English exactly what the product has always written ("Wednesday 2 December at 10:00", "€45.00",
"a, b and c"). And the reply guards read the Spanish amounts the core writes. Pure.
"""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import translation

from agent.conversation.wording import day_label, local_label, spoken_list
from agent.guards import Price, prices_guard
from agent.guards.money import AMOUNT, amount_of, format_price
from tests.agent.guards.common import facts_in

NINE_UTC = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)  # 10:00 in Madrid, a Wednesday


@pytest.mark.parametrize(
    ("language", "moment", "day", "listed"),
    [
        ("en", "Wednesday 2 December at 10:00", "Wednesday 2 December", "a, b and c"),
        ("en-us", "Wednesday 2 December at 10:00", "Wednesday 2 December", "a, b and c"),
        ("es", "miércoles 2 de diciembre a las 10:00", "miércoles 2 de diciembre", "a, b y c"),
    ],
)
def test_days_times_and_lists_in_the_active_language(language, moment, day, listed):
    with translation.override(language):
        assert local_label(NINE_UTC, "Europe/Madrid") == moment
        assert day_label(NINE_UTC.date()) == day
        assert spoken_list(["a", "b", "c"]) == listed
        assert spoken_list(["a"]) == "a"


def test_with_no_language_active_it_is_english():
    with translation.override(None):
        assert local_label(NINE_UTC, "Europe/Madrid") == "Wednesday 2 December at 10:00"


@pytest.mark.parametrize(
    ("amount", "currency", "english", "spanish"),
    [
        ("45", "EUR", "€45.00", "45,00\xa0€"),
        ("12345.5", "EUR", "€12345.50", "12.345,50\xa0€"),
        ("45", "USD", "$45.00", "45,00\xa0US$"),
        ("45", "GBP", "£45.00", "45,00\xa0GBP"),
        ("45", "CHF", "45.00 CHF", "45,00\xa0CHF"),
    ],
)
def test_money_in_each_language(amount, currency, english, spanish):
    price = Price(Decimal(amount), currency)

    assert format_price(price, "en") == english
    assert format_price(price, "es") == spanish
    with translation.override("es"):
        assert format_price(price) == spanish  # the active language, when none is named
    with translation.override("en-us"):
        assert format_price(price) == english


@pytest.mark.parametrize(
    ("written", "amount", "currency"),
    [
        ("12.345,50\xa0€", "12345.50", "EUR"),
        ("45,00\xa0US$", "45.00", "USD"),
        ("45,00\xa0€", "45.00", "EUR"),
    ],
)
def test_the_guards_read_the_amounts_as_the_core_writes_them_in_spanish(written, amount, currency):
    [match] = AMOUNT.finditer(written)

    assert amount_of(match) == Price(Decimal(amount), currency)


def test_a_big_spanish_price_the_core_computed_is_kept_and_a_wrong_one_is_corrected():
    core = Price(Decimal("12345.50"), "EUR")
    given = facts_in("es", prices=(core,))

    kept = "El tratamiento cuesta 12.345,50\xa0€."
    assert prices_guard(kept, given).text == kept
    wrong = prices_guard("El tratamiento cuesta 45,00\xa0US$.", given)
    assert wrong.text == kept
