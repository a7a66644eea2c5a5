"""A returning client with the offline model, as a browser walk-through found it: in a chat opened
from their manage link (the booking already chosen) or after proving who they are with a code,
they move their booking to a time they name or one of the times they are offered, cancel it
without being asked what to book, hear when it is without being told the information is
missing, and are told a hand-over once — in English and in Spanish, through real turns."""

import pytest

from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import turn_take
from agent.models import AuditEntry
from agent.offline.model import OfflineModel
from agent.verification.service import conversation_start_for_appointment
from bookings.models import Appointment, AppointmentStatus
from tests.agent.conversation.conftest import NOW, WEDNESDAY, lisbon
from tests.agent.conversation.tasks_at_once import tasks_run_at_once  # noqa: F401
from tests.agent.conversation.test_returning_client import (  # noqa: F401
    booked_on_the_page,
    verified,
)
from tests.factories import ServiceFactory

pytestmark = pytest.mark.usefixtures("frozen_now", "tasks_run_at_once")

TEN = lisbon(WEDNESDAY, "10:00")
TUESDAY = WEDNESDAY.replace(day=1)
FRIDAY = WEDNESDAY.replace(day=4)

# What the client must never be asked while they are about their booking.
BOOKING_PROMPT = {
    "en": "Which service would you like to book?",
    "es": "¿Qué servicio desea reservar?",
}
NO_INFORMATION = {"en": "I don't have that information", "es": "No tengo esa información"}
STANDING = {
    "en": "Your Haircut is booked for Wednesday 2 December at 10:00.",
    "es": "Su cita de Haircut está confirmada para el miércoles 2 de diciembre a las 10:00.",
}


@pytest.fixture
def visit(shop, haircut):
    return booked_on_the_page(haircut, TEN, "Ana Pérez", "ana@example.com")


@pytest.fixture(params=["manage link", "code"])
def opened(request, visit, verified):  # noqa: F811 - the imported fixture, by name
    """A chat about the visit, opened from its manage link or by the client's code; its token."""
    if request.param == "manage link":
        return lambda: from_the_manage_link(visit)
    return lambda: verified(visit.business, visit.client.email)


def speaking(shop, lang: str) -> None:
    shop.language = lang
    shop.save()


def from_the_manage_link(visit) -> str:
    _conversation, token = conversation_start_for_appointment(appointment=visit, now=NOW)
    return token


def say(token: str, text: str):
    return turn_take(token=token, text=text, model=OfflineModel())


def press(token: str, reply) -> None:
    card = reply.choices["effect"]["card"]
    assert conversation_confirm(token=token, idempotency_key="press", card=card).executed


def prepared_moves() -> list[str]:
    return list(
        AuditEntry.objects.filter(action="reschedule_appointment", result="EXECUTE").values_list(
            "action", flat=True
        )
    )


# --- moving the booking ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text", "moved_to"),
    [
        ("en", "move it to 12", lisbon(WEDNESDAY, "12:00")),
        ("en", "move it to Friday at 10", lisbon(FRIDAY, "10:00")),
        ("en", "please move my appointment to 4 December at 10:00", lisbon(FRIDAY, "10:00")),
        ("en", "reschedule to tomorrow at 15:00", lisbon(TUESDAY, "15:00")),
        ("es", "cámbiela al martes a las 10", lisbon(TUESDAY, "10:00")),
        ("es", "¿me puede mover la cita al viernes a las 11?", lisbon(FRIDAY, "11:00")),
    ],
)
def test_a_chat_from_the_manage_link_moves_the_booking_to_the_time_named(
    shop, visit, lang, text, moved_to
):
    speaking(shop, lang)
    token = from_the_manage_link(visit)

    prepared = say(token, text)

    assert prepared_moves() == ["reschedule_appointment"]
    assert BOOKING_PROMPT[lang] not in prepared.reply.text
    assert "services" not in prepared.reply.choices
    press(token, prepared.reply)
    assert Appointment.objects.get(pk=visit.pk).starts_at == moved_to


@pytest.mark.parametrize(
    ("lang", "move", "then", "moved_to"),
    [
        ("en", "move my appointment", "Friday at 10", lisbon(FRIDAY, "10:00")),
        ("es", "cambiar mi cita", "el viernes a las 10", lisbon(FRIDAY, "10:00")),
    ],
)
def test_a_move_without_a_time_offers_times_of_the_same_service_then_moves_to_one(
    shop, visit, lang, move, then, moved_to
):
    speaking(shop, lang)
    token = from_the_manage_link(visit)

    offered = say(token, move)

    assert [o.action for o in offered.outcomes] == ["offer_slots"]
    assert offered.conversation.offered  # times of the haircut, to choose from
    assert BOOKING_PROMPT[lang] not in offered.reply.text
    # A slot's button would hold a time for a new booking: the move is answered in words.
    assert "slots" not in offered.reply.choices
    assert "services" not in offered.reply.choices

    prepared = say(token, then)
    press(token, prepared.reply)
    assert Appointment.objects.get(pk=visit.pk).starts_at == moved_to
    assert Appointment.objects.count() == 1  # moved, not booked again


