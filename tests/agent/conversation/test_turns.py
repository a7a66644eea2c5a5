"""The turn pipeline against the real database: what executes, what is blocked and why, what the
client is told, and what the audit log keeps. Models are the offline one or a ScriptedModel
that says exactly what a test needs — adversarial proposals and replies included."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import (
    BLOCKED_TURNS_LIMIT,
    MODEL_ATTEMPTS,
    conversation_start,
    turn_take,
)
from agent.llm.base import ModelUnavailable, Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import AgentGrant, AuditEntry, Conversation, GuardRewrite, Message
from agent.offline.model import OfflineModel
from bookings.models import Appointment, AppointmentStatus, DepositRule
from bookings.services import ClientDetails, appointment_create
from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from payments.models import PaymentStatus
from payments.services.reconcile import payment_verify
from tests.agent.conversation.chat_http import shown_card
from tests.agent.conversation.conftest import NOW, WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")

TEN = lisbon(WEDNESDAY, "10:00")
HOLD_TEN = {"action": "hold_slot", "service": "Haircut", "start": TEN.isoformat()}
ANA = {"action": "collect_contact", "name": "Ana Silva", "email": "ana@example.com"}


def started(business):
    _conversation, token, _greeting = conversation_start(business=business)
    return token


def confirm(token, key):
    """The client's Confirm on the booking last shown (the widget sends its card)."""
    return conversation_confirm(token=token, idempotency_key=key, card=shown_card(token))


def say(token, text, model=None):
    return turn_take(token=token, text=text, model=model or OfflineModel())


def ready_to_confirm(shop) -> str:
    """A conversation holding Wednesday 10:00 with every detail collected."""
    token = started(shop)
    model = ScriptedModel([Proposed((HOLD_TEN, ANA))])
    result = say(token, "Haircut Wednesday at 10, Ana Silva, ana@example.com", model)
    assert result.conversation.state == "details_collected"
    return token


def audit_rows(token_or_conversation):
    conversation = Conversation.objects.get(pk=token_or_conversation.pk)
    return list(AuditEntry.objects.filter(conversation=str(conversation.public_id)).order_by("id"))


# --- the booking flow ---------------------------------------------------------------------------


def test_a_booking_made_in_chat_with_the_offline_model(shop):
    token = started(shop)
    states = []
    for text in ["Hi, I'd like a haircut", "Wednesday at 10", "Ana Silva", "ana@example.com"]:
        states.append(say(token, text).conversation.state)
    assert states == ["slot_offered", "slot_held", "slot_held", "details_collected"]
    reply = Message.objects.filter(role="assistant").last()
    assert reply.choices["confirm"]["label"] == "Wednesday 2 December at 10:00"
    assert "press Confirm" in reply.text
    assert not Appointment.objects.exists()  # nothing is booked until the client confirms

    result = confirm(token, "widget-1")

    appointment = Appointment.objects.get()
    assert (appointment.starts_at, appointment.status) == (TEN, AppointmentStatus.CONFIRMED)
    assert appointment.client.email == "ana@example.com"
    assert result.conversation.state == "confirmed"
    assert "confirmed" in result.reply.text
    actions = [(row.action, row.result) for row in audit_rows(result.conversation)]
    assert actions == [
        ("choose_service", "EXECUTE"),
        ("offer_slots", "EXECUTE"),
        ("hold_slot", "EXECUTE"),
        ("collect_contact", "EXECUTE"),
        ("collect_contact", "EXECUTE"),
        ("confirm_booking", "EXECUTE"),
    ]


def test_confirm_is_idempotent_by_key(shop):
    token = ready_to_confirm(shop)
    first = confirm(token, "k")
    again = confirm(token, "k")
    assert Appointment.objects.count() == 1
    assert again.reply.pk == first.reply.pk


# --- the "Confirm" incident -----------------------------------------------------------------------


