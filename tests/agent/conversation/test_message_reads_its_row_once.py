"""A message through the API reads its conversation once: the statement that locks the row
for the turn gives the language every answer of the request speaks (a body refused included),
so no read of its own comes first. A token that names nothing is answered as before."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client as HttpClient
from django.test.utils import CaptureQueriesContext

from .chat_http import say, started

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def offline_and_fresh(settings):
    settings.ORDINA_MODEL = "offline"
    cache.clear()
    yield
    cache.clear()


def conversation_reads(http, token: str, text) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = say(http, token, text)
    reads = [
        q["sql"]
        for q in captured
        if q["sql"].startswith(("SELECT", "EXECUTE", "PREPARE"))
        and ("agent_conversation" in q["sql"] or q["sql"].startswith("EXECUTE"))
    ]
    return response.status_code, reads


def test_a_message_reads_its_conversation_once(shop):
    http = HttpClient()
    token = started(http, shop.slug)
    say(http, token, "hello")  # the read is prepared on this session by now

    status, reads = conversation_reads(http, token, "Is there parking?")

    assert status == 200
    assert len(reads) == 1, reads


def test_a_refused_body_is_told_in_the_conversations_language_from_the_same_read(shop):
    http = HttpClient()
    token = started(http, shop.slug)
    say(http, token, "Hola, quiero reservar un corte de pelo")  # the chat turns Spanish

    status, reads = conversation_reads(http, token, "")

    assert status == 400
    assert len(reads) == 1, reads
    assert say(http, token, "").json()["errors"] == {
        "text": ["Este campo no puede estar en blanco."]
    }


def test_a_message_to_no_conversation_is_a_404_and_a_bad_body_to_it_still_a_400(shop):
    http = HttpClient()

    assert say(http, "no-such-token", "hello").status_code == 404
    assert say(http, "no-such-token", "").status_code == 400
