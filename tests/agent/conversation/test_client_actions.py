"""The client's presses, through the real API: a slot picked by its id, a time held from the
pick-a-time view, details given in a form — each the client's own command through the gates,
audited, answered from the facts — and what a widget reads: times in the business's zone,
money as two-decimal strings, the booking's links once booked, and only what is new."""

import pytest
from django.core.cache import cache
from django.test import Client as HttpClient

from agent.models import AuditEntry, Conversation, Message
from bookings.models import Appointment, DepositRule
from payments.services.reconcile import payment_verify

from .chat_http import chat, confirm, read_url, started
from .conftest import WEDNESDAY, lisbon

TEN = lisbon(WEDNESDAY, "10:00")


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    settings.ORDINA_MODEL = "offline"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api():
    return HttpClient()


def post(api, token, what, body):
    return api.post(f"/api/v1/conversations/{token}/{what}/", body, content_type="application/json")


def test_an_offered_slot_picked_by_its_id_is_held_as_the_clients_own_command(api, shop, frozen_now):
    token = started(api, shop.slug)
    [offered] = chat(api, token, "a haircut on Wednesday")
    slot = offered["reply"]["choices"]["slots"][1]

    picked = post(api, token, "pick", {"slot": slot["id"]})

    assert picked.status_code == 200, picked.content
    body = picked.json()
    assert body["conversation"]["state"] == "slot_held"
    assert Conversation.objects.get().held_start.isoformat() == slot["id"]
    assert Message.objects.filter(role="client").last().text == slot["label"]
    entry = AuditEntry.objects.filter(action="hold_slot").get()
    assert (entry.result, entry.proposal["start"]) == ("EXECUTE", slot["id"])
    assert "I'm holding" in body["reply"]["text"]


def test_a_slot_that_is_not_offered_is_refused_and_nothing_changes(api, shop, frozen_now):
    token = started(api, shop.slug)
    chat(api, token, "a haircut on Wednesday")

    refused = post(api, token, "pick", {"slot": "2026-12-02T03:00:00+00:00"})

    assert refused.status_code == 409
    assert refused.json()["code"] == "not_offered"
    assert Conversation.objects.get().held_start is None


def test_the_pick_a_time_view_holds_a_service_at_a_time_without_chatting(api, shop, frozen_now):
    token = started(api, shop.slug)
    service = shop.services.get()

    held = post(api, token, "hold", {"service": service.pk, "start": TEN.isoformat()})

    assert held.status_code == 200, held.content
    assert held.json()["conversation"]["state"] == "slot_held"
    assert Conversation.objects.get().held_start == TEN


def test_details_given_in_a_form_are_kept_and_a_bad_one_is_explained_not_kept(
    api, shop, frozen_now
):
    token = started(api, shop.slug)
    post(api, token, "hold", {"service": shop.services.get().pk, "start": TEN.isoformat()})

    bad = post(api, token, "details", {"name": "Ana Silva", "email": "ana@example"})
    good = post(api, token, "details", {"email": "ana@example.com"})
    empty = post(api, token, "details", {"name": "  "})

    assert "That email address looks incomplete" in bad.json()["reply"]["text"]
    assert bad.json()["conversation"]["email"] == ""
    assert bad.json()["conversation"]["name"] == "Ana Silva"
    assert good.json()["conversation"]["state"] == "details_collected"
    card = good.json()["reply"]["choices"]["confirm"]
    assert card["start"] == "2026-12-02T10:00:00+00:00"  # Lisbon in December, with its offset
    assert (card["price"], card["deposit"]) == ("60.00", "0.00")
    assert empty.status_code == 400


def test_details_given_together_are_thanked_for_once(api, shop, frozen_now):
    token = started(api, shop.slug)
    post(api, token, "hold", {"service": shop.services.get().pk, "start": TEN.isoformat()})

    given = post(api, token, "details", {"name": "Ana Silva", "email": "ana@example.com"})

    assert given.json()["reply"]["text"].count("Thank you, Ana Silva.") == 1


def test_once_booked_the_reply_carries_the_booking_and_its_links(api, shop, frozen_now):
    token = started(api, shop.slug)
    chat(api, token, "a haircut on Wednesday at 10", "Ana Silva", "ana@example.com")

    booked = confirm(api, token, key="k-1")

    assert booked.status_code == 201, booked.content
    card = booked.json()["reply"]["choices"]["booked"]
    assert card["label"] == "Wednesday 2 December at 10:00"
    assert card["manage_url"].startswith("http://localhost:8000/manage/")
    assert card["calendar_url"].endswith("/calendar.ics")
    assert card["status"] == "confirmed"


def test_a_deposit_paid_between_messages_shows_the_booking_on_the_next_read(
    api, shop, frozen_now, fake_stripe
):
    shop.deposit_rule, shop.deposit_percent = DepositRule.PERCENT, 20
    shop.save()
    token = started(api, shop.slug)
    chat(api, token, "a haircut on Wednesday at 10", "Ana Silva", "ana@example.com")
    asked = confirm(api, token, key="k-1").json()
    waiting = api.get(read_url(token)).json()
    payment = Appointment.objects.get().payment
    fake_stripe.pay(payment.checkout_session_id)
    payment_verify(payment)

    paid = api.get(read_url(token)).json()

    assert asked["reply"]["choices"]["payment"]["amount"] == "12.00"
    assert (waiting["state"], waiting["booked"]) == ("awaiting_payment", None)
    assert paid["state"] == "confirmed"
    assert paid["booked"]["label"] == "Wednesday 2 December at 10:00"
    assert paid["booked"]["manage_url"].startswith("http://localhost:8000/manage/")
    assert paid["booked"]["status"] == "confirmed"


def test_read_back_after_a_message_id_returns_only_what_is_new(api, shop, frozen_now):
    token = started(api, shop.slug)
    chat(api, token, "a haircut please")
    last = Message.objects.order_by("-id").first().pk
    chat(api, token, "Wednesday at 10")

    newer = api.get(read_url(token), {"after": last}).json()["messages"]

    assert [m["role"] for m in newer] == ["client", "assistant"]
    assert api.get(read_url(token), {"after": "x"}).status_code == 400