def test_confirm_typed_as_chat_never_books_however_often_the_client_insists(shop):
    token = ready_to_confirm(shop)
    careless = ScriptedModel(
        [Proposed(({"action": "confirm_booking"},))] * 2,
        drafts=["Great news, your booking is confirmed! See you Wednesday."] * 2,
    )
    for _ in range(2):
        result = say(token, "Confirm", careless)
        assert not Appointment.objects.exists()
        assert "confirmed" not in result.reply.text.lower()
        assert "Nothing is booked until you press Confirm" in result.reply.text
        assert result.conversation.state == "details_collected"
        assert result.outcomes[0].stage == "POLICY"
        assert "only the client's Confirm" in result.outcomes[0].reason
    # Both sentences of each draft claimed the booking ("see you Wednesday" too).
    befores = list(GuardRewrite.objects.filter(guard="status").values_list("before", flat=True))
    assert befores.count("Great news, your booking is confirmed!") == 2
    assert len(befores) == 4


def test_only_blocked_proposals_turn_after_turn_hand_over_to_a_human(shop):
    token = ready_to_confirm(shop)
    insisting = ScriptedModel([Proposed(({"action": "confirm_booking"},))] * BLOCKED_TURNS_LIMIT)
    for turn in range(1, BLOCKED_TURNS_LIMIT + 1):
        result = say(token, "CONFIRM!!", insisting)
        expected = "escalated" if turn == BLOCKED_TURNS_LIMIT else "details_collected"
        assert result.conversation.state == expected
    assert "member of the team" in result.reply.text
    # A human has it now: the model is not asked again (its script is empty).
    after = say(token, "hello?", ScriptedModel())
    assert after.conversation.state == "escalated"
    assert "member of the team" in after.reply.text


# --- the other guards, on a careless model's drafts ------------------------------------------


def test_a_time_the_core_did_not_hand_over_is_removed(shop):
    token = started(shop)
    model = ScriptedModel(
        [Proposed(reply="")], drafts=["Sure! How about Thursday at 3pm? We are friendly."]
    )
    result = say(token, "hi there", model)
    assert "Thursday" not in result.reply.text
    assert "3pm" not in result.reply.text
    assert GuardRewrite.objects.filter(guard="dates").exists()


def test_a_price_other_than_the_core_s_is_corrected(shop):
    token = started(shop)
    model = ScriptedModel(
        [Proposed(({"action": "choose_service", "service": "Haircut"},))],
        drafts=["A haircut is €45.00 with us."],
    )
    result = say(token, "haircut price?", model)
    assert "€60.00" in result.reply.text
    assert "45" not in result.reply.text
    assert GuardRewrite.objects.filter(guard="prices").exists()


def test_payment_talk_before_the_payment_stage_becomes_the_next_step(shop):
    token = started(shop)
    model = ScriptedModel(
        [Proposed(({"action": "choose_service", "service": "Haircut"},))],
        drafts=["Please send the deposit by card now."],
    )
    result = say(token, "haircut", model)
    assert "deposit" not in result.reply.text.lower()
    assert "Which day would suit you?" in result.reply.text


def test_internal_mechanics_are_never_revealed(shop):
    token = started(shop)
    model = ScriptedModel(
        [Proposed()], drafts=["I checked the database and my tools. Happy to help!"]
    )
    result = say(token, "hello", model)
    assert "database" not in result.reply.text.lower()
    assert "tools" not in result.reply.text.lower()


# --- the gates inside a conversation -----------------------------------------------------------


def test_free_text_unknown_and_ungranted_commands_are_blocked_at_their_gate(shop):
    AgentGrant.objects.filter(business=shop, action="hold_slot").delete()
    token = started(shop)
    model = ScriptedModel(
        [
            Proposed(
                (
                    "I have booked you in for Wednesday!",
                    {"action": "teleport", "where": "Mars"},
                    {"action": "hold_slot", "service": "Haircut"},
                    HOLD_TEN,
                    {"action": "mark_paid", "appointment": "A-1"},
                )
            )
        ]
    )
    result = say(token, "haircut wednesday at 10", model)
    verdicts = [(o.action, o.stage, o.reason) for o in result.outcomes]
    assert verdicts[0] == ("(free text)", "STRUCTURE", "free text, not a command")
    assert verdicts[1] == ("teleport", "STRUCTURE", "unknown action: 'teleport'")
    assert verdicts[2][1:] == ("STRUCTURE", "hold_slot: missing field 'start'")
    assert verdicts[3][1:] == ("CAPABILITY", "hold_slot is not in the agent's capabilities")
    assert verdicts[4][1:] == ("STRUCTURE", "more than 4 commands in one turn (1 refused)")
    assert result.conversation.held_start is None
    assert len(audit_rows(result.conversation)) == 5


