"""The booking core's own refusals reach a Spanish client in Spanish — a time not open, a time
lost since it was held — while the audit log keeps the core's English sentence."""

import datetime as dt

import pytest
import time_machine

from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import AuditEntry
from agent.offline.model import OfflineModel
from bookings.services import ClientDetails, appointment_create
from tests.agent.conversation.chat_http import shown_card
from tests.agent.conversation.conftest import NOW, WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")


@pytest.fixture
def clinic(shop, haircut):
    shop.language = "es"
    shop.save()
    haircut.name = "Corte de pelo"
    haircut.save()
    return shop


def test_a_time_not_open_is_refused_in_spanish(clinic, haircut):
    _conversation, token, _greeting = conversation_start(business=clinic)
    hold = {"action": "hold_slot", "service": str(haircut.pk), "start": "2026-12-02T03:00:00Z"}

    result = turn_take(
        token=token,
        text="quiero un corte a las 3 de la mañana",
        model=ScriptedModel(
            [Proposed(({"action": "choose_service", "service": str(haircut.pk)}, hold))]
        ),
    )

    assert "Esa hora no está disponible." in result.reply.text


def test_a_time_lost_since_it_was_held_is_refused_in_spanish(clinic, haircut):
    _conversation, token, _greeting = conversation_start(business=clinic)
    for text in ("quería un corte de pelo el miércoles a las 10", "Ana Pérez", "ana@example.com"):
        turn_take(token=token, text=text, model=OfflineModel())
    later = NOW + dt.timedelta(minutes=clinic.hold_minutes + 1)
    appointment_create(
        service=haircut,
        start=lisbon(WEDNESDAY, "10:00"),
        client=ClientDetails(name="Bo", email="bo@example.com"),
        now=later,
    )

    with time_machine.travel(later, tick=False):
        lost = conversation_confirm(token=token, idempotency_key="k", card=shown_card(token))

    assert "desde entonces la ha ocupado otra persona" in lost.reply.text
    refused = AuditEntry.objects.filter(action="confirm_booking").latest("id")
    assert refused.reason == "the hold ran out (no slot is held); the time is taken"
