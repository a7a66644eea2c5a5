"""Money on the client pages reads as the page's language writes it — the same figure the
assistant's replies and the page's script (Intl.NumberFormat, on the same CLDR data) show."""

from decimal import Decimal

import pytest
from django.utils import translation

from ordina.money import money_text


@pytest.mark.parametrize(
    ("language", "currency", "written"),
    [
        ("en", "EUR", "€60.00"),
        ("en", "USD", "$60.00"),
        ("en", "GBP", "£60.00"),
        ("es", "EUR", "60,00\xa0€"),
    ],
)
def test_an_amount_is_written_as_the_active_language_writes_money(language, currency, written):
    with translation.override(language):
        assert money_text(Decimal("60.00"), currency) == written


def test_cents_are_kept_and_never_rounded_away():
    with translation.override("en"):
        assert money_text(Decimal("1234.05"), "EUR") == "€1,234.05"