def test_a_held_slot_must_be_one_the_core_offers_now(shop):
    token = started(shop)
    closed = lisbon(WEDNESDAY, "20:00")
    model = ScriptedModel(
        [Proposed(({"action": "hold_slot", "service": "Haircut", "start": closed.isoformat()},))]
    )
    result = say(token, "wednesday 8pm", model)
    [outcome] = result.outcomes
    assert (outcome.result, outcome.stage, outcome.reason) == (
        "BLOCK",
        "POLICY",
        "that time is not open",
    )
    assert result.conversation.held_start is None
    # The core's real alternatives are offered instead, and only those times are told.
    assert result.reply.choices["slots"]
    assert result.conversation.state == "slot_offered"


def test_cancelling_in_chat_ends_the_conversation_s_booking_once_the_client_presses_its_card(
    shop,
):
    token = ready_to_confirm(shop)
    confirm(token, "k")
    reference = Conversation.objects.get().appointment.reference.reference
    cancel = {"action": "cancel_appointment", "appointment": reference}

    prepared = say(token, "cancel please", ScriptedModel([Proposed((cancel,))]))

    assert prepared.outcomes[0].result == "EXECUTE"
    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED  # only a card so far
    card = prepared.reply.choices["effect"]
    assert card["button"] == "Cancel appointment"
    assert card["label"] == "Cancel your Haircut on Wednesday 2 December at 10:00"
    pressed = conversation_confirm(token=token, idempotency_key="cancel-1", card=card["card"])
    assert pressed.executed[0].verdict.passed
    assert Appointment.objects.get().status == AppointmentStatus.CANCELLED
    assert pressed.conversation.state == "cancelled"
    assert "cancelled" in pressed.reply.text


def test_a_conversation_cannot_touch_another_client_s_appointment(shop, haircut):
    other = appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "14:00"), client=ClientDetails("Bo", "b@x.pt")
    ).appointment
    from agent.models import AppointmentReference

    AppointmentReference.objects.create(business=shop, appointment=other, reference="A-9")
    token = started(shop)
    model = ScriptedModel([Proposed(({"action": "cancel_appointment", "appointment": "A-9"},))])
    result = say(token, "cancel A-9", model)
    assert result.outcomes[0].reason == "appointment A-9 is not this conversation's"
    other.refresh_from_db()
    assert other.status == AppointmentStatus.CONFIRMED


# --- losing a race -------------------------------------------------------------------------------


def test_a_time_lost_after_the_hold_lapsed_is_told_honestly_with_alternatives(shop, haircut):
    token = ready_to_confirm(shop)
    with time_machine.travel(NOW + dt.timedelta(minutes=shop.hold_minutes + 1), tick=False):
        appointment_create(service=haircut, start=TEN, client=ClientDetails("Bo", "bo@x.pt"))
        result = confirm(token, "late")
    assert Appointment.objects.count() == 1  # only the other client's
    [outcome] = result.outcomes
    assert (outcome.result, outcome.stage) == ("BLOCK", "POLICY")
    assert outcome.reason == "the hold ran out (no slot is held); the time is taken"
    assert "was released when the hold ran out, and it has been taken since" in result.reply.text
    assert [slot["label"] for slot in result.reply.choices["slots"]][:1] == [
        "Wednesday 2 December at 09:00"
    ]
    assert result.conversation.state == "slot_offered"


def test_a_lapsed_hold_whose_time_is_still_free_is_offered_again_and_booked_on_yes(shop):
    token = ready_to_confirm(shop)
    with time_machine.travel(NOW + dt.timedelta(hours=3), tick=False):
        refused = confirm(token, "late-but-free")
        assert refused.conversation.state == "slot_offered"
        assert "It is still free: shall I hold it again?" in refused.reply.text
        held = say(token, "yes")
        assert held.conversation.state == "details_collected"
        result = confirm(token, "held-again")
    assert result.conversation.state == "confirmed"
    assert Appointment.objects.get().starts_at == TEN


