"""A client's own manage link opens a chat with the business's assistant about that appointment,
chosen already — and the manage token never reaches the booking page: the press is a POST, and
the page is handed only the new conversation's token, in a short-lived cookie scoped to that
business's page. A cancelled or unknown link, or a press from another site, opens nothing. The
link proves that appointment, not its client: the chat reaches no other booking of the client
(anyone who books with their address gets a link of their own), no one else's, and no other
business's."""

from urllib.parse import urlsplit

import pytest
from django.test import Client as HttpClient

from agent.conversation.confirming import conversation_confirm
from agent.conversation.references import reference_of
from agent.conversation.turns import conversation_for_token, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import Conversation
from agent.offline.model import OfflineModel
from bookings.actors import Actor
from bookings.models import Appointment, AppointmentStatus
from bookings.services import appointment_cancel, appointment_create
from bookings.services.clients import ClientDetails
from bookings.tokens import manage_url
from pages.manage.assistant import HANDOFF_COOKIE
from tests.agent.conversation.conftest import NOW, WEDNESDAY, lisbon
from tests.factories import BusinessFactory, OpeningHoursFactory, ServiceFactory

pytestmark = pytest.mark.usefixtures("frozen_now")

TEN = lisbon(WEDNESDAY, "10:00")
TWO = lisbon(WEDNESDAY, "14:00")


def booked(service, start, name="Ana Pérez", email="ana@example.com") -> Appointment:
    return appointment_create(
        service=service, start=start, client=ClientDetails(name=name, email=email), now=NOW
    ).appointment


def manage_path(appointment: Appointment) -> str:
    return urlsplit(manage_url(appointment.public_id)).path


def ask_the_assistant(appointment: Appointment, *, came_from: str = "same-origin"):
    """The client's press on their appointment page (``came_from``: the browser's
    Sec-Fetch-Site, where the press came from)."""
    return HttpClient().post(
        manage_path(appointment) + "assistant/", headers={"Sec-Fetch-Site": came_from}
    )


def handed_over(response) -> str:
    """The conversation token the booking page's script is handed."""
    return response.cookies[HANDOFF_COOKIE].value


def test_the_manage_link_opens_a_chat_about_its_appointment_that_cancels_by_the_clients_press(
    shop, haircut
):
    visit = booked(haircut, TEN)

    response = ask_the_assistant(visit)

    assert response.status_code == 303
    assert response["Location"] == f"/b/{shop.slug}/"
    cookie = response.cookies[HANDOFF_COOKIE]
    assert cookie["path"] == f"/b/{shop.slug}/"
    assert cookie["samesite"] == "Strict"
    assert 0 < int(cookie["max-age"]) <= 300
    # The manage token is in no URL the booking page sees, nor in what it is handed.
    manage_token = manage_path(visit).split("/")[2]
    assert manage_token not in response["Location"] + cookie.value
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"]

    token = handed_over(response)
    conversation = conversation_for_token(token)
    assert conversation.business == shop
    assert (conversation.proven_appointment, conversation.subject) == (visit, visit)
    assert conversation.verified_client is None  # the link proves the booking, not the client

    prepared = turn_take(token=token, text="cancel my appointment", model=OfflineModel())
    card = prepared.reply.choices["effect"]["card"]
    conversation_confirm(token=token, idempotency_key="cancel-1", card=card)
    assert Appointment.objects.get(pk=visit.pk).status == AppointmentStatus.CANCELLED


def test_a_cancelled_appointments_link_opens_no_chat(shop, haircut):
    visit = booked(haircut, TEN)
    appointment_cancel(appointment=visit, actor=Actor.client(), reason="test", now=NOW)

    response = ask_the_assistant(visit)

    assert response.status_code == 409
    assert "This appointment is no longer booked" in response.content.decode()
    assert HANDOFF_COOKIE not in response.cookies
    assert not Conversation.objects.exists()


