"""No answer of the public API may be stored by a browser or a proxy (``Cache-Control:
no-store``): transcripts carry names, emails and phones; a booking carries its manage token; a
hold its secret holder; a managed appointment its client's plans. Errors and the answers with
nothing personal are marked the same, so no endpoint can be left out."""

import uuid

import pytest

from tests.agent.conversation.chat_http import read, say, start

from .salon import TUESDAY_9
from .widget import availability, book, hold


def assert_not_stored(response) -> None:
    assert "no-store" in response.get("Cache-Control", ""), (
        response.status_code,
        response.get("Cache-Control"),
    )


@pytest.mark.django_db
def test_a_booking_and_its_management_answers_are_not_stored(api, salon):
    booked = book(api, salon, TUESDAY_9)
    manage_url = booked.json()["manage_url"]

    assert booked.status_code == 201
    assert_not_stored(booked)
    assert_not_stored(api.get(manage_url))
    assert_not_stored(
        api.post(f"{manage_url}reschedule/", {"start": "x"}, content_type="application/json")
    )
    assert_not_stored(api.post(f"{manage_url}cancel/"))
    assert_not_stored(api.get("/api/v1/manage/no-such-token/"))


@pytest.mark.django_db
def test_a_conversation_and_its_transcript_are_not_stored(api, salon):
    opened = start(api, salon.business.slug)
    token = opened.json()["token"]
    reply = say(api, token, "Hi, I'm Ana Silva, ana@example.com")

    assert opened.status_code == 201
    assert reply.status_code == 200
    assert_not_stored(opened)
    assert_not_stored(reply)
    assert_not_stored(read(api, token))


@pytest.mark.django_db
def test_holds_availability_services_and_errors_are_not_stored(api, salon):
    held = hold(api, salon, TUESDAY_9, holder=uuid.uuid4().hex)

    assert held.status_code == 201
    assert_not_stored(held)
    assert_not_stored(availability(api, salon))
    assert_not_stored(api.get(f"{salon.base}/services/"))
    assert_not_stored(api.get("/api/v1/businesses/no-such-business/services/"))