def test_a_slot_taken_under_a_live_hold_by_a_race_is_refused_with_alternatives(shop, haircut):
    token = ready_to_confirm(shop)
    # A hold is optimistic: another writer that ignores it (the owner in the dashboard, say)
    # can take the time; the guarantee is made when booking.
    Appointment.objects.create(
        business=shop,
        service=haircut,
        client=appointment_create(
            service=haircut, start=lisbon(WEDNESDAY, "15:00"), client=ClientDetails("C", "c@x.pt")
        ).appointment.client,
        starts_at=TEN,
        ends_at=TEN + dt.timedelta(hours=1),
        occupied_from=TEN,
        occupied_until=TEN + dt.timedelta(hours=1),
        seat=1,
        price=Decimal("60.00"),
        status=AppointmentStatus.CONFIRMED,
    )
    result = confirm(token, "race")
    [outcome] = result.outcomes
    assert (outcome.result, outcome.stage) == ("BLOCK", "POLICY")
    assert "just taken" in outcome.reason
    assert result.executed[0].alternatives
    assert "just taken" in result.reply.text
    assert result.reply.choices["slots"]
    assert result.conversation.state == "slot_offered"


# --- a failing model ------------------------------------------------------------------------


def test_a_model_failing_every_attempt_hands_over_to_a_human(shop):
    token = started(shop)
    model = ScriptedModel([ModelUnavailable("timeout")] * MODEL_ATTEMPTS)
    result = say(token, "haircut please", model)
    assert len(model.contexts) == MODEL_ATTEMPTS
    assert result.conversation.state == "escalated"
    assert "failed" not in result.reply.text.lower()
    assert "member of the team" in result.reply.text
    assert Conversation.objects.get().escalation_reason.startswith("the model gave no usable")


def test_a_model_failing_fewer_times_than_allowed_is_asked_again(shop):
    token = started(shop)
    choose = Proposed(({"action": "choose_service", "service": "Haircut"},))
    model = ScriptedModel([ModelUnavailable("503")] * (MODEL_ATTEMPTS - 1) + [choose])
    result = say(token, "haircut please", model)
    assert result.conversation.state == "service_chosen"


def test_a_narration_that_fails_falls_back_to_the_offline_narrator(shop):
    token = started(shop)
    model = ScriptedModel(
        [Proposed(({"action": "choose_service", "service": "Haircut"},))],
        drafts=[ModelUnavailable("timeout")] * MODEL_ATTEMPTS,
    )
    result = say(token, "haircut", model)
    assert result.reply.text.startswith("Haircut takes 60 minutes and costs €60.00.")


# --- knowledge, and what a turn costs ----------------------------------------------------------


def knowledge_note(business, title: str, text: str) -> KnowledgeSource:
    return KnowledgeSource.objects.create(
        business=business,
        kind=SourceKind.TEXT,
        title=title,
        body=text,
        text=text,
        status=SourceStatus.READY,
    )


@pytest.fixture
def parking_note(shop):
    return knowledge_note(shop, "Parking", "Free parking behind the salon.")


def test_knowledge_is_shown_to_the_model_on_questions_and_skipped_on_routine_turns(
    shop, parking_note
):
    token = started(shop)
    model = ScriptedModel([Proposed(reply="")] * 2)
    say(token, "is there parking nearby?", model)
    say(token, "ana@example.com", model)
    question, routine = model.contexts
    assert "Free parking behind the salon." in question.knowledge
    assert routine.knowledge == ""


def test_the_offline_model_answers_a_question_from_the_knowledge_base(shop, parking_note):
    token = started(shop)
    result = say(token, "Where can I park?")
    assert "Free parking behind the salon." in result.reply.text


def test_a_turn_costs_the_same_queries_at_any_length_of_conversation(shop, parking_note):
    token = started(shop)
    say(token, "haircut please")

    def queries_of_one_turn(text):
        with CaptureQueriesContext(connection) as captured:
            say(token, text)
        return len(captured)

    early = queries_of_one_turn("Thursday afternoon?")
    for _ in range(20):
        say(token, "is there parking?")
    assert queries_of_one_turn("Thursday afternoon?") == early