def test_an_unknown_link_is_the_one_not_found_page_and_opens_no_chat(db, frozen_now):
    response = HttpClient().post("/manage/" + "A" * 43 + "/assistant/")

    assert response.status_code == 404
    assert "This page could not be found" in response.content.decode()
    assert HANDOFF_COOKIE not in response.cookies
    assert not Conversation.objects.exists()


def test_a_press_from_another_site_or_a_get_opens_no_chat(shop, haircut):
    visit = booked(haircut, TEN)

    planted = ask_the_assistant(visit, came_from="cross-site")
    fetched = HttpClient().get(manage_path(visit) + "assistant/")

    assert planted.status_code == 403
    assert fetched.status_code == 405
    assert HANDOFF_COOKIE not in planted.cookies
    assert not Conversation.objects.exists()


def test_a_press_without_sec_fetch_site_is_judged_by_its_origin(shop, haircut):
    visit = booked(haircut, TEN)
    path = manage_path(visit) + "assistant/"

    planted = HttpClient().post(path, headers={"Origin": "https://elsewhere.example"})
    ours = HttpClient().post(path, headers={"Origin": "http://testserver"})
    typed = HttpClient().post(path)

    assert planted.status_code == 403
    assert HANDOFF_COOKIE not in planted.cookies
    assert (ours.status_code, typed.status_code) == (303, 303)


def test_the_chat_is_only_that_appointments_client_and_at_its_business(shop, haircut):
    """Bo books at the same salon; Ana also is a client of another salon, same address."""
    visit = booked(haircut, TEN)
    bos = booked(haircut, TWO, name="Bo Lind", email="bo@example.com")
    elsewhere = BusinessFactory(time_zone="Europe/Lisbon")
    OpeningHoursFactory(business=elsewhere, weekday=WEDNESDAY.weekday())
    there = booked(ServiceFactory(business=elsewhere), TEN)
    assert there.client.email == visit.client.email
    assert there.client != visit.client

    token = handed_over(ask_the_assistant(visit))
    conversation = conversation_for_token(token)

    assert conversation.business == shop
    # Bo's booking cannot be chosen or cancelled from Ana's chat, whatever a model proposes.
    tried = turn_take(
        token=token,
        text="cancel Bo's appointment",
        model=ScriptedModel(
            [
                Proposed(
                    (
                        {"action": "choose_appointment", "appointment": reference_of(bos)},
                        {"action": "cancel_appointment", "appointment": reference_of(bos)},
                    )
                )
            ],
            drafts=["Done."],
        ),
    )
    assert "effect" not in tried.reply.choices
    assert Appointment.objects.get(pk=bos.pk).status == AppointmentStatus.CONFIRMED
    # And the other salon's link opens a chat there, as that salon's client.
    other = conversation_for_token(handed_over(ask_the_assistant(there)))
    assert (other.business, other.proven_appointment) == (elsewhere, there)


def test_a_link_got_by_booking_with_someone_elses_address_reaches_none_of_their_bookings(
    shop, haircut
):
    """Mallory books with Ana's address (the booking joins Ana's client record) and opens a
    chat from the link she is sent: Ana's own booking stays out of reach."""
    anas = booked(haircut, TEN)
    mallorys = booked(haircut, TWO, name="Mallory", email="ANA@example.com")
    assert mallorys.client == anas.client

    token = handed_over(ask_the_assistant(mallorys))
    tried = turn_take(
        token=token,
        text="cancel my 10:00 appointment",
        model=ScriptedModel(
            [
                Proposed(
                    (
                        {"action": "choose_appointment", "appointment": reference_of(anas)},
                        {"action": "cancel_appointment", "appointment": reference_of(anas)},
                    )
                )
            ],
            drafts=["Done."],
        ),
    )

    assert [outcome.result for outcome in tried.outcomes] == ["BLOCK", "BLOCK"]
    assert "effect" not in tried.reply.choices
    assert Appointment.objects.get(pk=anas.pk).status == AppointmentStatus.CONFIRMED
    conversation = conversation_for_token(token)
    assert conversation.acted_on == mallorys
    assert (conversation.name, conversation.email, conversation.phone) == ("", "", "")
    assert "10:00" not in tried.reply.text
