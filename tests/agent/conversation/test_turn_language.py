"""A conversation is answered in its language from the first word: the greeting, the reply, the
labels of the times the widget shows, a refusal; an English one as it always was. And a turn
leaves the language of whoever called it as it found it (a request, a task, the demo)."""

import re

import pytest
from django.utils import translation

from agent.conversation.turns import conversation_start, turn_take
from agent.models import AgentGrant
from agent.offline.model import OfflineModel

pytestmark = pytest.mark.usefixtures("frozen_now")

SPANISH_LABEL = re.compile(
    r"(lunes|martes|miércoles|jueves|viernes|sábado|domingo) \d{1,2} de diciembre a las \d\d:\d\d"
)


@pytest.fixture
def clinic(shop, haircut):
    shop.name = "Clínica Sol"
    shop.language = "es"
    shop.save()
    haircut.name = "Corte de pelo"
    haircut.save()
    return shop


def test_a_spanish_business_greets_in_spanish(clinic):
    _conversation, _token, greeting = conversation_start(business=clinic)

    assert greeting.text == (
        "¡Hola! Soy el asistente de reservas de Clínica Sol. ¿Qué servicio desea reservar? "
        "Ofrecemos Corte de pelo."
    )


def test_an_english_business_greets_as_it_always_has(shop):
    _conversation, _token, greeting = conversation_start(business=shop)

    assert greeting.text == (
        f"Hello! I'm the booking assistant of {shop.name}. Which service would you like to "
        "book? We offer Haircut."
    )


def test_a_spanish_turn_is_answered_in_spanish_with_spanish_labels(clinic):
    _conversation, token, _greeting = conversation_start(business=clinic)

    result = turn_take(token=token, text="un corte de pelo el miércoles", model=OfflineModel())

    assert "Horas libres: miércoles 2 de diciembre a las " in result.reply.text
    labels = [slot["label"] for slot in result.reply.choices["slots"]]
    assert labels
    assert all(SPANISH_LABEL.fullmatch(label) for label in labels), labels


def test_a_spanish_refusal_is_told_in_spanish(clinic):
    AgentGrant.objects.filter(business=clinic, action="hold_slot").delete()
    _conversation, token, _greeting = conversation_start(business=clinic)

    result = turn_take(
        token=token, text="un corte de pelo el miércoles a las 10", model=OfflineModel()
    )

    assert result.reply.text == (
        "Corte de pelo dura 60 minutos y cuesta 60,00\xa0€. No puedo guardarle esa hora. Eso no "
        "puedo hacerlo en este chat; un miembro del equipo puede ayudarle. ¿Qué día le viene bien?"
    )


@pytest.mark.parametrize("caller", ["en", "es", None])
def test_a_turn_leaves_the_callers_language_as_it_was(clinic, caller):
    _conversation, token, _greeting = conversation_start(business=clinic)

    with translation.override(caller):
        turn_take(token=token, text="un corte de pelo el miércoles", model=OfflineModel())
        assert translation.get_language() == caller
