"""Spanish replies go through the same guards as English ones, read in Spanish: a true claim the
ledger backs is kept in the model's words, a false one is replaced by the truth in Spanish. And a
language the guards have no tables for fails closed in every guard that reads words.

Pure: no database, no clock.
"""

from decimal import Decimal

import pytest

from agent.guards import (
    Price,
    dates_guard,
    guard_reply,
    internal_mechanics_guard,
    payment_talk_guard,
    prices_guard,
    status_guard,
)
from agent.guards.status import topics_of
from agent.guards.vocabulary import SPANISH
from agent.guards.vocabulary_es import spanish_lemma
from tests.agent.guards.common import NEXT_STEPS, THURSDAY_14, facts, facts_in

NARRATION = ("Horas libres: jueves 3 de diciembre a las 14:00 o a las 16:30.", NEXT_STEPS["es"])
BOOKED = {"booking_confirmed": True, "booked_at": THURSDAY_14}
THIRTY = Price(Decimal("30.00"), "EUR")


def spanish(**overrides):
    return facts_in("es", core_narration=NARRATION, **overrides)


def test_a_true_spanish_confirmation_after_a_booking_is_kept():
    draft = "¡Perfecto, Anna! Su cita está confirmada para el jueves a las 14:00. ¡Nos vemos!"

    result = guard_reply(draft, spanish(**BOOKED))

    assert result.text == draft
    assert result.rewrites == []


def test_a_false_spanish_confirmation_is_replaced_by_the_truth_in_spanish():
    draft = "¡Perfecto! Su cita está confirmada para el jueves a las 14:00."

    result = guard_reply(draft, spanish())

    assert result.text == "¡Perfecto! Todavía no hay nada reservado. " + " ".join(NARRATION)
    assert "status" in {rewrite.guard for rewrite in result.rewrites}


@pytest.mark.parametrize(
    "draft", ["Ya está pagado.", "Su depósito está pagado.", "Hemos cobrado la señal."]
)
def test_paid_without_a_verified_payment_is_dropped(draft):
    result = guard_reply(draft, spanish(payment_requested=True, **BOOKED))

    assert result.text.startswith("Todavía no veo ningún pago completado.")
    assert "pagado" not in result.text
    assert guard_reply(draft, spanish(payment_verified=True, **BOOKED)).text == draft


@pytest.mark.parametrize(
    ("record", "kept"),
    [
        ({}, False),
        ({"refund_issued": True, "refunds": (THIRTY,), "prices": (THIRTY,)}, True),
        (
            {
                "refund_issued": True,
                "refunds": (Price(Decimal("20.00"), "EUR"),),
                "prices": (Price(Decimal("20.00"), "EUR"),),
            },
            False,
        ),
    ],
)
def test_we_refunded_you_30_euros_stands_only_on_a_refund_of_30(record, kept):
    draft = "Le hemos devuelto 30 euros."

    result = guard_reply(draft, spanish(**record))

    assert (result.text == draft) is kept
    if not kept:
        assert "devuelto" not in result.text
        assert "€" not in result.text  # never dressed in the core's figure either


def test_an_unbacked_refund_is_denied_when_the_client_asked_about_it():
    result = guard_reply("Le hemos devuelto 30 euros.", facts_in("es"))

    assert result.text == f"No se ha hecho ningún reembolso. {NEXT_STEPS['es']}"


@pytest.mark.parametrize(
    "draft",
    ["Su cita todavía no está confirmada.", "¿Quiere que le reserve el jueves a las 14:00?"],
)
def test_a_spanish_denial_or_question_about_a_state_is_replaced(draft):
    result = guard_reply(draft, spanish())

    assert result.text == "Todavía no hay nada reservado. " + " ".join(NARRATION)
    assert result.rewrites[0].reason == "a denial or question about booking: the core's to say"


@pytest.mark.parametrize(
    "draft",
    [
        "Como modelo de lenguaje no puedo hacerlo.",
        "La API no responde.",
        "Lo miro en el sistema interno.",
    ],
)
def test_spanish_mechanics_words_are_dropped(draft):
    result = guard_reply(draft, spanish())

    assert draft not in result.text
    assert result.text == " ".join(NARRATION)


def test_a_spanish_date_not_handed_over_is_dropped():
    draft = "¡Hola! ¿Le viene bien el viernes a las 10? Gracias."

    result = guard_reply(draft, spanish())

    assert result.text == "¡Hola! Gracias."
    assert [rewrite.guard for rewrite in result.rewrites] == ["dates"]


@pytest.mark.parametrize(
    "words",
    [
        ("reserva", "reservas", "reservada", "reservado", "reservadas", "reservar", "reservarle"),
        ("confirmada", "confirmado", "confirmación", "confirmaciones", "confirmar"),
        ("tarde", "tardes"),
        ("sesión", "sesiones", "sesion"),
    ],
)
def test_a_spanish_words_forms_read_the_same(words):
    assert len({spanish_lemma(word) for word in words}) == 1


def test_the_clients_spanish_question_names_the_states_it_asks_about():
    assert topics_of("¿Está reservada mi cita?", "es") >= {"booking"}
    assert topics_of("¿Me han devuelto el dinero?", "es-MX") >= {"refund"}
    assert SPANISH.negation.search("todavia no")
    assert not SPANISH.negation.search("nosotros")


# ----------------------------------------------------------------- a language with no tables

ALL_BACKED = BOOKED | {"payment_verified": True, "payment_requested": False}
FRENCH = "Votre rendez-vous est confirmé. Merci !"


@pytest.mark.parametrize(
    ("guard", "record"),
    [
        (status_guard, ALL_BACKED),
        (payment_talk_guard, {}),
        (internal_mechanics_guard, {}),
        (dates_guard, {}),
        (prices_guard, {"negotiation": Price(Decimal("50.00"), "EUR")}),
    ],
)
def test_a_language_without_tables_fails_closed_in_every_guard_that_reads_words(guard, record):
    # French has no tables: even a claim the ledger backs cannot be vouched for
    given = facts(language="fr", **record)

    result = guard(FRENCH, given)

    assert "Votre" not in result.text
    assert "Merci" not in result.text
    assert result.rewrites
    assert given.next_step_text() in result.text


@pytest.mark.parametrize("guard", [payment_talk_guard, internal_mechanics_guard, dates_guard])
def test_in_a_language_without_tables_the_cores_own_words_still_pass(guard):
    narration = "Rendez-vous confirmé : jeudi 3 décembre à 14:00."
    knowledge = "Le parking est payant dans la rue."
    given = facts(
        language="fr", core_narration=(narration,), next_step="Quelle heure?", knowledge=knowledge
    )

    for words in (narration, "Quelle heure?", knowledge):
        result = guard(words, given)
        assert (result.text, result.rewrites) == (words, [])
