"""The chat widget's API through its real URL routes, with the default offline model: start,
message, read back and confirm — and what none of them may do: 500, set a cookie, book twice,
show a token, outrun the rate limit, or let one conversation reach another's."""

import datetime as dt
import hashlib
import re

import pytest
import time_machine
from django.core.cache import cache
from django.db import transaction
from django.test import Client as HttpClient

from agent.conversation.confirming import scoped_key
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import Conversation, Message
from bench.harness import open_salon
from bookings.models import Appointment, AppointmentStatus, SlotHold
from tests.factories import ServiceFactory
from tests.reminders.real_worker import wait_for

from .chat_http import (
    BOOKING_MESSAGES,
    Worker,
    assert_alternating,
    chat,
    confirm,
    confirm_url,
    lock_waiters,
    message_url,
    read,
    read_url,
    say,
    start,
    started,
)
from .conftest import NOW, WEDNESDAY, lisbon

TOKEN = re.compile(r"^[A-Za-z0-9_-]{43,}$")
NOT_FOUND = {"detail": "Not found.", "code": "not_found"}
OPERATIONS = {
    "conversation_start": ("/api/v1/businesses/{slug}/conversations/", "post"),
    "conversation_read": ("/api/v1/conversations/{token}/", "get"),
    "conversation_message": ("/api/v1/conversations/{token}/messages/", "post"),
    "conversation_confirm": ("/api/v1/conversations/{token}/confirm/", "post"),
    "conversation_pick": ("/api/v1/conversations/{token}/pick/", "post"),
    "conversation_hold": ("/api/v1/conversations/{token}/hold/", "post"),
    "conversation_details": ("/api/v1/conversations/{token}/details/", "post"),
    "conversation_verification_start": ("/api/v1/conversations/{token}/verification/", "post"),
    "conversation_verification_check": (
        "/api/v1/conversations/{token}/verification/check/",
        "post",
    ),
}


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """The throttle's history lives in the cache; each test starts with a clean slate."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def offline_model(settings):
    settings.ORDINA_MODEL = "offline"


@pytest.fixture
def api() -> HttpClient:
    return HttpClient()


@pytest.fixture
def ready(api, shop, frozen_now) -> str:
    """A conversation with Wednesday 10:00 held and every detail given: one Confirm from
    booked."""
    token = started(api, shop.slug)
    chat(api, token, *BOOKING_MESSAGES)
    return token


def appointments(business) -> list[Appointment]:
    return list(Appointment.objects.filter(business=business))


def transcript(api, token: str) -> list[dict]:
    response = read(api, token)
    assert response.status_code == 200
    return response.json()["messages"]


# --- starting -----------------------------------------------------------------------------------


def test_start_answers_201_with_a_new_token_the_greeting_and_the_services(api, shop, frozen_now):
    first = start(api, shop.slug)
    second = start(api, shop.slug)

    assert first.status_code == second.status_code == 201
    body = first.json()
    assert TOKEN.match(body["token"])
    assert body["token"] != second.json()["token"]
    assert body["conversation"]["state"] == "greeting"
    assert body["conversation"]["business"] == shop.slug
    assert body["reply"]["role"] == "assistant"
    assert body["reply"]["text"].startswith(f"Hello! I'm the booking assistant of {shop.name}.")
    assert [s["name"] for s in body["reply"]["choices"]["services"]] == ["Haircut"]
    assert Conversation.objects.filter(business=shop).count() == 2


def test_starting_at_an_unknown_business_is_a_json_404(api, db):
    response = start(api, "no-such-business")

    assert response.status_code == 404
    assert response.json() == NOT_FOUND
    assert not Conversation.objects.exists()


# --- a whole booking ----------------------------------------------------------------------------


def test_a_booking_made_by_messages_is_confirmed_once_by_the_clients_confirm(api, shop, frozen_now):
    token = started(api, shop.slug)

    answers = chat(api, token, *BOOKING_MESSAGES)

    assert [a["conversation"]["state"] for a in answers] == [
        "slot_offered",
        "slot_held",
        "slot_held",
        "details_collected",
        "details_collected",
    ]
    assert answers[1]["conversation"]["held_start"] == "2026-12-02T10:00:00Z"
    assert answers[-1]["reply"]["choices"]["confirm"]["name"] == "Ana Silva"
    assert not appointments(shop), "nothing is booked before the client's Confirm"

    booked = confirm(api, token, key="ana-confirm-1")

    assert booked.status_code == 201, booked.content
    assert booked.json()["conversation"]["state"] == "confirmed"
    assert booked.json()["reply"]["text"].startswith("Your booking is confirmed: Wednesday 2 Dec")
    [appointment] = appointments(shop)
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert appointment.starts_at == lisbon(WEDNESDAY, "10:00")
    assert (appointment.client.name, appointment.client.email) == ("Ana Silva", "ana@example.com")
    conversation = Conversation.objects.get()
    assert appointment.idempotency_key == scoped_key(conversation, "ana-confirm-1")
    assert booked.json()["conversation"]["appointment"] == str(appointment.public_id)
    assert not SlotHold.objects.filter(business=shop).exists(), "the booking consumed the hold"


def test_the_same_confirm_again_is_answered_200_with_the_same_reply(api, ready, shop):
    first = confirm(api, ready, key="same-key-1")

    again = confirm(api, ready, key="same-key-1")

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["reply"] == first.json()["reply"]
    assert again.json()["conversation"] == first.json()["conversation"]
    assert len(appointments(shop)) == 1


def test_a_time_taken_since_it_was_held_is_409_with_alternatives_in_the_business_zone(
    api, ready, shop
):
    from bookings.services import ClientDetails, appointment_create

    service = shop.services.get()
    with time_machine.travel(NOW + dt.timedelta(minutes=shop.hold_minutes + 1), tick=False):
        appointment_create(
            service=service, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("Bo", "b@x.pt")
        )
        refused = confirm(api, ready, key="late-key-1")

    assert refused.status_code == 409
    body = refused.json()
    # The hold ran out before the Confirm, and the time was taken since: told as such.
    assert body["code"] == "slot_unavailable"
    assert body["detail"].startswith("the hold ran out")
    first = body["alternatives"][0]
    assert first["start"].endswith("+00:00")  # Lisbon in December, written with its offset
    start, end = (dt.datetime.fromisoformat(first[key]) for key in ("start", "end"))
    assert end - start == dt.timedelta(minutes=service.duration_minutes)
    assert (
        "was released when the hold ran out, and it has been taken since" in (body["reply"]["text"])
    )
    assert len(appointments(shop)) == 1


def test_a_confirm_with_another_key_is_refused_as_already_booked(api, ready, shop):
    confirm(api, ready, key="first-key-1")

    other = confirm(api, ready, key="second-key-2")

    assert other.status_code == 409
    assert other.json()["code"] == "already_booked"
    assert len(appointments(shop)) == 1


def test_a_key_another_conversation_used_is_another_booking_never_a_replay_of_it(api, shop, ready):
    # Keys are the conversation's own: the same key from another conversation can neither
    # replay nor take over the first conversation's appointment (nor be refused because of it).
    first = confirm(api, ready, key="shared-key-1")
    token = started(api, shop.slug)
    chat(api, token, "a haircut please", "Wednesday at 14", "Rui Costa", "rui@example.com")

    second = confirm(api, token, key="shared-key-1")

    assert (first.status_code, second.status_code) == (201, 201)
    ana, rui = sorted(appointments(shop), key=lambda appointment: appointment.starts_at)
    assert (ana.client.name, rui.client.name) == ("Ana Silva", "Rui Costa")
    assert ana.idempotency_key != rui.idempotency_key


def test_a_confirm_retried_after_another_message_gets_the_confirms_own_reply(api, ready):
    first = confirm(api, ready, key="retried-key-1")
    chat(api, ready, "thank you")

    again = confirm(api, ready, key="retried-key-1")

    assert again.status_code == 200
    assert again.json()["reply"] == first.json()["reply"]


def test_confirm_without_a_held_slot_is_not_ready_and_books_nothing(api, shop, frozen_now):
    token = started(api, shop.slug)
    chat(api, token, "a haircut please")

    refused = confirm(api, token)

    assert refused.status_code == 409
    assert refused.json()["code"] == "not_ready"
    assert refused.json()["detail"].startswith("no slot is held")
    assert refused.json()["conversation"]["state"] == "slot_offered"
    assert not appointments(shop)


def test_confirm_with_details_missing_is_not_ready_and_books_nothing(api, shop, frozen_now):
    token = started(api, shop.slug)
    chat(api, token, "a haircut please", "Wednesday at 10", "Ana Silva")

    refused = confirm(api, token)

    assert refused.status_code == 409
    assert refused.json()["code"] == "not_ready"
    assert "email" in refused.json()["detail"]
    assert not appointments(shop)
    assert read(api, token).json()["held_start"] == "2026-12-02T10:00:00Z", "the hold stays"


@pytest.mark.parametrize("key", [None, "", "clé-à-accents", "x" * 256, "tab\tinside"])
def test_confirm_without_a_valid_idempotency_key_is_400_naming_the_header(api, ready, shop, key):
    refused = confirm(api, ready, key=key)

    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert list(refused.json()["errors"]) == ["Idempotency-Key"]
    assert not appointments(shop)


# The twin of a Confirm still writing its reply is told to retry (409 turn_in_progress, like a
# concurrent request with the same Idempotency-Key elsewhere); once the reply is stored, it gets
# that reply (200). Another key is another booking: 409 already_booked or turn_in_progress.
PARALLEL = pytest.mark.parametrize(
    ("keys", "statuses"),
    [
        (("twin-key-1", "twin-key-1"), ([200, 201], [201, 409])),
        (("one-key-1", "other-key-2"), ([201, 409],)),
    ],
    ids=["same-key", "different-keys"],
)


def confirmed_in_parallel(token: str, keys: tuple[str, str]) -> list:
    """Both Confirms sent while the conversation's row is locked: a double click, made certain.
    The first to take the conversation's claim queues on the row; the other is either refused
    at once (the claim is taken) or queued behind it."""
    workers = [
        Worker(
            lambda key=key: confirm(HttpClient(raise_request_exception=False), token, key=key),
            name=f"confirm-{key}",
        )
        for key in keys
    ]
    with transaction.atomic():
        Conversation.objects.select_for_update().get()
        for worker in workers:
            worker.start()
        wait_for(
            lambda: (
                lock_waiters() == 2
                or (lock_waiters() == 1 and any(not worker.is_alive() for worker in workers))
            ),
            seconds=10,
            what="both Confirms to queue, or one to queue and the other to be refused",
        )
    answers = [worker.finish() for worker in workers]
    assert [worker.error for worker in workers] == [None, None]
    return answers


@pytest.mark.django_db(transaction=True)
@PARALLEL
def test_a_double_confirm_in_parallel_books_one_appointment(shop, frozen_now, keys, statuses):
    token = started(HttpClient(), shop.slug)
    chat(HttpClient(), token, *BOOKING_MESSAGES)

    confirmed_in_parallel(token, keys)

    [appointment] = appointments(shop)
    assert appointment.status == AppointmentStatus.CONFIRMED
    conversation = Conversation.objects.get()
    assert appointment.idempotency_key in {scoped_key(conversation, key) for key in keys}
    assert Conversation.objects.get().appointment == appointment


@pytest.mark.django_db(transaction=True)
@PARALLEL
def test_a_double_confirm_in_parallel_answers_both_without_a_server_error(
    shop, frozen_now, keys, statuses
):
    token = started(HttpClient(), shop.slug)
    chat(HttpClient(), token, *BOOKING_MESSAGES)

    answers = confirmed_in_parallel(token, keys)

    assert sorted(answer.status_code for answer in answers) in statuses


# --- reading back -------------------------------------------------------------------------------


def test_read_back_is_the_transcript_in_order_with_the_state_and_no_token(api, ready):
    response = read(api, ready)

    assert response.status_code == 200
    body = response.json()
    assert body["state"] == "details_collected"
    assert (body["name"], body["email"], body["service"]) == (
        "Ana Silva",
        "ana@example.com",
        "Haircut",
    )
    messages = body["messages"]
    assert_alternating(messages)
    assert [m["text"] for m in messages if m["role"] == "client"] == list(BOOKING_MESSAGES)
    assert [m["id"] for m in messages] == sorted(m["id"] for m in messages)
    content = response.content.decode()
    assert ready not in content
    assert hashlib.sha256(ready.encode()).hexdigest() not in content
    assert "token" not in body


def test_a_replys_choices_read_back_exactly_as_the_turn_answered_them(api, shop, frozen_now):
    token = started(api, shop.slug)
    *_, collected = chat(api, token, *BOOKING_MESSAGES[:4])

    stored = transcript(api, token)[-1]

    assert stored["id"] == collected["reply"]["id"]
    assert stored["choices"] == collected["reply"]["choices"]
    assert collected["reply"]["choices"]["confirm"]["price"] == "60.00"  # money is never a float


# --- what is refused, and how ------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"text": ""},
        {"text": "   "},
        {"text": None},
        {"text": 123},
        {"text": True},
        {"text": ["hi"]},
        {"text": {"a": 1}},
        {"text": "x" * 2001},
        {"text": "a\x00b"},
        {"text": "\ud800"},
    ],
    ids=lambda body: repr(body)[:30],
)
def test_an_unusable_message_is_a_400_naming_the_text_and_stores_nothing(api, ready, body):
    before = Message.objects.count()

    response = api.post(message_url(ready), body, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert list(response.json()["errors"]) == ["text"]
    assert Message.objects.count() == before


def test_a_message_of_exactly_2000_characters_is_answered(api, shop, frozen_now):
    token = started(api, shop.slug)

    assert say(api, token, "a" * 2000).status_code == 200


@pytest.mark.parametrize(
    ("raw", "content_type", "status", "field"),
    [
        ('["a haircut please"]', "application/json", 400, "non_field_errors"),
        ('"a haircut please"', "application/json", 400, "non_field_errors"),
        ("{text: 'hi'", "application/json", 400, "non_field_errors"),
        ("text=hi", "application/x-www-form-urlencoded", 415, None),
        ("a haircut please", "text/plain", 415, None),
        ('{"text": "' + "a" * 70_000 + '"}', "application/json", 413, None),
    ],
    ids=["array", "string", "broken-json", "form", "plain-text", "too-large"],
)
def test_a_body_that_is_not_a_json_object_is_refused(api, ready, raw, content_type, status, field):
    before = Message.objects.count()

    response = api.post(message_url(ready), raw, content_type=content_type)

    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    if field:
        assert list(response.json()["errors"]) == [field]
    assert Message.objects.count() == before


@pytest.mark.parametrize("call", ["read", "message", "confirm"])
def test_an_unknown_token_is_a_json_404(api, shop, frozen_now, call):
    unknown = started(api, shop.slug)[::-1] + "x"
    response = {
        "read": lambda: read(api, unknown),
        "message": lambda: say(api, unknown, "a haircut please"),
        "confirm": lambda: confirm(api, unknown, key="unknown-token-key"),
    }[call]()

    assert response.status_code == 404
    assert response.json() == NOT_FOUND


# --- no cookies ---------------------------------------------------------------------------------


def every_kind_of_widget_answer(api, shop) -> list:
    """One conversation to a booking and past it, with its refusals along the way."""
    token = start(api, shop.slug).json()["token"]
    answers = [start(api, shop.slug), start(api, "nobody"), confirm(api, token)]
    answers += [say(api, token, text) for text in BOOKING_MESSAGES]
    answers += [
        say(api, token, ""),
        api.post(message_url(token), "plain", content_type="text/plain"),
        confirm(api, token, key=None),
        confirm(api, token, key="cookie-key-1"),
        confirm(api, token, key="cookie-key-1"),
        confirm(api, token, key="cookie-key-2"),
        read(api, token),
        read(api, "unknown-token"),
        say(api, "unknown-token", "hello"),
        confirm(api, "unknown-token"),
    ]
    return answers


@pytest.mark.parametrize("stale", [{}, {"sessionid": "expired-session", "csrftoken": "x" * 32}])
def test_no_widget_answer_sets_a_cookie(api, shop, frozen_now, stale):
    for name, value in stale.items():
        api.cookies[name] = value

    answers = every_kind_of_widget_answer(api, shop)

    assert {a.status_code for a in answers} == {200, 201, 400, 404, 409, 415}
    for answer in answers:
        assert not answer.cookies, (answer.request["PATH_INFO"], answer.cookies)
        assert not answer.has_header("Set-Cookie")
    assert {name: morsel.value for name, morsel in api.cookies.items()} == stale


# --- the rate limit -----------------------------------------------------------------------------


def test_calls_past_the_rate_are_refused_with_429_and_retry_after(api, shop, frozen_now, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"public": "3/minute"},
    }
    token = started(api, shop.slug)
    allowed = [say(api, token, "a haircut please"), read(api, token)]

    refused = [
        say(api, token, "Wednesday at 10"),
        read(api, token),
        confirm(api, token),
        start(api, shop.slug),
    ]

    assert [a.status_code for a in allowed] == [200, 200]
    for answer in refused:
        assert answer.status_code == 429
        assert answer.json()["code"] == "throttled"
        assert int(answer["Retry-After"]) > 0
    assert Message.objects.filter(conversation__business=shop).count() == 3
    assert Conversation.objects.filter(business=shop).count() == 1


# --- the schema ---------------------------------------------------------------------------------


def test_the_schema_documents_every_conversation_operation(api, db):
    schema = api.get("/api/schema/", {"format": "json"}).json()

    found = {
        operation["operationId"]: (path, method)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if operation.get("operationId", "").startswith("conversation_")
    }
    assert found == OPERATIONS
    confirm_operation = schema["paths"][OPERATIONS["conversation_confirm"][0]]["post"]
    assert any(
        parameter["name"] == "Idempotency-Key" and parameter["required"]
        for parameter in confirm_operation["parameters"]
    )
    assert {"200", "201", "400", "404", "409", "429"} <= set(confirm_operation["responses"])
    message_operation = schema["paths"][OPERATIONS["conversation_message"][0]]["post"]
    assert {"200", "400", "404", "409", "413", "415", "429"} <= set(message_operation["responses"])


# --- tenant isolation ---------------------------------------------------------------------------


@pytest.fixture
def studio(db):
    """A second business, with its own service and its own conversations."""
    business = open_salon(slug="studio", name="Studio", time_zone="Europe/Lisbon")
    ServiceFactory(business=business, name="Massage")
    from agent.services import grants_set

    grants_set(business=business)
    return business


def test_each_token_reads_only_its_own_conversation(api, shop, studio, frozen_now):
    salon_token = started(api, shop.slug)
    chat(api, salon_token, "a haircut please")
    studio_token = started(api, studio.slug)
    chat(api, studio_token, "Hello, I'm Rui Costa")

    salon_view, studio_view = read(api, salon_token).json(), read(api, studio_token).json()

    assert (salon_view["business"], studio_view["business"]) == (shop.slug, studio.slug)
    assert [m["text"] for m in salon_view["messages"] if m["role"] == "client"] == [
        "a haircut please"
    ]
    assert [m["text"] for m in studio_view["messages"] if m["role"] == "client"] == [
        "Hello, I'm Rui Costa"
    ]
    assert "Haircut" not in str(studio_view)
    assert {m["id"] for m in salon_view["messages"]}.isdisjoint(
        m["id"] for m in studio_view["messages"]
    )


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/businesses/{slug}/conversations/{token}/",
        "/api/v1/businesses/{slug}/conversations/{token}/messages/",
        "/api/v1/businesses/{slug}/conversations/{token}/confirm/",
    ],
)
def test_a_token_under_another_business_path_reaches_nothing(api, ready, studio, path):
    url = path.format(slug=studio.slug, token=ready)

    answers = [
        api.get(url),
        api.post(url, {"text": "yes"}, content_type="application/json"),
        api.post(url, headers={"Idempotency-Key": "tenant-key-1"}),
    ]

    assert {a.status_code for a in answers} == {404}
    assert all(a.json() == NOT_FOUND for a in answers)
    assert not Appointment.objects.exists()


def test_a_conversation_cannot_act_on_another_businesss_booking(
    api, shop, studio, ready, monkeypatch
):
    confirm(api, ready, key="salon-booking-1")
    salon_booking = Conversation.objects.get(business=shop).appointment
    reference = f"A-{salon_booking.public_id.hex[:10].upper()}"
    studio_token = started(api, studio.slug)
    model = ScriptedModel(
        [
            Proposed(
                (
                    {"action": "cancel_appointment", "appointment": reference},
                    {"action": "reschedule_appointment", "appointment": reference}
                    | {"start": "2026-12-03T10:00:00+00:00"},
                )
            )
        ]
    )
    monkeypatch.setattr("agent.llm.registry.language_model", lambda: model)

    answer = say(api, studio_token, f"cancel {reference}")

    assert answer.status_code == 200
    salon_booking.refresh_from_db()
    assert salon_booking.status == AppointmentStatus.CONFIRMED
    assert salon_booking.starts_at == lisbon(WEDNESDAY, "10:00")
    assert read(api, ready).json()["state"] == "confirmed"
    # The studio's assistant was never shown the salon's booking.
    assert model.contexts[0].conversation.appointment is None


def test_the_token_urls_take_no_slug_and_confirm_books_at_the_conversations_business(
    api, shop, studio, ready
):
    assert read_url(ready) == f"/api/v1/conversations/{ready}/"
    assert confirm_url(ready) == f"/api/v1/conversations/{ready}/confirm/"

    assert confirm(api, ready, key="only-salon-1").status_code == 201

    assert [a.business for a in Appointment.objects.all()] == [shop]


@pytest.mark.parametrize("query", ["after=0.0", "after=1&after=2"])
def test_reading_back_after_a_message_takes_one_whole_message_id(shop, query):
    # Found by schemathesis: "0.0" and a repeated `after` were both taken (as 0, as the last).
    http = HttpClient()
    token = started(http, shop.slug)

    response = http.get(f"/api/v1/conversations/{token}/?{query}")

    assert response.status_code == 400
    assert "after" in response.json()["errors"]
