"""The Confirm and the turn at their edges: keys from elsewhere, retries after failures,
closed conversations, changed cards, removed services, runaway models, impossible dates."""

import datetime as dt

import pytest
import time_machine

from agent.conversation import confirming
from agent.conversation.confirming import (
    AlreadyBooked,
    ConversationClosed,
    conversation_confirm,
    scoped_key,
)
from agent.conversation.turns import conversation_start, narrate_and_store, reply_lease, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import AuditEntry, Conversation
from agent.offline.model import OfflineModel
from bookings.errors import IdempotencyConflict
from bookings.models import Appointment, AppointmentStatus, DepositRule, SlotHold
from bookings.services import ClientDetails, appointment_create
from tests.agent.conversation.chat_http import shown_card
from tests.agent.conversation.conftest import NOW, WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")

TEN = lisbon(WEDNESDAY, "10:00")
HOLD_TEN = {"action": "hold_slot", "service": "Haircut", "start": TEN.isoformat()}
ANA = {"action": "collect_contact", "name": "Ana Silva", "email": "ana@example.com"}


def ready(shop) -> str:
    _conversation, token, _greeting = conversation_start(business=shop)
    turn_take(
        token=token,
        text="haircut, I'm Ana Silva, ana@example.com",  # details are stored only as typed
        model=ScriptedModel([Proposed((HOLD_TEN, ANA))]),
    )
    return token


def confirm(token, key="key-1", card=None):
    return conversation_confirm(
        token=token, idempotency_key=key, card=shown_card(token) if card is None else card
    )


def test_a_key_used_by_the_booking_api_cannot_hand_that_booking_to_a_conversation(shop, haircut):
    shop.capacity = 2
    shop.save()
    elsewhere = appointment_create(
        service=haircut,
        start=TEN,
        client=ClientDetails("Ana Silva", "ana@example.com"),
        idempotency_key="K",
    ).appointment
    token = ready(shop)

    result = confirm(token, key="K")

    mine = Conversation.objects.get().appointment
    assert result.executed[0].verdict.passed
    assert mine is not None
    assert mine.pk != elsewhere.pk
    assert mine.idempotency_key == scoped_key(Conversation.objects.get(), "K")


def test_a_retry_after_payments_failed_is_not_answered_as_booked(shop, fake_stripe):
    shop.deposit_rule, shop.deposit_percent = DepositRule.PERCENT, 20
    shop.save()
    token = ready(shop)
    fake_stripe.fail_next = 3  # the SDK's try and its two retries
    failed = confirm(token, key="pay-1")
    assert failed.executed[0].payments_unavailable
    assert Appointment.objects.get().status == AppointmentStatus.EXPIRED
    # Told truly: nothing is kept for the client (the appointment was released).
    assert "kept for you" not in failed.reply.text
    assert "Payments are unavailable at the moment, so nothing was booked." in failed.reply.text
    turn_take(token=token, text="again", model=ScriptedModel([Proposed((HOLD_TEN,))]))

    with pytest.raises(IdempotencyConflict):
        confirm(token, key="pay-1")
    assert not Appointment.objects.filter(status=AppointmentStatus.CONFIRMED).exists()
    assert confirm(token, key="pay-2").conversation.state == "awaiting_payment"


def test_a_confirm_retried_after_the_process_died_before_its_reply_is_answered(shop, monkeypatch):
    token = ready(shop)

    def died(*args, **kwargs):
        raise SystemExit("killed between the booking and its reply")

    with monkeypatch.context() as patched:
        patched.setattr(confirming, "narrate_and_store", died)
        with pytest.raises(SystemExit):
            confirm(token, key="k")
    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED

    with time_machine.travel(reply_lease(NOW) + dt.timedelta(seconds=1), tick=False):
        again = confirm(token, key="k")
    assert again.executed[0].replayed
    assert again.reply.text.startswith("Your booking is confirmed")
    assert Appointment.objects.count() == 1


