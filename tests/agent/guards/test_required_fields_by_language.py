"""No confirmation, offered or claimed, while required details are missing — in each language
the product speaks, read in that language and answered in it; in a language the guard has no
words for, every sentence of the model's goes (it fails closed).

Pure: no database, no clock. The turn's language is the ledger's, not the active one.
"""

import pytest
from django.utils import translation

from agent.guards import required_fields_guard
from tests.agent.guards.common import facts, facts_in

NEED = {
    "en": "Before I can book this for you, I still need your name and email.",
    "es": "Para poder hacerle la reserva, todavía necesito su nombre y correo electrónico.",
}


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "Your booking is confirmed!"),
        ("en", "Perfect, you're all set for Thursday."),
        ("es", "¡Su cita está confirmada!"),
        ("es", "¿Se la confirmo para el jueves a las 14:00?"),
        ("es", "Perfecto, le he reservado el jueves."),
        ("es", "Listo, todo hecho para el jueves."),
        ("es", "Ya está cerrada su cita del jueves."),
    ],
)
def test_a_confirmation_while_details_are_missing_is_replaced_in_the_turns_language(
    language, draft
):
    given = facts_in(language, missing_fields=("name", "email"))

    # The active language is not the turn's: the guard answers in the turn's.
    with translation.override("en" if language == "es" else "es"):
        result = required_fields_guard(draft, given)

    assert result.text == NEED[language]
    assert result.rewrites[0].reason == "confirmation while missing: name, email"


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("es", "¿Me podría dar su correo electrónico?"),
        ("es", "Para hacer la reserva, necesito su nombre."),
        ("en", "Could you share your email address?"),
    ],
)
def test_asking_for_the_details_is_left_alone(language, draft):
    result = required_fields_guard(draft, facts_in(language, missing_fields=("name",)))

    assert result.text == draft
    assert result.rewrites == []


def test_nothing_missing_leaves_a_spanish_confirmation_alone():
    draft = "¿Se la confirmo para el jueves a las 14:00?"

    assert required_fields_guard(draft, facts_in("es", missing_fields=())).text == draft


def test_a_language_without_words_fails_closed():
    draft = "Votre rendez-vous est noté pour jeudi."

    result = required_fields_guard(draft, facts(language="fr", missing_fields=("email",)))

    assert result.rewrites
    assert draft not in result.text
