"""Holds made in chat count against the client's address like those made through the holds API:
one address cannot empty a day by opening conversation after conversation, while a client at
another address still holds and books."""

import pytest
from django.core.cache import cache
from django.test import Client as HttpClient

from agent.models import Conversation
from bookings.models import Appointment, SlotHold

from .chat_http import chat, confirm, started

ATTACKER = "203.0.113.7"
HONEST = "198.51.100.20"
TIMES = ("Wednesday at 10", "Wednesday at 11", "Wednesday at 12", "Wednesday at 13")


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def test_one_address_holds_at_most_the_limit_across_conversations_and_another_still_books(
    shop, frozen_now, settings
):
    settings.ORDINA_MODEL = "offline"
    settings.HOLDS_PER_ADDRESS = 3
    attacker = HttpClient(REMOTE_ADDR=ATTACKER)
    answers = []
    for when in TIMES:
        token = started(attacker, shop.slug)
        [answer] = chat(attacker, token, f"a haircut {when}")
        answers.append(answer)

    assert [answer["conversation"]["state"] for answer in answers] == [
        "slot_held",
        "slot_held",
        "slot_held",
        "service_chosen",
    ]
    assert "the most one client may hold at once" in answers[-1]["reply"]["text"]
    assert SlotHold.objects.count() == 3

    honest = HttpClient(REMOTE_ADDR=HONEST)
    token = started(honest, shop.slug)
    chat(honest, token, "a haircut Wednesday at 13", "Ana Silva", "ana@example.com")
    booked = confirm(honest, token, key="honest-1")

    assert booked.status_code == 201, booked.content
    assert Appointment.objects.get().client.name == "Ana Silva"
    assert Conversation.objects.filter(state="slot_held").count() == 3
