"""Prices: every amount stated is one the core computed.

Pure: no database, no clock.
"""

from decimal import Decimal

import pytest

from agent.guards import (
    Price,
    Rewrite,
    prices_guard,
)
from tests.agent.guards.common import (
    CUT,
    NEXT_STEP,
    NEXT_STEPS,
    facts,
    facts_in,
)


@pytest.mark.parametrize(
    ("draft", "wrong"),
    [
        ("That will be €40.", "€40"),
        ("The price is 50 EUR.", "50 EUR"),
        ("Sure, I can do €35 for you.", "€35"),
        ("It costs 60 euros.", "60 euros"),
        ("It's $45.00.", "$45.00"),
        ("Only € 44,50 today.", "€ 44,50"),
    ],
)
def test_an_amount_the_core_did_not_compute_is_corrected_to_the_core_price(draft, wrong):
    result = prices_guard(draft, facts())
    assert wrong not in result.text
    assert "€45.00" in result.text
    reason = "amount the core did not compute"
    assert result.rewrites == [Rewrite("prices", reason, wrong, "€45.00")]


@pytest.mark.parametrize("draft", ["The cut is €45.00.", "That's €45 in total.", "45.00 EUR."])
def test_the_core_price_passes_untouched(draft):
    result = prices_guard(draft, facts())
    assert result.text == draft
    assert result.rewrites == []


def test_an_amount_is_removed_when_the_core_computed_none():
    result = prices_guard("Thanks! It's $85. Anything else?", facts(prices=()))
    assert result.text == "Thanks! Anything else?"
    assert result.rewrites[0].guard == "prices"


def test_with_several_core_prices_a_wrong_amount_is_removed_not_guessed():
    given = facts(prices=(CUT, Price(Decimal("30.00"), "EUR")))
    result = prices_guard("The cut is €45.00 and the colour is €20.", given)
    assert result.text == NEXT_STEP
    assert prices_guard("Cut €45.00, wash €30.", given).text == "Cut €45.00, wash €30."


@pytest.mark.parametrize(
    ("language", "draft", "wrong"),
    [
        ("en", "It costs 60 euros.", "60 euros"),
        ("es", "Cuesta 30 euros.", "30 euros"),
        ("es", "Son 30 €.", "30 €"),
        ("es", "El precio es 30,50 €.", "30,50 €"),
        ("es", "Le sale por 40 dólares.", "40 dólares"),
    ],
)
def test_in_each_language_an_amount_the_core_did_not_compute_is_corrected(language, draft, wrong):
    result = prices_guard(draft, facts_in(language))

    # The core's figure, as the core writes it in the reply's language.
    correct = {"en": "€45.00", "es": "45,00\xa0€"}[language]
    assert result.text == draft.replace(wrong, correct)
    reason = "amount the core did not compute"
    assert result.rewrites == [Rewrite("prices", reason, wrong, correct)]


@pytest.mark.parametrize(
    ("language", "draft"),
    [("en", "The cut is €45.00."), ("es", "El corte cuesta 45,00 €."), ("es", "Son 45 euros.")],
)
def test_in_each_language_the_core_price_passes_untouched(language, draft):
    result = prices_guard(draft, facts_in(language))

    assert result.text == draft
    assert result.rewrites == []


@pytest.mark.parametrize(
    ("language", "draft", "kept"),
    [
        ("en", "Thanks! It's $85. Anything else?", "Thanks! Anything else?"),
        ("es", "¡Gracias! Son 85,00 €. ¿Algo más?", "¡Gracias! ¿Algo más?"),
    ],
)
def test_in_each_language_an_amount_is_removed_when_the_core_computed_none(language, draft, kept):
    assert prices_guard(draft, facts_in(language, prices=())).text == kept


def test_while_negotiating_in_a_language_it_cannot_read_amounts_in_every_sentence_goes():
    # "lo dejo en 40" names no currency: without Spanish price words it cannot be told from a
    # count, so nothing but the core's words is vouched for
    given = facts_in("es", negotiation=Price(Decimal("50.00"), "EUR"))

    result = prices_guard("Vale, se lo dejo en 40. ¡Gracias!", given)

    assert result.text == NEXT_STEPS["es"]
    assert {rewrite.guard for rewrite in result.rewrites} == {"prices"}
