"""Nothing of a conversation lives in a process: a server killed between two messages and a
new one started carries on exactly where the old one stopped, and a week of silence is
picked up where it was left (the lapsed hold let go, everything else kept). A month of silence
closes the conversation without asking the model anything.

The restart test runs the API in real ``manage.py runserver`` processes on the pytest test
database; they live in real time, so the business it books at is open every day and the
booking is made for tomorrow. Every wait on them has a deadline, and they are killed in a
``finally`` whatever happens.
"""

import datetime as dt
import urllib.error
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client as HttpClient
from django.utils import timezone

from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import Conversation
from bookings.availability import wall_to_instant
from bookings.models import Appointment, AppointmentStatus, SlotHold

from .chat_http import (
    assert_alternating,
    chat,
    confirm,
    read,
    say,
    started,
)
from .conftest import NOW, WEDNESDAY, lisbon


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db(transaction=True)
def test_a_conversation_resumes_exactly_on_a_new_server_process(shop, servers):
    zone = ZoneInfo(shop.time_zone)
    tomorrow = timezone.now().astimezone(zone).date() + dt.timedelta(days=1)
    tomorrow_10 = wall_to_instant(tomorrow, dt.time(10), zone)
    first = servers()
    token = started(first.http, shop.slug)
    held, named = chat(first.http, token, "a haircut tomorrow at 10", "Ana Silva")
    assert held["conversation"]["state"] == "slot_held", held
    assert named["conversation"]["name"] == "Ana Silva"
    before = read(first.http, token).json()

    first.kill()
    with pytest.raises(urllib.error.URLError, match="Connection refused"):  # it is gone
        read(first.http, token)
    second = servers()

    after = read(second.http, token)
    assert after.status_code == 200
    assert after.json() == before
    assert after.json()["state"] == "slot_held"
    assert after.json()["name"] == "Ana Silva"
    assert dt.datetime.fromisoformat(after.json()["held_start"]) == tomorrow_10
    assert SlotHold.objects.filter(business=shop, starts_at=tomorrow_10).count() == 1
    [collected] = chat(second.http, token, "ana@example.com")
    assert collected["conversation"]["state"] == "details_collected"
    booked = confirm(second.http, token, key="restart-key-1")
    assert booked.status_code == 201, booked.content
    [appointment] = Appointment.objects.filter(business=shop)
    assert (appointment.status, appointment.starts_at) == (AppointmentStatus.CONFIRMED, tomorrow_10)
    assert appointment.client.name == "Ana Silva"
    assert_alternating(read(second.http, token).json()["messages"])


# --- a week, and a month, of silence ------------------------------------------------------------


@pytest.fixture
def clock():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.fixture
def api() -> HttpClient:
    return HttpClient()


@pytest.fixture
def left_with_a_hold(api, shop, clock) -> str:
    """Wednesday 10:00 held and the client's name given; then silence."""
    token = started(api, shop.slug)
    chat(api, token, "a haircut please", "Wednesday at 10", "Ana Silva")
    assert read(api, token).json()["state"] == "slot_held"
    return token


def test_after_a_week_of_silence_the_conversation_continues_to_a_booking(
    api, shop, clock, left_with_a_hold, settings
):
    settings.ORDINA_MODEL = "offline"
    token = left_with_a_hold
    clock.shift(dt.timedelta(days=7))  # Monday 7 December: the hold lapsed days ago

    [resumed] = chat(api, token, "what about Friday at 11?")

    friday_11 = lisbon(dt.date(2026, 12, 11), "11:00")
    assert resumed["conversation"]["state"] == "slot_held"
    assert resumed["conversation"]["name"] == "Ana Silva"
    assert dt.datetime.fromisoformat(resumed["conversation"]["held_start"]) == friday_11
    assert list(SlotHold.objects.values_list("starts_at", flat=True)) == [friday_11]
    chat(api, token, "ana@example.com")
    booked = confirm(api, token, key="week-later-1")
    assert booked.status_code == 201, booked.content
    [appointment] = Appointment.objects.filter(business=shop)
    assert appointment.starts_at == friday_11
    assert appointment.client.name == "Ana Silva"


