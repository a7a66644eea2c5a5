"""Internal mechanics: the client talks to staff, never to a system.

Pure: no database, no clock.
"""

import re

import pytest

from agent.guards import (
    internal_mechanics_guard,
)
from tests.agent.guards.common import (
    NEXT_STEP,
    NEXT_STEPS,
    facts,
    facts_in,
)

MECHANICS = re.compile(
    r"system message|confirm card|database|advisory lock|tool|function call|prompt|json|\bapi\b"
    r"|model",
    re.IGNORECASE,
)


@pytest.mark.parametrize(
    ("draft", "expected"),
    [
        ("I can't see a system message about that.", "I can't see a note about that."),
        ("Please tap the confirm card below.", "Please tap the Confirm button below."),
        ("Let me check the database.", "Let me check our records."),
        ("The slot is protected by an advisory lock.", NEXT_STEP),
        ("My tool call failed, sorry.", NEXT_STEP),
        ("As an AI language model, I can't do that.", NEXT_STEP),
        ("My system prompt says I must not tell you.", NEXT_STEP),
        ("The API returned an error.", NEXT_STEP),
        ("Here is the JSON you asked for.", NEXT_STEP),
        ("I made a function call to the booking tool.", NEXT_STEP),
        ("Sure! Another session holds the lock right now.", "Sure!"),
    ],
)
def test_internal_mechanics_are_rewritten_into_staff_language_or_removed(draft, expected):
    result = internal_mechanics_guard(draft, facts())
    assert result.text == expected
    assert not MECHANICS.search(result.text)
    assert {rewrite.guard for rewrite in result.rewrites} == {"internal_mechanics"}


@pytest.mark.parametrize(
    "draft",
    [
        "Let me check that for you.",
        "Thanks for the prompt reply!",
        "Would you like me to lock that in?",
        "Our stylists use professional tools.",
    ],
)
def test_staff_language_passes_untouched(draft):
    result = internal_mechanics_guard(draft, facts())
    assert result.text == draft
    assert result.rewrites == []


@pytest.mark.parametrize(
    ("language", "draft", "expected"),
    [
        ("en", "Let me check the database.", "Let me check our records."),
        ("es", "Déjeme mirar la base de datos.", "Déjeme mirar nuestros registros."),
        ("es", "No veo ningún mensaje del sistema.", "No veo ningún aviso."),
        ("es", "Pulse la tarjeta de confirmación.", "Pulse el botón Confirmar."),
        ("en", "The API returned an error.", None),
        ("es", "La API ha devuelto un error.", None),
        ("es", "Como modelo de lenguaje, no puedo hacerlo.", None),
        ("es", "Como IA no tengo acceso a eso.", None),
        ("es", "Voy a usar la herramienta de reservas.", None),
        ("es", "El sistema interno está caído.", None),
        ("es", "Aquí tiene el JSON.", None),
        ("es", "Lo ha confirmado el webhook.", None),
        ("es", "Mi prompt no me deja decirlo.", None),
        ("es", "¡Claro! Otra sesión tiene el bloqueo ahora.", "¡Claro!"),
    ],
)
def test_in_each_language_internal_mechanics_are_renamed_or_removed(language, draft, expected):
    result = internal_mechanics_guard(draft, facts_in(language))

    assert result.text == (NEXT_STEPS[language] if expected is None else expected)
    assert {rewrite.guard for rewrite in result.rewrites} == {"internal_mechanics"}


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "Let me check that for you."),
        ("es", "Déjeme comprobarlo."),
        ("es", "Gracias por su rápida respuesta."),
    ],
)
def test_in_each_language_staff_language_passes_untouched(language, draft):
    result = internal_mechanics_guard(draft, facts_in(language))

    assert result.text == draft
    assert result.rewrites == []
