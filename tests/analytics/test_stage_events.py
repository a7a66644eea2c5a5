"""Every move of a conversation's stage is recorded as it happens, in the same transaction as the
row's change, whoever writes it: driven here through real turns, a Confirm, a deposit paid
through Stripe, an escalation and a hand-back, and by raw SQL."""

import datetime as dt

import pytest
from django.db import IntegrityError, InternalError, connection, transaction

from agent.conversation.confirming import conversation_confirm
from agent.conversation.staff import hand_back_to_assistant
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import Conversation, ConversationStageEvent
from bookings.models import Appointment, DepositRule
from payments.services.reconcile import payment_verify
from tests.agent.conversation.chat_http import shown_card
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")

TEN = lisbon(WEDNESDAY, "10:00")
STEPS = [
    {"action": "choose_service", "service": "Haircut"},
    {"action": "offer_slots", "service": "Haircut", "day": WEDNESDAY.isoformat()},
    {"action": "hold_slot", "service": "Haircut", "start": TEN.isoformat()},
    {"action": "collect_contact", "name": "Ana Silva", "email": "ana@example.com"},
]


def stored_state(conversation) -> str:
    return Conversation.objects.values_list("state", flat=True).get(pk=conversation.pk)


def recorded(conversation) -> list[tuple[str, str]]:
    events = ConversationStageEvent.objects.filter(conversation=conversation).order_by("id")
    return [(event.previous_stage, event.stage) for event in events]


def moves_of(states: list[str]) -> list[tuple[str, str]]:
    """The moves a sequence of observed row states makes, from the start ("")."""
    moves, previous = [], ""
    for state in states:
        if state != previous:
            moves.append((previous, state))
            previous = state
    return moves


def test_a_booking_with_a_deposit_records_every_stage_the_row_passes_through(
    shop, haircut, fake_stripe
):
    shop.deposit_rule = DepositRule.PERCENT
    shop.deposit_percent = 20
    shop.save()
    conversation, token, _greeting = conversation_start(business=shop)
    seen = [stored_state(conversation)]
    for step in STEPS:
        said = "Ana Silva, ana@example.com" if step["action"] == "collect_contact" else "…"
        turn_take(token=token, text=said, model=ScriptedModel([Proposed((step,))]))
        seen.append(stored_state(conversation))
    conversation_confirm(token=token, idempotency_key="pay", card=shown_card(token))
    seen.append(stored_state(conversation))
    payment = Appointment.objects.get().payment
    fake_stripe.pay(payment.checkout_session_id)
    payment_verify(payment)
    turn_take(token=token, text="thanks", model=ScriptedModel([Proposed(())]))
    seen.append(stored_state(conversation))

    assert seen == [
        "greeting",
        "service_chosen",
        "slot_offered",
        "slot_held",
        "details_collected",
        "awaiting_payment",
        "confirmed",
    ]
    assert recorded(conversation) == moves_of(seen)
    events = ConversationStageEvent.objects.filter(conversation=conversation)
    assert {event.business_id for event in events} == {shop.pk}
    assert [event.service_id for event in events] == [None] + [haircut.pk] * 6
    assert not any(event.backfilled for event in events)


def test_an_escalation_a_hand_back_and_an_idle_month_are_recorded(shop):
    conversation, token, _greeting = conversation_start(business=shop)
    escalate = {"action": "escalate_to_human", "reason": "asked for a person"}
    turn_take(token=token, text="a person please", model=ScriptedModel([Proposed((escalate,))]))
    escalated = stored_state(conversation)
    resumed = hand_back_to_assistant(conversation=conversation)
    turn_take(
        token=token,
        text="a haircut",
        model=ScriptedModel([Proposed((STEPS[0],))]),
    )
    chosen = stored_state(conversation)
    later = NOW + dt.timedelta(days=31)
    turn_take(token=token, text="hello again", model=ScriptedModel([Proposed(())]), now=later)

    seen = ["greeting", escalated, resumed, chosen, stored_state(conversation)]
    assert seen == ["greeting", "escalated", "greeting", "service_chosen", "expired"]
    assert recorded(conversation) == moves_of(seen)


@pytest.mark.django_db(transaction=True)
def test_a_stage_written_by_any_writer_even_raw_sql_is_recorded_with_its_commit(salon):
    conversation, _token, _greeting = conversation_start(business=salon)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE agent_conversation SET state = 'escalated' WHERE id = %s",
                [conversation.pk],
            )
        assert recorded(conversation) == [("", "greeting"), ("greeting", "escalated")]
        transaction.set_rollback(True)  # the row's change undone: its event with it
    assert recorded(conversation) == [("", "greeting")]


def test_saving_without_a_change_of_stage_records_nothing(salon):
    conversation, _token, _greeting = conversation_start(business=salon)
    conversation.name = "Ana"
    conversation.save()
    Conversation.objects.filter(pk=conversation.pk).update(state="greeting")
    assert recorded(conversation) == [("", "greeting")]


def test_stage_events_are_append_only_in_the_database(salon):
    conversation, _token, _greeting = conversation_start(business=salon)
    event = ConversationStageEvent.objects.get(conversation=conversation)
    for statement in (
        "UPDATE agent_conversationstageevent SET stage = 'confirmed' WHERE id = %s",
        "DELETE FROM agent_conversationstageevent WHERE id = %s",
    ):
        with (
            pytest.raises((IntegrityError, InternalError)),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement, [event.pk])
