"""Which language a client clearly writes in, from the reading tables' own words: Spanish or
English when the message says so, None when it is too short or a name, an address, a time, or a
mix — so "ok" or "10:30" never switches a Spanish conversation to English."""

import pytest

from agent.offline.languages import TABLES, clear_language, table_for

SPANISH = [
    "Buenas, quería una cita para el viernes por la mañana",
    "Hola, ¿tenéis hueco mañana por la tarde?",
    "quiero cancelar mi cita",
    "me llamo Ana Pérez y quiero una cita",
    "¿Cuánto cuesta la fisioterapia?",
    "mañana a las 10 por favor",
    "sí, perfecto, gracias",
    "no puedo el jueves, ¿el viernes?",
    "mi correo es ana@x.es, gracias",
    "hola buenas tardes",
    "quiero cambiar la hora de mi cita",
    "¿me podéis devolver el depósito?",
    "vale, la primera",
    "buenos dias, tienen disponibilidad el sabado?",
    "pasado mañana por la mañana",
    "muchas gracias",
]
ENGLISH = [
    "Hi, can I book a haircut Friday?",
    "I'd like to cancel my appointment",
    "what time do you open tomorrow?",
    "my name is Ana and I want a booking",
    "can you do it for 30?",
    "tomorrow afternoon please",
    "yes please, that works",
    "thanks, see you then",
    "is there parking nearby?",
    "could we move it to next week",
    "hello, I need a refund of my deposit",
    "the first one",
]
UNCLEAR = [
    "ok", "OK!", "si", "sí", "no", "vale", "yes", "Ana Pérez", "María", "ana@x.es",
    "maria.la.del.rio@correo.es", "10:30", "612 345 678", "", "👍", "30€",
    "Lucía García, lucia.garcia@gmail.com",
    # Mixed: about as many words of one as of the other.
    "buenas, yes please", "thanks, hasta luego",
]  # fmt: skip


@pytest.mark.parametrize("message", SPANISH)
def test_a_message_clearly_in_spanish_is_spanish(message):
    assert clear_language(message) == "es"


@pytest.mark.parametrize("message", ENGLISH)
def test_a_message_clearly_in_english_is_english(message):
    assert clear_language(message) == "en"


@pytest.mark.parametrize("message", UNCLEAR)
def test_a_short_bare_or_mixed_message_is_in_no_clear_language(message):
    assert clear_language(message) is None


def test_a_word_of_another_language_in_a_longer_message_leaves_it_clear():
    assert clear_language("thanks! quería una cita para el viernes por la tarde") == "es"
    assert clear_language("hola, can I book a haircut?") == "en"


def test_there_are_at_least_thirty_cases():
    assert len(SPANISH) + len(ENGLISH) + len(UNCLEAR) >= 30


def test_every_supported_language_has_a_table_and_no_other_does():
    assert set(TABLES) == {"en", "es"}
    assert table_for("es").code == "es"
    with pytest.raises(ValueError, match="'pt'"):
        table_for("pt")
