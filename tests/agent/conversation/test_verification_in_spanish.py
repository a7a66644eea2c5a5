"""A returning client verifying in a Spanish chat reads it all in Spanish — the API's answers
and the email with the code — whatever the business writes in; the codes stay English."""

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client as HttpClient

from agent.conversation.turns import conversation_for_token
from tests.factories import ClientFactory

from .chat_http import started
from .tasks_at_once import tasks_run_at_once  # noqa: F401

pytestmark = pytest.mark.usefixtures("tasks_run_at_once")


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def spanish_chat(http, shop) -> str:
    """A chat at the (English) salon, in Spanish since the client wrote in it."""
    token = started(http, shop.slug)
    conversation = conversation_for_token(token)
    conversation.language = "es"
    conversation.save(update_fields=["language"])
    return token


@pytest.mark.django_db(transaction=True)
def test_a_code_asked_for_in_a_spanish_chat_is_emailed_and_refused_in_spanish(shop, frozen_now):
    shop.name = "Studio Lumen"
    shop.save()
    ClientFactory(business=shop, name="Ana Pérez", email="ana@example.com")
    http = HttpClient()
    token = spanish_chat(http, shop)

    asked = http.post(
        f"/api/v1/conversations/{token}/verification/",
        {"email": "ana@example.com"},
        content_type="application/json",
    )
    [email] = mail.outbox
    found = re.search(r"\b\d{6}\b", str(email.body))
    assert found is not None, email.body
    code = found.group(0)
    wrong = http.post(
        f"/api/v1/conversations/{token}/verification/check/",
        {"code": f"{(int(code) + 1) % 1_000_000:06d}"},
        content_type="application/json",
    )

    assert asked.status_code == 202
    assert asked.json()["detail"].startswith("Si ana@example.com es la dirección")
    assert email.subject == f"Su código para Studio Lumen: {code}"
    assert "Si ha sido usted, escriba este código en el chat:" in email.body
    assert "Sirve una sola vez, durante 10 minutos." in email.body
    assert wrong.status_code == 409
    assert wrong.json()["code"] == "wrong_code"
    assert wrong.json()["detail"] == "Ese código no es correcto."
