"""Every refusal a Spanish client can meet is told in Spanish, and the audit log records the
same English reason it records for an English client: the owner reads one log, whatever
language a client happened to write in.

Each case is a real turn (ScriptedModel proposing the command, the three gates judging it,
the audit row written) in a conversation begun in English and in one begun in Spanish; the
Spanish words are checked exactly, and none reads as English to the same reading tables that
tell a Spanish message from an English one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agent.conversation.confirming import conversation_confirm
from agent.conversation.references import reference_of
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import AgentGrant, AuditEntry, Conversation
from agent.offline.languages import clear_language
from bookings.models import Business
from tests.agent.conversation.chat_http import shown_card
from tests.agent.conversation.conftest import WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")

TEN = lisbon(WEDNESDAY, "10:00").isoformat()
# Each language's conversation books its own time: both are in one database.
BOOKS_AT = {"en": TEN, "es": lisbon(WEDNESDAY, "11:00").isoformat()}
# What the client writes at each step, in each language: plain enough to ask for nothing.
SAYS = {
    "en": {
        "hold": "I'd like an appointment on Wednesday at 10, please",
        "details": "my name is Ana Pérez and my email is ana@example.com",
        "service": "I would like the haircut, please",
        "ask": "I have a question for you, please",
    },
    "es": {
        "hold": "quería una cita el miércoles a las 11, por favor",
        "details": "me llamo Ana Pérez y mi correo es ana@example.com",
        "service": "quería el corte de pelo, por favor",
        "ask": "tengo una pregunta para usted, por favor",
    },
}


Setup = Callable[[Business, str], str]


def turn(token: str, lang: str, step: str, *proposals: dict[str, Any]):
    model = ScriptedModel([Proposed(proposals)])
    result = turn_take(token=token, text=SAYS[lang][step], model=model)
    assert result.conversation.language == lang
    return result


def started(shop: Business, lang: str) -> str:
    shop.language = lang
    shop.save()
    _conversation, token, _greeting = conversation_start(business=shop)
    return token


def held(shop: Business, lang: str) -> str:
    token = started(shop, lang)
    hold = {"action": "hold_slot", "service": str(_service(shop)), "start": BOOKS_AT[lang]}
    turn(token, lang, "hold", hold)
    return token


def booked(shop: Business, lang: str) -> str:
    token = held(shop, lang)
    turn(
        token,
        lang,
        "details",
        {"action": "collect_contact", "name": "Ana Pérez"},
        {"action": "collect_contact", "email": "ana@example.com"},
    )
    confirmed = conversation_confirm(token=token, idempotency_key="k", card=shown_card(token))
    assert confirmed.executed[0].verdict.passed
    return token


def chosen(shop: Business, lang: str) -> str:
    token = started(shop, lang)
    turn(token, lang, "service", {"action": "choose_service", "service": str(_service(shop))})
    return token


def negotiates(setup: Setup) -> Setup:
    """``setup`` at a business that takes price offers (its assistant may then propose one)."""

    def negotiating(shop: Business, lang: str) -> str:
        shop.negotiable, shop.concession_rule = True, "halfway"
        shop.save()
        return setup(shop, lang)

    return negotiating


def refunds(setup: Setup) -> Setup:
    """``setup`` at a business whose assistant may prepare refunds."""

    def refunding(shop: Business, lang: str) -> str:
        AgentGrant.objects.get_or_create(business=shop, action="refund")
        return setup(shop, lang)

    return refunding


def _service(shop: Business) -> int:
    return shop.services.get().pk


# (setup, the command the model proposes — "{ref}" is the conversation's appointment —, what
# the Spanish client reads)
CASES: dict[str, tuple[Setup, dict[str, Any], str]] = {
    "an unknown service": (
        started,
        {"action": "offer_slots", "service": "Masaje"},
        "No ofrecemos ese servicio.",
    ),
    "an unreadable time of day": (
        started,
        {"action": "offer_slots", "service": "Haircut", "from_time": "9h"},
        "No he entendido esa hora del día.",
    ),
    "an unreadable day": (
        started,
        {"action": "offer_slots", "service": "Haircut", "day": "mañana"},
        "No he entendido esa fecha.",
    ),
    "a day that has passed": (
        started,
        {"action": "offer_slots", "service": "Haircut", "day": "2026-11-29"},
        "El domingo 29 de noviembre ya ha pasado.",
    ),
    "a day beyond the horizon": (
        started,
        {"action": "offer_slots", "service": "Haircut", "day": "2027-01-20"},
        "Aceptamos reservas hasta el miércoles 30 de diciembre, así que ese día queda "
        "demasiado lejos.",
    ),
    "an unreadable start": (
        started,
        {"action": "hold_slot", "service": "Haircut", "start": "pronto"},
        "No he entendido esa fecha y hora.",
    ),
    "a start that has passed": (
        started,
        {"action": "hold_slot", "service": "Haircut", "start": "2026-11-30T07:00:00+00:00"},
        "El lunes 30 de noviembre a las 07:00 ya ha pasado.",
    ),
    "nothing held to confirm": (
        started,
        {"action": "request_confirmation"},
        "Todavía no le estoy guardando ninguna hora: elija primero una hora.",
    ),
    "a model confirming": (
        started,
        {"action": "confirm_booking", "card": "x"},
        "No se reserva nada hasta que pulse Confirmar en la reserva que se le muestra.",
    ),
    "not a name": (
        started,
        {"action": "collect_contact", "name": "12345"},
        "Eso no parece un nombre: ¿podría escribir a nombre de quién hago la reserva?",
    ),
    "an email without @": (
        started,
        {"action": "collect_contact", "email": "ana.example.com"},
        "A esa dirección de correo electrónico le falta la @. Una dirección de correo "
        "electrónico tiene esta forma: nombre@example.com.",
    ),
    "an email too long": (
        started,
        {"action": "collect_contact", "email": "a" * 250 + "@example.com"},
        "Esa dirección de correo electrónico es demasiado larga.",
    ),
    "a phone too short": (
        started,
        {"action": "collect_contact", "phone": "12"},
        "Ese número de teléfono es demasiado corto. Escríbalo con su prefijo, o con + y el "
        "código del país.",
    ),
    "an email the client never typed": (
        started,
        {"action": "collect_contact", "email": "otra@example.com"},
        "Solo puedo usar los datos de contacto que escriba usted mismo: ¿podría escribir aquí "
        "su dirección de correo electrónico?",
    ),
    "an offer with no service": (
        negotiates(started),
        {"action": "offer_price", "amount": "50"},
        "¿Para qué servicio es su oferta? Dígamelo y le responderé.",
    ),
    "an earlier booking before the code": (
        started,
        {"action": "choose_appointment", "appointment": "ABC123"},
        "Para ver una reserva que hizo antes, confirme primero su dirección de correo "
        "electrónico con el código que puedo enviarle.",
    ),
    "another conversation's appointment": (
        started,
        {"action": "cancel_appointment", "appointment": "ZZZ999"},
        "Aquí solo puedo ayudarle con la reserva hecha en este chat.",
    ),
    "details missing": (
        held,
        {"action": "request_confirmation"},
        "Para poder hacer la reserva, todavía necesito su nombre y dirección de correo "
        "electrónico.",
    ),
    "a cancel nobody asked for": (
        booked,
        {"action": "cancel_appointment", "appointment": "{ref}"},
        "Solo lo haré si usted me lo pide: dígame si quiere cancelarla.",
    ),
    "a move nobody asked for": (
        booked,
        {"action": "reschedule_appointment", "appointment": "{ref}", "start": TEN},
        "Solo lo haré si usted me lo pide: dígame si quiere cambiarla.",
    ),
    "a refund nobody asked for": (
        refunds(booked),
        {"action": "refund", "appointment": "{ref}", "amount": "10.00"},
        "Solo lo haré si usted me lo pide: dígame si quiere un reembolso.",
    ),
    "a second booking": (
        booked,
        {"action": "hold_slot", "service": "Haircut", "start": TEN},
        "Ya tiene una reserva en este chat.",
    ),
    "no deposit to pay": (
        booked,
        {"action": "request_payment", "appointment": "{ref}"},
        "Su reserva no tiene ningún depósito que pagar.",
    ),
    "confirming a booking made": (
        booked,
        {"action": "request_confirmation"},
        "Su reserva ya está hecha.",
    ),
    "an offer after booking": (
        negotiates(booked),
        {"action": "offer_price", "amount": "50"},
        "Su reserva ya está hecha, al precio que se le mostró cuando la confirmó.",
    ),
    "an offer in another currency": (
        negotiates(chosen),
        {"action": "offer_price", "amount": "50", "currency": "USD"},
        "Aquí los precios están en EUR; ofrezca una cantidad en esa moneda.",
    ),
    "an offer of nothing": (
        negotiates(chosen),
        {"action": "offer_price", "amount": "0"},
        "Una oferta debe ser de más de 0.",
    ),
}


def refused(shop: Business, lang: str, setup: Setup, command: dict[str, Any]) -> tuple[str, str]:
    """What the client reads of the refusal, and the reason its audit row records (the
    conversation's own reference written as <ref>)."""
    token = setup(shop, lang)
    conversation = Conversation.objects.get(language=lang)
    reference = reference_of(conversation.appointment) if conversation.appointment else None
    proposal = {
        key: value.replace("{ref}", reference or "") if isinstance(value, str) else value
        for key, value in command.items()
    }
    result = turn(token, lang, "ask", proposal)
    [done] = result.executed
    assert not done.verdict.passed
    entry = AuditEntry.objects.filter(conversation=str(conversation.public_id)).latest("id")
    reason = entry.reason.replace(reference, "<ref>") if reference else entry.reason
    return done.verdict.said, reason


@pytest.mark.parametrize(("setup", "command", "spanish"), CASES.values(), ids=CASES.keys())
def test_a_spanish_client_reads_the_refusal_in_spanish_and_the_audit_keeps_it_in_english(
    shop, setup, command, spanish
):
    english_said, english_reason = refused(shop, "en", setup, command)

    said, reason = refused(shop, "es", setup, command)

    assert said == spanish
    # A short sentence may say too little to tell its language; none reads as English.
    assert clear_language(said) != "en", said
    assert reason == english_reason
    assert english_said != said


def test_a_refusal_a_spanish_client_asked_about_is_in_the_reply(shop):
    token = booked(shop, "es")

    result = turn_take(
        token=token,
        text="¿me puede dar cita otra vez el miércoles a las 10?",
        model=ScriptedModel(
            [Proposed(({"action": "hold_slot", "service": "Haircut", "start": TEN},))]
        ),
    )

    assert "Ya tiene una reserva en este chat." in result.reply.text
    assert clear_language(result.reply.text) == "es"


def test_a_day_too_far_is_refused_in_the_spanish_reply_and_survives_the_guards(shop):
    token = started(shop, "es")
    model = ScriptedModel(
        [Proposed(({"action": "offer_slots", "service": "Haircut", "day": "2027-01-20"},))]
    )

    result = turn_take(token=token, text="quería una cita el 20 de enero", model=model)

    assert result.reply.text.startswith(
        "Aceptamos reservas hasta el miércoles 30 de diciembre, así que ese día queda "
        "demasiado lejos."
    )
    assert AuditEntry.objects.get(action="offer_slots").reason == (
        "2027-01-20 is beyond the booking horizon"
    )
