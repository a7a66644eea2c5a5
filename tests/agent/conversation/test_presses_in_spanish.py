"""What a client does by pressing — Confirm, an effect card's button, a form — is answered in
the conversation's language even when called directly, not through the chat API (which sets the
language too): its refusals, its next step, and the press recorded as the client's message in
the words of the button. The caller's language is back afterwards; the audit stays English."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from agent.conversation.client_actions import details_give
from agent.conversation.confirming import conversation_confirm
from agent.conversation.references import reference_of
from agent.conversation.turns import turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import AuditEntry, Conversation, Message, MessageRole
from agent.offline.languages import clear_language
from bookings.models import Appointment
from tests.agent.conversation.test_refusals_in_spanish import booked, held, turn

pytestmark = pytest.mark.usefixtures("frozen_now")


def client_messages() -> list[str]:
    return list(
        Message.objects.filter(role=MessageRole.CLIENT)
        .order_by("id")
        .values_list("text", flat=True)
    )


def test_confirm_pressed_with_a_detail_missing_is_refused_in_spanish(shop):
    token = held(shop, "es")
    turn(token, "es", "details", {"action": "collect_contact", "name": "Ana Pérez"})

    with translation.override("en"):
        result = conversation_confirm(token=token, idempotency_key="k", card="")
        assert translation.get_language() == "en"

    assert not result.executed[0].verdict.passed
    assert (
        "Para poder hacer la reserva, todavía necesito su dirección de correo electrónico."
        in result.reply.text
    )
    assert clear_language(result.reply.text) == "es", result.reply.text
    assert client_messages()[-1] == "Confirmar"
    entry = AuditEntry.objects.filter(action="confirm_booking").latest("id")
    assert entry.reason == "required details missing: email"


def test_a_card_pressed_after_its_booking_changed_is_refused_in_spanish(shop):
    token = booked(shop, "es")
    reference = reference_of(Conversation.objects.get().appointment)
    cancel = {"action": "cancel_appointment", "appointment": reference}
    prepared = turn_take(
        token=token, text="quiero cancelar la cita", model=ScriptedModel([Proposed((cancel,))])
    )
    card = prepared.reply.choices["effect"]["card"]
    later = Appointment.objects.get().starts_at + dt.timedelta(hours=3)
    Appointment.objects.update(
        starts_at=later,
        ends_at=later + dt.timedelta(hours=1),
        occupied_from=later,
        occupied_until=later + dt.timedelta(hours=1),
    )

    pressed = conversation_confirm(token=token, idempotency_key="press", card=card)

    assert not pressed.executed[0].verdict.passed
    assert (
        "Su reserva ha cambiado desde que se lo mostré, así que no lo he hecho; dígame de nuevo "
        "qué desea." in pressed.reply.text
    )
    assert client_messages()[-1] == "Cancelar cita"
    entry = AuditEntry.objects.filter(action="cancel_appointment").latest("id")
    assert entry.reason == "the booking changed since its card was shown"


def test_a_form_with_a_wrong_email_is_answered_in_spanish(shop):
    token = held(shop, "es")

    with translation.override("en"):
        result = details_give(token=token, name="Ana Pérez", email="@example.com")
        assert translation.get_language() == "en"

    assert "Esa dirección de correo electrónico no tiene nada antes de la @." in result.reply.text
    assert clear_language(result.reply.text) == "es", result.reply.text
    entry = AuditEntry.objects.filter(action="collect_contact").latest("id")
    assert entry.reason == "'@example.com' is not an email address"