# --- deposits --------------------------------------------------------------------------------


def test_a_deposit_is_asked_through_checkout_and_confirmed_only_when_stripe_says_paid(
    shop, fake_stripe
):
    shop.deposit_rule = DepositRule.PERCENT
    shop.deposit_percent = 20
    shop.save()
    token = ready_to_confirm(shop)
    result = confirm(token, "pay")
    assert result.conversation.state == "awaiting_payment"
    payment_choice = result.reply.choices["payment"]
    assert payment_choice["url"].startswith("http")
    assert Decimal(payment_choice["amount"]) == Decimal("12.00")
    # "I paid" from the client is not a payment.
    claimed = say(token, "I paid already, it's done")
    assert claimed.conversation.state == "awaiting_payment"
    appointment = Appointment.objects.get()
    payment = appointment.payment
    fake_stripe.pay(payment.checkout_session_id)
    assert payment_verify(payment).status == PaymentStatus.PAID
    after = say(token, "thanks")
    assert after.conversation.state == "confirmed"


def test_a_refund_in_chat_passes_the_refund_policy_and_a_repeat_is_blocked_by_state(
    shop, fake_stripe
):
    shop.deposit_rule = DepositRule.PERCENT
    shop.deposit_percent = 20
    shop.max_refund = Decimal("100.00")
    shop.save()
    AgentGrant.objects.create(business=shop, action="refund")
    token = ready_to_confirm(shop)
    confirm(token, "pay")
    payment = Appointment.objects.get().payment
    fake_stripe.pay(payment.checkout_session_id)
    payment_verify(payment)
    reference = Conversation.objects.get().appointment.reference.reference
    refund = {"action": "refund", "appointment": reference, "amount": "12.00"}
    too_much = {"action": "refund", "appointment": reference, "amount": "500.00"}
    model = ScriptedModel([Proposed((too_much,)), Proposed((refund,)), Proposed((refund,))])

    blocked_first = say(token, "refund 500 please", model).outcomes[0]
    prepared = say(token, "refund my deposit", model)
    card = prepared.reply.choices["effect"]["card"]
    executed = conversation_confirm(token=token, idempotency_key="r-1", card=card).outcomes[0]
    repeated = say(token, "refund my deposit again", model).outcomes[0]

    assert (blocked_first.result, blocked_first.stage) == ("BLOCK", "POLICY")
    assert blocked_first.money_contained == Decimal("500.00")
    assert (prepared.outcomes[0].result, prepared.outcomes[0].money_moved) == (
        "EXECUTE",
        Decimal("0"),
    )
    assert (executed.result, executed.money_moved) == ("EXECUTE", Decimal("12.00"))
    assert (repeated.result, repeated.stage) == ("BLOCK", "POLICY")
    assert repeated.money_contained == Decimal("12.00")
    refunds = [r for r in fake_stripe.requests if r["path"].startswith("/v1/refunds")]
    assert len(refunds) == 1


def test_a_knowledge_sentence_quoted_word_for_word_is_not_taken_for_a_claim(shop):
    knowledge_note(shop, "Parking", "Street parking is paid on weekdays.")
    token = started(shop)
    result = say(token, "is there parking?")
    assert "Street parking is paid on weekdays." in result.reply.text
    assert "Parking" not in result.reply.text.split("Street")[0]  # no heading quoted
    # The same words as the model's own claim about this client are still rewritten.
    model = ScriptedModel([Proposed()], drafts=["Your deposit is paid."])
    assert "paid" not in say(token, "did it work?", model).reply.text


def test_no_confirmation_is_offered_while_required_details_are_missing(shop):
    token = started(shop)
    model = ScriptedModel(
        [Proposed((HOLD_TEN, {"action": "collect_contact", "name": "Ana"}))],
        drafts=["Perfect, Ana — shall I confirm it for you now?"],
    )
    result = say(token, "haircut wednesday at 10, I'm Ana", model)
    assert result.conversation.state == "slot_held"
    assert "confirm" not in result.reply.text.lower()
    assert "To book it, I need your email." in result.reply.text
    assert GuardRewrite.objects.filter(guard="status").exists()
