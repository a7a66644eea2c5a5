"""Payment talk: only once the core has asked for the deposit.

Pure: no database, no clock.
"""

import pytest

from agent.guards import (
    payment_talk_guard,
)
from tests.agent.guards.common import (
    NEXT_STEP,
    NEXT_STEPS,
    facts,
    facts_in,
)


@pytest.mark.parametrize(
    "draft",
    [
        "Please pay the €10 deposit to secure it.",
        "I'll send you a payment link.",
        "Can I take your card details?",
        "A deposit is required for this service.",
        "You can PAY now via Stripe.",
    ],
)
def test_payment_talk_before_the_payment_stage_becomes_the_next_step(draft):
    # given a conversation where the core has not asked for payment
    result = payment_talk_guard(draft, facts())
    # then the client hears the real next step instead
    assert result.text == NEXT_STEP
    assert [rewrite.guard for rewrite in result.rewrites] == ["payment_talk"]


def test_payment_talk_is_cut_but_the_rest_of_the_reply_stays():
    draft = "Lovely choice! A deposit of €10 is required."
    assert payment_talk_guard(draft, facts()).text == f"Lovely choice! {NEXT_STEP}"


@pytest.mark.parametrize("draft", ["Please pay the deposit using the payment link below."])
def test_payment_talk_at_the_payment_stage_passes_untouched(draft):
    result = payment_talk_guard(draft, facts(payment_requested=True, prices=()))
    assert result.text == draft
    assert result.rewrites == []


def test_ordinary_replies_are_not_payment_talk():
    draft = "Which service would you like? We have cuts and colour."
    assert payment_talk_guard(draft, facts()).text == draft


@pytest.mark.parametrize(
    ("language", "draft", "kept"),
    [
        ("en", "Lovely choice! A deposit of €10 is required.", "Lovely choice!"),
        ("es", "¡Buena elección! Hace falta un depósito de 10 €.", "¡Buena elección!"),
        ("en", "Great. Please pay now.", "Great."),
        ("es", "Perfecto. Puede pagar con tarjeta de crédito.", "Perfecto."),
        ("es", "Gracias. Le envío el enlace de pago.", "Gracias."),
        ("es", "Vale. Solo pedimos una señal.", "Vale."),
        ("es", "Genial. El abono se hace por Stripe.", "Genial."),
    ],
)
def test_in_each_language_payment_talk_before_its_stage_goes(language, draft, kept):
    result = payment_talk_guard(draft, facts_in(language))

    assert result.text == f"{kept} {NEXT_STEPS[language]}"
    assert [rewrite.guard for rewrite in result.rewrites] == ["payment_talk"]


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "Which service would you like? We have cuts and colour."),
        ("es", "¿Qué servicio le gustaría? Tenemos corte y color."),
    ],
)
def test_in_each_language_ordinary_replies_are_not_payment_talk(language, draft):
    assert payment_talk_guard(draft, facts_in(language)).text == draft
