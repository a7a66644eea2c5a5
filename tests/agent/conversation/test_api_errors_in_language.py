"""The chat API's errors are told in the conversation's language — a Spanish chat reads them in
Spanish, whatever its business writes in — while their codes stay English and the same, so
the widget and any other client branch on them alike."""

import pytest
from django.core.cache import cache
from django.test import Client as HttpClient

from agent.conversation.turns import conversation_for_token

from .chat_http import say, started

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def offline_model(settings):
    settings.ORDINA_MODEL = "offline"


def pick(http, token: str, slot: str):
    return http.post(
        f"/api/v1/conversations/{token}/pick/", {"slot": slot}, content_type="application/json"
    )


def in_spanish(token: str) -> None:
    """The conversation's language as the chat sets it once the client writes in Spanish."""
    conversation = conversation_for_token(token)
    conversation.language = "es"
    conversation.save(update_fields=["language"])


def test_a_refused_press_in_a_spanish_chat_is_told_in_spanish_with_the_same_code(shop, frozen_now):
    http = HttpClient()
    english, spanish = started(http, shop.slug), started(http, shop.slug)
    in_spanish(spanish)  # the salon itself writes in English

    told_in_english = pick(http, english, "not-a-slot-offered")
    told_in_spanish = pick(http, spanish, "not-a-slot-offered")

    assert told_in_english.status_code == told_in_spanish.status_code == 409
    assert told_in_english.json()["code"] == told_in_spanish.json()["code"] == "not_offered"
    assert told_in_english.json()["detail"] == "That time is not one of the times offered now."
    assert told_in_spanish.json()["detail"] == (
        "Esa hora no es ninguna de las que se ofrecen ahora."
    )


def test_an_invalid_message_in_a_spanish_chat_is_told_in_spanish_field_by_field(shop, frozen_now):
    http = HttpClient()
    token = started(http, shop.slug)
    in_spanish(token)

    response = say(http, token, "   ")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["detail"] == "La solicitud tiene campos no válidos."
    assert body["errors"] == {"text": ["Este campo no puede estar en blanco."]}


def test_a_chat_at_a_spanish_business_answers_in_spanish_from_its_start(shop, frozen_now):
    shop.language = "es"
    shop.save()
    http = HttpClient()
    token = started(http, shop.slug)

    response = say(http, token, "")

    assert response.json()["detail"] == "La solicitud tiene campos no válidos."


@pytest.mark.parametrize("slug", ["%00", "x" * 61, "bad%20slug"])
def test_a_malformed_business_in_the_path_is_a_404_before_any_language_is_looked_up(db, slug):
    response = HttpClient().post(f"/api/v1/businesses/{slug}/conversations/")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
