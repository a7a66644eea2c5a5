"""Reminder and confirmation emails in the client's language: the language of the conversation
the appointment was booked in, else the business's — words, days ("miércoles, 2 de diciembre")
and all. An appointment booked without a conversation at an English business stays English."""

import uuid

import pytest

from agent.models import Conversation
from bookings.services import ClientDetails
from bookings.tokens import manage_token
from orchestration.appointment_changes import appointment_create
from reminders.delivery import render
from reminders.models import Reminder, ReminderKind
from tests.bookings.conftest import WEDNESDAY, lisbon

pytestmark = pytest.mark.django_db


@pytest.fixture
def booking(salon, haircut, frozen_now):
    """Ana's haircut on Wednesday 2 December 2026, 10:00 in Lisbon, booked on the Monday."""
    salon.name = "Studio Lumen"
    salon.save()
    return appointment_create(
        service=haircut,
        start=lisbon(WEDNESDAY, "10:00"),
        client=ClientDetails("Ana", "ana@example.com"),
    ).appointment


def in_conversation(appointment, language: str) -> None:
    Conversation.objects.create(
        business=appointment.business,
        token_hash=uuid.uuid4().hex,
        appointment=appointment,
        language=language,
    )


def email(appointment, kind: str) -> tuple[str, str]:
    return render(Reminder.objects.get(appointment=appointment, kind=kind))


def test_the_confirmation_of_a_booking_made_in_a_spanish_chat_is_in_spanish(booking):
    in_conversation(booking, "es")  # the salon itself writes in English

    subject, body = email(booking, ReminderKind.CONFIRMATION)

    assert subject == "Su cita de Haircut en Studio Lumen está reservada"
    assert body.startswith("Hola, Ana:\n")
    assert (
        "Tiene reservada su cita de Haircut el miércoles, 2 de diciembre de 2026, a las 10:00 "
        "(hora de Europe/Lisbon)." in body
    )
    assert "Para ver, cambiar o cancelar su cita:" in body
    assert manage_token(booking.public_id) in body


def test_the_day_before_reminder_of_a_spanish_chat_is_in_spanish(booking):
    in_conversation(booking, "es")

    subject, body = email(booking, ReminderKind.BEFORE_24H)

    assert subject == "Le esperamos mañana a las 10:00 — Studio Lumen"
    assert (
        "Le recordamos su cita de Haircut mañana, miércoles, 2 de diciembre, a las 10:00." in body
    )
    assert "¿No puede venir?" in body


def test_a_spanish_businesss_emails_are_in_spanish_without_a_conversation(salon, booking):
    salon.language = "es"
    salon.save()

    subject, body = email(booking, ReminderKind.BEFORE_2H)

    assert subject == "Hoy a las 10:00: Haircut en Studio Lumen"
    assert "Le esperamos hoy a las 10:00 para su cita de Haircut." in body


def test_a_booking_made_in_an_english_chat_stays_english_at_a_spanish_business(salon, booking):
    salon.language = "es"
    salon.save()
    in_conversation(booking, "en")  # the client wrote in English

    subject, body = email(booking, ReminderKind.CONFIRMATION)

    assert subject == "Your Haircut at Studio Lumen is booked"
    assert "on Wednesday 2 December 2026 at 10:00 (Europe/Lisbon time)." in body


def test_a_name_with_an_apostrophe_is_written_as_it_is(booking):
    # A plain-text email: nothing in it is HTML-escaped.
    booking.client.name = "Ana O'Neill"
    booking.client.save()

    _, body = email(booking, ReminderKind.CONFIRMATION)

    assert body.startswith("Hello Ana O'Neill,\n")