def test_an_escalated_conversation_books_nothing(shop):
    token = ready(shop)
    turn_take(token=token, text="I want to talk to a human", model=OfflineModel())
    with pytest.raises(ConversationClosed):
        confirm(token)
    assert not Appointment.objects.exists()


def test_a_second_booking_in_one_conversation_is_refused(shop):
    token = ready(shop)
    confirm(token, key="first")
    with pytest.raises(AlreadyBooked):
        confirm(token, key="second")


def test_the_confirm_books_only_the_card_it_was_pressed_on(shop):
    token = ready(shop)
    shown = shown_card(token)
    eleven = {**HOLD_TEN, "start": lisbon(WEDNESDAY, "11:00").isoformat()}
    turn_take(token=token, text="actually 11", model=ScriptedModel([Proposed((eleven,))]))

    stale = confirm(token, card=shown)

    assert not stale.executed[0].verdict.passed
    assert "changed since it was shown" in stale.executed[0].verdict.reason
    assert not Appointment.objects.exists()
    fresh = confirm(token, key="fresh").conversation.appointment
    assert fresh.starts_at == lisbon(WEDNESDAY, "11:00")


def test_a_service_removed_mid_conversation_lets_its_hold_go_and_books_nothing(shop, haircut):
    token = ready(shop)
    haircut.delete()

    refused = confirm(token, card="")

    assert refused.executed[0].verdict.reason == "no slot is held"
    assert not SlotHold.objects.exists()
    assert refused.conversation.state == "greeting"


def test_an_email_too_long_to_keep_is_refused_not_a_server_error(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    email = "a" * 240 + "@example-domain.com"
    result = turn_take(token=token, text=email, model=OfflineModel())
    assert "at most 254 characters" in result.outcomes[0].reason
    assert Conversation.objects.get().email == ""


@pytest.mark.parametrize(
    "proposal",
    [
        {"action": "hold_slot", "service": "Haircut", "start": "9999-12-31T23:30:00-05:00"},
        {"action": "hold_slot", "service": "Haircut", "start": "2027-06-01T10:00:00+00:00"},
        {"action": "offer_slots", "service": "Haircut", "day": "9999-12-31"},
    ],
)
def test_times_beyond_the_horizon_or_the_calendar_are_refused(shop, proposal):
    _conversation, token, _greeting = conversation_start(business=shop)
    result = turn_take(token=token, text="then", model=ScriptedModel([Proposed((proposal,))]))
    [outcome] = result.outcomes
    assert (outcome.result, outcome.stage) == ("BLOCK", "POLICY")
    assert "horizon" in outcome.reason or "not a date" in outcome.reason


def test_a_far_date_typed_by_the_client_is_answered(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    turn_take(token=token, text="a haircut", model=OfflineModel())
    result = turn_take(token=token, text="haircut on 31/12/9999 at 23:30", model=OfflineModel())
    assert result.reply.text


def test_a_runaway_model_is_audited_once_past_the_limit_and_its_reply_cut(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    flood = tuple({"action": "send_message", "text": "hi"} for _ in range(500))
    model = ScriptedModel([Proposed(flood, reply="x" * 10_000)], drafts=[None])
    result = turn_take(token=token, text="hello", model=model)
    assert AuditEntry.objects.count() == 5
    assert result.outcomes[-1].reason == "more than 4 commands in one turn (496 refused)"
    assert len(model.narrations[0].notes[-1]) == 2000


def test_a_reply_clears_only_its_own_lease(shop):
    token = ready(shop)
    conversation = Conversation.objects.get()
    later = NOW + dt.timedelta(minutes=5)
    Conversation.objects.filter(pk=conversation.pk).update(reply_lease_until=later)
    from agent.conversation import facts

    narration = facts.narration_of(
        conversation, facts.quiet_context(conversation, NOW), [], payment=None
    )
    narrate_and_store(conversation, narration, model=OfflineModel(), payment=None, lease=NOW)
    assert Conversation.objects.get().reply_lease_until == later
    assert token
