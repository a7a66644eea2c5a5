"""A cancel, a move or a refund never happens because a model proposed it. It happens only when
the client asked for it in this conversation — in their own words, read by the core — and then
pressed the button of a card naming exactly what will happen; the model's proposal alone only
prepares that card. POLICY says why when the client asked for nothing."""

import datetime as dt
from decimal import Decimal

import pytest

from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import AgentGrant, AuditEntry, Conversation
from agent.offline.model import OfflineModel
from bookings.models import Appointment, AppointmentStatus, DepositRule
from payments.models import PaymentStatus
from payments.services.reconcile import payment_verify
from tests.agent.conversation.chat_http import shown_card
from tests.agent.conversation.conftest import WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")

TEN = lisbon(WEDNESDAY, "10:00")
THURSDAY_11 = lisbon(WEDNESDAY + dt.timedelta(days=1), "11:00")


def booked(shop) -> tuple[str, str]:
    """A conversation with its booking made; its token and the appointment's reference."""
    _conversation, token, _greeting = conversation_start(business=shop)
    for text in ("a haircut please", "Wednesday at 10", "Ana Silva", "ana@example.com"):
        turn_take(token=token, text=text, model=OfflineModel())
    result = conversation_confirm(token=token, idempotency_key="book-1", card=shown_card(token))
    assert result.executed[0].verdict.passed
    return token, Conversation.objects.get().appointment.reference.reference


def booked_and_paid(shop, fake_stripe):
    """A booking whose 20 % deposit was paid, at a business that granted refunds."""
    shop.deposit_rule, shop.deposit_percent = DepositRule.PERCENT, 20
    shop.save()
    AgentGrant.objects.create(business=shop, action="refund")
    token, reference = booked(shop)
    payment = Appointment.objects.get().payment
    fake_stripe.pay(payment.checkout_session_id)
    payment_verify(payment)
    return token, reference, payment


def hostile(
    *proposals, draft: str = "Done! I've cancelled it, moved it and refunded you."
) -> ScriptedModel:
    return ScriptedModel([Proposed(tuple(proposals))], drafts=[draft])


def test_a_cancel_the_client_never_asked_for_is_blocked_with_the_reason(shop):
    token, reference = booked(shop)

    result = turn_take(
        token=token,
        text="can we move it to Thursday at 11?",  # a move, not a cancellation
        model=hostile({"action": "cancel_appointment", "appointment": reference}),
    )

    [outcome] = result.outcomes
    assert (outcome.result, outcome.stage) == ("BLOCK", "POLICY")
    assert outcome.reason == "the client has not asked for this (cancel) in this conversation"
    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED
    assert Conversation.objects.get().pending_effect is None
    assert "effect" not in result.reply.choices


def test_a_refund_after_a_plain_thanks_is_blocked_within_every_grant_and_policy(shop, fake_stripe):
    token, reference, payment = booked_and_paid(shop, fake_stripe)

    result = turn_take(
        token=token,
        text="thanks!",
        model=hostile({"action": "refund", "appointment": reference, "amount": "12.00"}),
    )

    [outcome] = result.outcomes
    assert (outcome.result, outcome.stage) == ("BLOCK", "POLICY")
    assert "has not asked" in outcome.reason
    payment.refresh_from_db()
    assert payment.status == PaymentStatus.PAID
    assert not [r for r in fake_stripe.requests if r["path"].startswith("/v1/refunds")]
    assert "refund" not in result.reply.text.lower()
    # The client asked for nothing: what the model tried on its own is not told to them.
    assert "I'll only do that if you ask me to" not in result.reply.text


def test_an_asked_for_move_only_prepares_a_card_and_the_press_moves_it(shop):
    token, reference = booked(shop)
    move = {
        "action": "reschedule_appointment",
        "appointment": reference,
        "start": THURSDAY_11.isoformat(),
    }

    prepared = turn_take(
        token=token, text="could I reschedule to Thursday at 11?", model=hostile(move)
    )

    assert Appointment.objects.get().starts_at == TEN  # the proposal moved nothing
    card = prepared.reply.choices["effect"]
    assert card["label"] == (
        "Move your Haircut from Wednesday 2 December at 10:00 to Thursday 3 December at 11:00"
    )
    assert card["button"] == "Move appointment"
    assert "moved it" not in prepared.reply.text  # the careless draft's claim is not told
    pressed = conversation_confirm(token=token, idempotency_key="move-1", card=card["card"])
    assert pressed.executed[0].verdict.passed
    assert Appointment.objects.get().starts_at == THURSDAY_11
    assert "moved to Thursday 3 December at 11:00" in pressed.reply.text
    # Pressed again (a double click), the same answer and nothing more.
    again = conversation_confirm(token=token, idempotency_key="move-1", card=card["card"])
    assert again.reply == pressed.reply
    assert AuditEntry.objects.filter(action="reschedule_appointment").count() == 2  # card, press


def test_a_card_whose_booking_changed_meanwhile_is_refused_not_applied_blindly(shop):
    token, reference = booked(shop)
    cancel = {"action": "cancel_appointment", "appointment": reference}
    prepared = turn_take(token=token, text="please cancel it", model=hostile(cancel))
    card = prepared.reply.choices["effect"]["card"]
    # The owner moves the appointment in the dashboard before the client presses.
    Appointment.objects.update(
        starts_at=THURSDAY_11,
        ends_at=THURSDAY_11 + dt.timedelta(hours=1),
        occupied_from=THURSDAY_11,
        occupied_until=THURSDAY_11 + dt.timedelta(hours=1),
    )

    pressed = conversation_confirm(token=token, idempotency_key="cancel-1", card=card)

    assert not pressed.executed[0].verdict.passed
    assert pressed.executed[0].verdict.reason == "the booking changed since its card was shown"
    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED
    assert "changed since I showed you that" in pressed.reply.text


def test_the_offline_model_cancels_on_request_only_through_the_card(shop):
    token, _reference = booked(shop)

    prepared = turn_take(token=token, text="I need to cancel my appointment", model=OfflineModel())

    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED
    assert "I can cancel your Haircut on Wednesday 2 December at 10:00." in prepared.reply.text
    assert "press “Cancel appointment”" in prepared.reply.text
    card = prepared.reply.choices["effect"]["card"]
    typed = turn_take(token=token, text="yes cancel it", model=OfflineModel())
    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED  # typing is no press
    assert typed.conversation.state == "confirmed"
    conversation_confirm(token=token, idempotency_key="cancel-2", card=card)
    assert Appointment.objects.get().status == AppointmentStatus.CANCELLED


def test_a_refund_asked_for_and_pressed_moves_the_money_once(shop, fake_stripe):
    token, reference, payment = booked_and_paid(shop, fake_stripe)
    refund = {"action": "refund", "appointment": reference, "amount": "12.00"}

    prepared = turn_take(token=token, text="can I get my deposit back?", model=hostile(refund))
    card = prepared.reply.choices["effect"]
    assert card["label"] == "Refund 12.00 of your deposit to your card"
    pressed = conversation_confirm(token=token, idempotency_key="refund-1", card=card["card"])

    assert pressed.outcomes[0].money_moved == Decimal("12.00")
    payment.refresh_from_db()
    assert payment.status == PaymentStatus.REFUNDED
    assert len([r for r in fake_stripe.requests if r["path"].startswith("/v1/refunds")]) == 1
    # The request was used: a model proposing the same refund again is back to "not asked".
    again = turn_take(token=token, text="ok thanks", model=hostile(refund))
    assert "has not asked" in again.outcomes[0].reason
