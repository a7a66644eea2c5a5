"""Every history row names who acted, typed, and the same actor is the same kind everywhere: the
client who confirms in the chat, Stripe's webhook and reconciliation, the assistant refunding or
cancelling, the sweep releasing an unpaid deposit."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from agent.actions import Refund
from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import Conversation
from agent.services import grants_set, refund_execute
from bookings.actors import Actor, ActorKind, actor_label
from bookings.models import AppointmentEvent, AppointmentEventKind, DepositRule
from bookings.services import ClientDetails, appointment_cancel, appointment_create
from payments.models import Refund as RefundRow
from payments.services import payment_verify, release_unpaid_expired
from tests.agent.conversation.chat_http import shown_card
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon
from tests.payments.conftest import fake_stripe  # noqa: F401 - the fixture, by name
from tests.payments.test_webhooks import (  # noqa: F401 - the `deposit` fixture
    awaiting_deposit,
    deliver_event,
    session_object,
)

pytestmark = pytest.mark.usefixtures("frozen_now")

HOLD_TEN = {"action": "hold_slot", "service": "Haircut", "start": lisbon(WEDNESDAY, "10:00")}
ANA = {"action": "collect_contact", "name": "Ana Silva", "email": "ana@example.com"}


def actors_of(appointment_id) -> list[tuple[str, Actor]]:
    events = AppointmentEvent.objects.filter(appointment_id=appointment_id).order_by("id")
    return [(event.kind, event.actor) for event in events]


def test_a_chat_booking_paid_and_refunded_names_each_actor(salon, haircut, fake_stripe):  # noqa: F811
    # Given a salon asking a 20 % deposit, and a chat that holds 10:00 with the client's details
    salon.deposit_rule, salon.deposit_percent = DepositRule.PERCENT, 20
    salon.max_refund = Decimal("100.00")
    salon.save()
    grants_set(business=salon)
    _conversation, token, _greeting = conversation_start(business=salon)
    hold_ten = {**HOLD_TEN, "start": HOLD_TEN["start"].isoformat()}
    first = turn_take(
        token=token,
        text="Haircut Wednesday at 10, Ana Silva, ana@example.com",
        model=ScriptedModel([Proposed((hold_ten, ANA))]),
    )
    assert first.conversation.state == "details_collected", first.outcomes

    # When the client confirms, pays (Stripe confirms it), and the assistant's refund runs
    conversation_confirm(token=token, idempotency_key="chat-1", card=shown_card(token))
    appointment = Conversation.objects.select_related("appointment__payment").get().appointment
    fake_stripe.pay(appointment.payment.checkout_session_id)
    payment_verify(appointment.payment)
    proposal = Refund(appointment=appointment.reference.reference, amount=Decimal("12.00"))
    verdict, moved = refund_execute(business=salon, proposal=proposal, now=NOW)
    assert (verdict.passed, moved) == (True, Decimal("12.00"))

    # Then the history says the client booked, Stripe confirmed the deposit, and the assistant
    # refunded it (the assistant, never "agent"); the refund row says the same
    assert actors_of(appointment.pk) == [
        (AppointmentEventKind.CREATED, Actor.client()),
        (AppointmentEventKind.PAID, Actor.payments()),
        (AppointmentEventKind.REFUNDED, Actor.assistant()),
    ]
    assert RefundRow.objects.get().actor == Actor.assistant()


def test_the_assistant_cancelling_is_recorded_as_the_assistant(haircut):
    booked = appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("A", "a@x.pt")
    ).appointment

    appointment_cancel(appointment=booked, actor=Actor.assistant(), reason="cancelled in chat")

    cancelled = AppointmentEvent.objects.get(kind=AppointmentEventKind.CANCELLED)
    assert (cancelled.actor, cancelled.actor_display) == (Actor.assistant(), "The assistant")


def test_stripe_s_webhook_is_recorded_as_payments(fake_stripe, deposit):  # noqa: F811
    deliver_event("evt_paid", "checkout.session.completed", session_object(fake_stripe, deposit))

    paid = AppointmentEvent.objects.get(kind=AppointmentEventKind.PAID)
    assert paid.actor == Actor.payments()
    assert paid.actor_display == "Stripe"


def test_the_sweep_releasing_an_unpaid_deposit_is_recorded_as_system(deposit):
    with time_machine.travel(NOW + dt.timedelta(minutes=31), tick=False):
        assert release_unpaid_expired() == 1

    expired = AppointmentEvent.objects.get(kind=AppointmentEventKind.EXPIRED)
    assert expired.actor == Actor.system()


# --- the value itself ----------------------------------------------------------------------


def test_an_actor_of_a_kind_that_is_no_person_carries_no_user():
    with pytest.raises(ValueError, match="has no user account"):
        Actor(ActorKind.ASSISTANT, 7)


def test_a_person_acts_only_as_owner_staff_or_operator(salon):
    from tests.factories import UserFactory

    user = UserFactory()

    assert Actor.of_user(user, "staff") == Actor(ActorKind.STAFF, user.pk)
    with pytest.raises(ValueError, match="Unknown role"):
        Actor.of_user(user, "assistant")


def test_history_cannot_be_written_with_a_string_actor(salon):
    with pytest.raises(TypeError, match=r"bookings\.actors\.Actor"):
        AppointmentEvent(actor="agent")


@pytest.mark.parametrize(
    ("kind", "username", "label"),
    [
        ("staff", "maria", "Staff: maria"),
        ("owner", "ana", "Owner: ana"),
        ("owner", None, "Owner (account removed)"),
        ("operator", "root", "Ordina: root"),
        ("client", None, "The client"),
        ("assistant", None, "The assistant"),
        ("payments", None, "Stripe"),
        ("system", None, "Ordina (scheduled)"),
    ],
)
def test_an_actor_reads_as_who_it_is(kind, username, label):
    assert actor_label(kind, username) == label
