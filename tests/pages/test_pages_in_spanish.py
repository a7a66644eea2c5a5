"""The client pages in Spanish: the booking page of a Spanish business, and the appointment page
of a client who booked in a Spanish conversation (whatever the business's own language) — the
words, the days ("miércoles, 2 de diciembre") and the money ("60,00 €") as Spanish writes
them. English pages are the other tests' concern; here one English control per page shows the
language really comes from the business or the conversation."""

import re
import uuid
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from django.test import Client as HttpClient

from agent.models import Conversation
from bookings.services import ClientDetails, appointment_create
from bookings.tokens import manage_url
from pages.embed.views import widget_source
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import BusinessFactory, ServiceFactory
from tests.pages.test_booking_page import json_block
from tests.pages.test_manage_page import text_of

pytestmark = pytest.mark.django_db


# --- the booking page -------------------------------------------------------------------------


@pytest.fixture
def clinic():
    business = BusinessFactory(
        name="Clínica Sol", time_zone="Europe/Madrid", currency="EUR", language="es"
    )
    ServiceFactory(
        business=business,
        name="Limpieza dental",
        list_price=Decimal("45.00"),
        price_floor=Decimal("40.00"),
    )
    return business


def test_a_spanish_businesss_booking_page_is_in_spanish(clinic):
    response = HttpClient().get(f"/b/{clinic.slug}/")

    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="es">' in html
    words = text_of(response)
    assert "Reservar en Clínica Sol" in words  # the title
    assert "Hable con nosotros" in words
    assert "Elija una hora" in words
    assert "Limpieza dental · 45 min · 45,00 €" in words
    steps = re.findall(r'<span class="progress-label">(.*?)</span>', html)
    assert steps == ["Servicio", "Hora", "Datos", "Depósito", "Confirmada"]
    assert "Chat with us" not in words
    assert "Pick a time" not in words


def test_the_script_of_a_spanish_page_is_given_spanish_words_and_day_names(clinic):
    html = HttpClient().get(f"/b/{clinic.slug}/").content.decode()

    words = json_block(html, "booking-strings")
    assert words["bookingConfirmed"] == "Su reserva está confirmada"
    assert words["conflicts"]["not_offered"] == "Esa hora ya no se ofrece. Elija otra, por favor."
    # The script writes "miércoles, 2 de diciembre" from these.
    assert words["dayLong"] == "{weekday}, {day} de {month}"
    assert words["calendar"]["weekdays"][2] == "miércoles"
    assert words["calendar"]["months"][11] == "diciembre"
    assert words["calendar"]["monthsShort"][11] == "dic"  # a day button: "2 dic"


def test_an_english_businesss_page_stays_english(clinic):
    clinic.language = "en"
    clinic.save()

    response = HttpClient().get(f"/b/{clinic.slug}/")

    words = text_of(response)
    assert "Chat with us" in words
    assert "Limpieza dental · 45 min · €45.00" in words
    words = json_block(response.content.decode(), "booking-strings")
    assert words["dayLong"] == "{weekday} {day} {month}"
    assert words["calendar"]["monthsShort"][11] == "Dec"


def test_a_business_language_with_no_locale_data_is_written_as_english_not_an_error(clinic):
    clinic.language = "xx"  # free text in the business's settings
    clinic.save()

    response = HttpClient().get(f"/b/{clinic.slug}/")

    assert response.status_code == 200
    assert "Limpieza dental · 45 min · €45.00" in text_of(response)


# --- the appointment page ---------------------------------------------------------------------


def booked_in_conversation(service, *, language: str | None) -> str:
    """The manage path of an appointment booked through the core; with a language, booked in a
    conversation held in that language (as the chat's Confirm links them)."""
    appointment = appointment_create(
        service=service,
        start=lisbon(WEDNESDAY, "10:00"),
        client=ClientDetails(name="Ana Silva", email="ana@example.com"),
    ).appointment
    if language is not None:
        Conversation.objects.create(
            business=service.business,
            token_hash=uuid.uuid4().hex,
            appointment=appointment,
            language=language,
        )
    return urlsplit(manage_url(appointment.public_id)).path


def test_the_appointment_page_of_a_spanish_conversation_is_in_spanish(salon, haircut, frozen_now):
    # The salon writes in English; the client booked in a chat held in Spanish.
    path = booked_in_conversation(haircut, language="es")

    response = HttpClient().get(path)

    assert response.status_code == 200
    assert '<html lang="es">' in response.content.decode()
    words = text_of(response)
    assert "Su cita" in words
    assert "miércoles, 2 de diciembre de 2026, 10:00–11:00 (Europe/Lisbon)" in words
    assert "Confirmada" in words
    assert "60,00 €" in words
    assert "Sin depósito: no se pagó nada por adelantado." in words
    assert "Cambiar a otra hora" in words
    assert "Cancelaciones y reembolsos" in words


def test_the_cancel_step_of_a_spanish_conversation_is_in_spanish(salon, haircut, frozen_now):
    path = booked_in_conversation(haircut, language="es")

    words = text_of(HttpClient().get(f"{path}cancel/"))

    assert "¿Cancelar esta cita?" in words
    assert "Sí, cancelarla" in words
    assert "Su cita de Haircut del miércoles, 2 de diciembre de 2026" in words


def test_the_appointment_page_without_a_conversation_is_in_the_businesss_language(
    salon, haircut, frozen_now
):
    path = booked_in_conversation(haircut, language=None)

    words = text_of(HttpClient().get(path))

    assert "Your appointment" in words
    assert "Wednesday 2 December 2026, 10:00–11:00 (Europe/Lisbon)" in words
    assert "€60.00" in words


# --- the widget -------------------------------------------------------------------------------


def test_the_widget_is_served_with_its_words_in_every_language():
    served = HttpClient().get("/widget.js").content.decode()

    assert served == widget_source().decode()
    assert '"es": {"open": "Reservar cita", "close": "Cerrar"}' in served
    assert '"en": {"open": "Book an appointment", "close": "Close"}' in served
