"""A client who asks for a person is handed over; a message that only mentions one ("es una
persona mayor", "just one person", "does the staff speak Spanish?") asks for nobody."""

import pytest

from agent.offline.languages import table_for
from tests.agent.offline.test_reading_es import OfflineModel, spanish_turn


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("quiero hablar con una persona", "es"),
        ("un humano, por favor", "es"),
        ("hablar con alguien", "es"),
        ("¿puedo hablar con el encargado?", "es"),
        ("pásame con atención al cliente", "es"),
        ("¿me pasas con el encargado?", "es"),
        ("una persona, por favor", "es"),
        ("I want a human", "en"),
        ("I want to talk to a person", "en"),
        ("a person please", "en"),
        ("Can I talk to a real person?", "en"),
        ("can I speak to the manager?", "en"),
        ("manager please", "en"),
    ],
)
def test_a_request_for_a_person_is_read(message, language):
    assert table_for(language).human.search(message)


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("Es para mi madre, es una persona mayor", "es"),
        ("Solo una persona", "es"),
        ("¿El personal habla inglés?", "es"),
        ("una cita para una persona", "es"),
        ("does the staff speak spanish?", "en"),
        ("just one person", "en"),
        ("is the manager nice?", "en"),
    ],
)
def test_a_person_only_mentioned_is_no_request(message, language):
    assert not table_for(language).human.search(message)


@pytest.mark.parametrize("message", ["Solo una persona", "¿El personal habla inglés?"])
def test_a_person_only_mentioned_is_not_handed_over(message):
    proposed = OfflineModel().propose(spanish_turn(message))

    assert "escalate_to_human" not in [step["action"] for step in proposed.proposals]