@pytest.mark.parametrize(
    ("lang", "move", "first"),
    [("en", "move my appointment", "the first one"), ("es", "cambiar mi cita", "la primera")],
)
def test_one_of_the_times_offered_for_a_move_is_picked_and_moves_the_booking(
    shop,
    visit,
    verified,  # noqa: F811 - the imported fixture, by name
    lang,
    move,
    first,
):
    speaking(shop, lang)
    token = verified(shop, "ana@example.com")
    offered = say(token, move)
    [chosen, shown] = [o.action for o in offered.outcomes]
    assert (chosen, shown) == ("choose_appointment", "offer_slots")

    prepared = say(token, first)

    assert [o.action for o in prepared.outcomes] == ["reschedule_appointment"]
    press(token, prepared.reply)
    moved = Appointment.objects.get(pk=visit.pk)
    assert moved.starts_at.isoformat() == offered.conversation.offered[0]
    assert moved.status == AppointmentStatus.CONFIRMED
    assert Appointment.objects.count() == 1


@pytest.mark.parametrize(
    ("lang", "text", "moved_to"),
    [
        ("en", "can you move my appointment to Friday at 10?", lisbon(FRIDAY, "10:00")),
        ("es", "cámbiela al martes a las 10", lisbon(TUESDAY, "10:00")),
    ],
)
def test_a_client_verified_by_code_moves_their_booking_in_their_words(
    shop,
    visit,
    verified,  # noqa: F811 - the imported fixture, by name
    lang,
    text,
    moved_to,
):
    speaking(shop, lang)
    token = verified(shop, "ana@example.com")

    prepared = say(token, text)

    assert [o.action for o in prepared.outcomes] == ["choose_appointment", "reschedule_appointment"]
    press(token, prepared.reply)
    assert Appointment.objects.get(pk=visit.pk).starts_at == moved_to


# --- cancelling, asking, handing over ------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text"), [("en", "cancel my appointment"), ("es", "quiero cancelar mi cita")]
)
def test_a_cancel_card_is_not_shown_with_a_booking_prompt(shop, visit, opened, lang, text):
    speaking(shop, lang)
    token = opened()

    prepared = say(token, text)

    assert BOOKING_PROMPT[lang] not in prepared.reply.text
    assert "services" not in prepared.reply.choices
    button = prepared.reply.choices["effect"]["button"]
    assert f"«{button}»" in prepared.reply.text or f"“{button}”" in prepared.reply.text
    press(token, prepared.reply)
    assert Appointment.objects.get(pk=visit.pk).status == AppointmentStatus.CANCELLED


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "what bookings do I have?"),
        ("en", "what time is my appointment?"),
        ("es", "¿a qué hora es mi cita?"),
        ("es", "¿qué citas tengo?"),
    ],
)
def test_the_booking_is_told_without_saying_the_information_is_missing(
    shop, visit, opened, lang, text
):
    speaking(shop, lang)
    token = opened()

    answered = say(token, text)

    assert STANDING[lang] in answered.reply.text
    assert NO_INFORMATION[lang] not in answered.reply.text
    assert BOOKING_PROMPT[lang] not in answered.reply.text


@pytest.mark.parametrize(
    ("lang", "text", "told"),
    [
        (
            "en",
            "a person please",
            "I've handed this conversation over. A member of the team will reply to you here.",
        ),
        (
            "es",
            "quiero hablar con una persona",
            "He pasado esta conversación a una persona. Un miembro del equipo le responderá aquí.",
        ),
    ],
)
def test_a_hand_over_is_told_once(shop, visit, lang, text, told):
    speaking(shop, lang)
    token = from_the_manage_link(visit)

    handed = say(token, text)

    assert handed.conversation.state == "escalated"
    assert handed.reply.text == told


@pytest.mark.parametrize(
    ("lang", "colour", "another_day"),
    [
        ("en", "a colour please", "can we do another day, Friday?"),
        ("es", "un color, por favor", "¿podemos otro día, el viernes?"),
    ],
)
def test_another_day_while_booking_another_service_is_about_its_times_not_the_booking_made(
    shop, visit, opened, lang, colour, another_day
):
    ServiceFactory(business=shop, name="Colour" if lang == "en" else "Color", duration_minutes=60)
    speaking(shop, lang)
    token = opened()
    say(token, colour)

    offered = say(token, another_day)

    assert [o.action for o in offered.outcomes] == ["offer_slots"]
    assert offered.conversation.service.name != "Haircut"
    assert offered.conversation.offered
    assert all(at.startswith(FRIDAY.isoformat()) for at in offered.conversation.offered[:2])
    assert "slots" in offered.reply.choices  # a new booking's times: its buttons hold them


@pytest.mark.parametrize(
    ("lang", "move", "first", "after"),
    [
        (
            "en",
            "move my appointment",
            "the first one",
            "Is there anything else I can help you with?",
        ),
        ("es", "cambiar mi cita", "la primera", "¿Puedo ayudarle en algo más?"),
    ],
)
def test_once_a_chosen_booking_is_moved_the_times_offered_for_it_are_done_with(
    shop, visit, lang, move, first, after
):
    speaking(shop, lang)
    token = from_the_manage_link(visit)
    say(token, move)
    prepared = say(token, first)
    card = prepared.reply.choices["effect"]["card"]

    moved = conversation_confirm(token=token, idempotency_key="press", card=card)

    assert moved.conversation.offered == []
    assert moved.reply.text.endswith(after)
