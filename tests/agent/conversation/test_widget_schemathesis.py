"""Schemathesis against the four conversation operations, through the real WSGI application,
aimed at live conversations: the API-wide schemathesis test (tests/bookings/api) covers these
operations too, but names only appointment tokens, so every token it sends a conversation
operation is unknown (404) and no message ever reaches a model. Here most cases name a live
conversation in some stage — greeting, times offered, ready to confirm, booked — and most
messages are ones the offline model acts on, so the turn pipeline runs end to end under
generated input. No case may answer 5xx, set a cookie, or answer outside its schema."""

import hypothesis
import pytest
import schemathesis
from django.core.cache import cache
from django.test import Client as HttpClient
from hypothesis import strategies as st
from schemathesis.core.parameters import ParameterLocation

from ordina.wsgi import application
from tests.bookings.api.test_schemathesis import connection_kept_open, sets_no_cookie

from .chat_http import BOOKING_MESSAGES, chat, confirm, started

MESSAGES = [
    *BOOKING_MESSAGES,
    "the first one",
    "Friday afternoon",
    "tomorrow at 3",
    "my phone is 912 345 678",
    "how much is it?",
    "cancel",
    "no",
]

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).include(
    operation_id_regex="^conversation_"
)


@pytest.fixture
def live_conversations(shop, frozen_now) -> list[str]:
    """Tokens of conversations at each stage a widget meets."""
    http = HttpClient()
    greeting = started(http, shop.slug)
    offered = started(http, shop.slug)
    chat(http, offered, "a haircut please")
    ready = [started(http, shop.slug) for _ in range(2)]
    for token, time in zip(ready, ("Wednesday at 10", "Thursday at 11"), strict=True):
        chat(http, token, "a haircut please", time, "Ana Silva", "ana@example.com")
    booked = started(http, shop.slug)
    chat(http, booked, "a haircut please", "Friday at 9", "Rui Costa", "rui@example.com")
    assert confirm(http, booked, key="booked-1").status_code == 201
    return [greeting, offered, *ready, booked]


@pytest.fixture
def unthrottled_wsgi(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"public": "1000000/minute"},
    }
    settings.ORDINA_MODEL = "offline"
    cache.clear()
    with connection_kept_open():
        yield
    cache.clear()


def aim_at_live_conversations(case, data, slug: str, tokens: list[str]) -> None:
    """Three cases in four name the shop or a live token, and half of their messages are
    ones the offline model acts on. A component generated to violate the schema is left as
    it is, so the server must still refuse it."""
    if data.draw(st.integers(0, 3)) == 3:
        return

    def aimable(location: ParameterLocation, component) -> dict:
        negative = case.meta is not None and case.meta.is_negative_at(location)
        return component if isinstance(component, dict) and not negative else {}

    path = aimable(ParameterLocation.PATH, case.path_parameters)
    if "slug" in path:
        path["slug"] = slug
    if "token" in path:
        path["token"] = data.draw(st.sampled_from(tokens))
    body = aimable(ParameterLocation.BODY, case.body)
    if "text" in body and not data.draw(st.booleans()):
        body["text"] = data.draw(st.sampled_from(MESSAGES))


@schema.parametrize()
@schema.given(data=st.data())
@hypothesis.settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)
def test_no_conversation_operation_answers_with_a_server_error(
    case, data, shop, live_conversations, unthrottled_wsgi
):
    aim_at_live_conversations(case, data, shop.slug, live_conversations)

    # A schema-valid request is never refused as invalid: nothing in these four operations is
    # beyond what their schema says (positive_data_acceptance is on).
    case.call_and_validate(additional_checks=[sets_no_cookie])