def test_after_a_week_the_lapsed_hold_is_let_go_before_the_model_is_asked(
    api, shop, clock, left_with_a_hold, monkeypatch
):
    token = left_with_a_hold
    clock.shift(dt.timedelta(days=7))
    model = ScriptedModel([Proposed()])  # proposes nothing: only what it was shown matters
    monkeypatch.setattr("agent.llm.registry.language_model", lambda: model)

    [answer] = chat(api, token, "hello again")

    [seen] = model.contexts
    assert seen.conversation.held is None
    assert seen.conversation.state in ("slot_offered", "service_chosen")
    assert seen.conversation.name == "Ana Silva"
    assert answer["conversation"]["state"] == seen.conversation.state
    assert answer["conversation"]["held_start"] is None
    assert not SlotHold.objects.exists()
    assert confirm(api, token, key="lapsed-key-1").json()["code"] == "not_ready"


def test_a_lapsed_hold_is_not_read_back_as_held(api, shop, clock, left_with_a_hold):
    clock.shift(dt.timedelta(days=7))

    body = read(api, left_with_a_hold).json()

    assert body["state"] != "slot_held"
    assert body["held_start"] is None


def test_after_a_month_of_silence_the_conversation_is_expired_without_asking_the_model(
    api, shop, clock, left_with_a_hold, monkeypatch
):
    token = left_with_a_hold
    clock.shift(dt.timedelta(days=31))
    model = ScriptedModel()  # any propose raises ScriptExhausted
    monkeypatch.setattr("agent.llm.registry.language_model", lambda: model)

    answer = say(api, token, "hi, can I still book Wednesday?")

    assert answer.status_code == 200
    assert answer.json()["conversation"]["state"] == "expired"
    assert answer.json()["conversation"]["held_start"] is None
    assert "expired" in answer.json()["reply"]["text"]
    assert model.contexts == []
    assert not SlotHold.objects.exists()
    assert Conversation.objects.get().state == "expired"
    assert not Appointment.objects.exists()


def test_an_expired_conversation_answers_later_messages_and_confirms_without_a_server_error(
    shop, clock, left_with_a_hold, monkeypatch
):
    http = HttpClient(raise_request_exception=False)
    clock.shift(dt.timedelta(days=31))
    model = ScriptedModel()
    monkeypatch.setattr("agent.llm.registry.language_model", lambda: model)
    assert say(http, left_with_a_hold, "hello?").json()["conversation"]["state"] == "expired"

    again = say(http, left_with_a_hold, "hello again?")
    confirmed = confirm(http, left_with_a_hold, key="too-late-1")

    assert again.status_code == 200
    assert again.json()["conversation"]["state"] == "expired"
    assert confirmed.status_code == 409
    assert model.contexts == []
    assert not Appointment.objects.exists()


def test_thirty_days_of_silence_is_not_yet_a_month(api, shop, clock, left_with_a_hold, settings):
    settings.ORDINA_MODEL = "offline"
    clock.shift(dt.timedelta(days=30))

    [answer] = chat(api, left_with_a_hold, "Wednesday at 10")

    assert answer["conversation"]["state"] == "slot_held"
    assert answer["conversation"]["held_start"] == (
        lisbon(WEDNESDAY + dt.timedelta(days=35), "10:00").isoformat().replace("+00:00", "Z")
    )


def test_a_message_refused_for_its_body_after_a_week_keeps_the_lapsed_hold_as_it_was(
    api, shop, clock, left_with_a_hold, settings
):
    """The message's request locks the conversation (and brings it up to date) before its body
    is read; a body refused then keeps nothing of that: the next message lets the hold go."""
    settings.ORDINA_MODEL = "offline"
    token = left_with_a_hold
    clock.shift(dt.timedelta(days=7))

    refused = say(api, token, "")

    assert refused.status_code == 400
    assert SlotHold.objects.filter(business=shop).count() == 1
    assert Conversation.objects.get().held_start is not None
    chat(api, token, "hello again")
    assert not SlotHold.objects.exists()
