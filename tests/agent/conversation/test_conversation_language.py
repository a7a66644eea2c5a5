"""A conversation's language: its business's when it starts, kept on the row, switched only
when the client clearly writes in another language the product speaks."""

import pytest

from agent.conversation.language import language_after, starting_language
from agent.conversation.turns import conversation_start, turn_take
from agent.models import Conversation
from agent.offline.model import OfflineModel

pytestmark = pytest.mark.usefixtures("frozen_now")

SUPPORTED = ("en", "es")


@pytest.mark.parametrize(
    ("current", "text", "after"),
    [
        ("en", "Buenas, quería una cita para el viernes por la mañana", "es"),
        ("es", "Hi, could I book a haircut on Friday morning please?", "en"),
        ("es", "ok", "es"),
        ("es", "10:30", "es"),
        ("en", "Ana Pérez", "en"),
        ("en", "ana@example.com", "en"),
        ("en", "sí", "en"),
    ],
)
def test_only_a_clear_message_switches_the_language(current, text, after):
    assert language_after(current, text, SUPPORTED) == after


def test_a_language_the_product_does_not_speak_switches_nothing():
    assert language_after("en", "Buenas, quería una cita para el viernes", ("en",)) == "en"


@pytest.mark.parametrize(("business", "spoken"), [("es", "es"), ("es-ES", "es"), ("fr", "en")])
def test_a_conversation_starts_in_its_businesss_language_as_the_product_speaks_it(business, spoken):
    assert starting_language(business) == spoken


def test_the_switch_is_stored_on_the_row_and_a_short_answer_keeps_it(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    assert Conversation.objects.get().language == "en"

    switched = turn_take(
        token=token, text="Buenas, quería un corte el miércoles por la mañana", model=OfflineModel()
    )
    assert Conversation.objects.get().language == "es"
    assert "Which" not in switched.reply.text
    assert "¿" in switched.reply.text

    turn_take(token=token, text="ok", model=OfflineModel())
    assert Conversation.objects.get().language == "es"
