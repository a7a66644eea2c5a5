"""Amounts of a thousand and more, grouped as each language groups them ("1.500 €", "€1,500"):
read whole, so the core's figure passes unchanged and a wrong one is rewritten whole — never its
last group alone ("1.500 €" read as "500 €" became "1.1.500,00 €").

Pure: no database, no clock.
"""

from decimal import Decimal

import pytest

from agent.guards import Price, Rewrite, guard_reply, prices_guard
from tests.agent.guards.common import facts_in

TREATMENT = Price(Decimal("1500"), "EUR")
WITH_CENTS = Price(Decimal("1500.50"), "EUR")
REASON = "amount the core did not compute"


@pytest.mark.parametrize(
    ("language", "price", "draft"),
    [
        ("es", TREATMENT, "El tratamiento cuesta 1.500 €."),
        ("es", TREATMENT, "El tratamiento cuesta 1.500,00 €."),
        ("es", TREATMENT, "Son 1.500 euros."),
        ("es", WITH_CENTS, "El tratamiento cuesta 1.500,50 €."),
        ("en", TREATMENT, "The treatment is €1,500."),
        ("en", TREATMENT, "The treatment is €1,500.00."),
        ("en", TREATMENT, "The treatment is 1,500 EUR."),
        ("en", WITH_CENTS, "The treatment is €1,500.50."),
    ],
)
def test_the_cores_figure_grouped_in_thousands_passes_unchanged(language, price, draft):
    result = guard_reply(draft, facts_in(language, prices=(price,)))

    assert result.text == draft
    assert result.rewrites == []


@pytest.mark.parametrize(
    ("language", "draft", "wrong"),
    [
        ("es", "El tratamiento cuesta 1.800 €.", "1.800 €"),
        ("es", "El tratamiento cuesta 1.500,50 €.", "1.500,50 €"),
        ("es", "El tratamiento cuesta 2.500,00 euros.", "2.500,00 euros"),
        ("en", "The treatment is €1,800.", "€1,800"),
        ("en", "The treatment is €1,500.50.", "€1,500.50"),
        ("en", "The treatment is 2,500.00 EUR.", "2,500.00 EUR"),
        # Not a figure as anyone writes one: still read from its first digit to its last.
        ("es", "El tratamiento cuesta 1.5000 €.", "1.5000 €"),
        ("en", "The treatment is €1.5000.", "€1.5000"),
    ],
)
def test_a_wrong_figure_grouped_in_thousands_is_rewritten_whole(language, draft, wrong):
    result = prices_guard(draft, facts_in(language, prices=(TREATMENT,)))

    correct = {"en": "€1500.00", "es": "1.500,00\xa0€"}[language]
    assert result.text == draft.replace(wrong, correct)
    assert result.rewrites == [Rewrite("prices", REASON, wrong, correct)]
