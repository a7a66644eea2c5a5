"""The client's Confirm: the only way a booking is made from the widget.

It is a ``confirm_booking`` proposal made by the client, judged by the same three gates (the
agent must be granted it; the POLICY gate wants a held slot and every required detail) and
executed through the core's one door, ``appointment_create``, with the client's
Idempotency-Key: a double click or a retried request answers with the same appointment. A time
lost since it was held comes back as an honest refusal with the core's real alternatives.

When the business asks a deposit the appointment is booked awaiting it, and its Stripe Checkout
is opened after the transaction commits (the day's booking lock is never held during a call to
Stripe); when Stripe cannot open one the appointment is released and the client told so.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from agent.conversation import facts
from agent.conversation.execute import Executed, hold_release
from agent.conversation.turns import (
    REPLY_LEASE,
    TurnResult,
    audit,
    judge,
    locked_conversation,
    narrate_and_store,
)
from agent.gates import APPROVED, GateVerdict, Stage, blocked
from agent.models import Conversation, Message, MessageRole
from agent.offline.model import OfflineModel
from agent.services import granted_actions
from bookings.errors import InvalidBooking, SlotUnavailable
from bookings.models import Appointment, AppointmentStatus
from bookings.services import ClientDetails, appointment_create
from payments.services import deposit_checkout_open
from payments.services.checkout import deposit_for
from payments.stripe_api import StripeUnavailable

CONFIRM = {"action": "confirm_booking"}


class AlreadyBooked(Exception):
    """This conversation's booking was made with another Idempotency-Key."""


def conversation_confirm(
    *, token: str, idempotency_key: str, now: dt.datetime | None = None
) -> TurnResult:
    now = now or timezone.now()
    with transaction.atomic():
        conversation = locked_conversation(token, now)
        appointment = conversation.appointment
        if appointment is not None and appointment.idempotency_key == idempotency_key:
            return _replay(conversation)
        if appointment is not None and appointment.status in (
            AppointmentStatus.CONFIRMED,
            AppointmentStatus.PENDING_PAYMENT,
        ):
            raise AlreadyBooked()
        Message.objects.create(conversation=conversation, role=MessageRole.CLIENT, text="Confirm")
        granted = granted_actions(business=conversation.business)
        verdict, _structured = judge(conversation, CONFIRM, granted, now, actor="client")
        done = _book(conversation, idempotency_key, now) if verdict.passed else Executed(verdict)
        step = audit(conversation, CONFIRM, done)
        conversation.last_message_at = now
        facts.restage(conversation, now)
        # Until the reply is stored, this conversation is taken (ADR 0005).
        conversation.reply_lease_until = now + REPLY_LEASE
        conversation.save()
    payment = None
    if done.verdict.passed and conversation.appointment is not None:
        payment, done = _checkout(conversation, done, now)
    with transaction.atomic():
        # Read again: a checkout Stripe could not open has released the appointment.
        conversation = locked_conversation(token, now, holding_lease=True)
        conversation.save()
        narration = facts.narration_of(
            conversation, facts.quiet_context(conversation, now), [(step, done)], payment=payment
        )
    reply = narrate_and_store(
        conversation,
        narration,
        model=OfflineModel(),
        payment=payment,
        confirm_reply=done.verdict.passed,
    )
    return TurnResult(conversation, reply, [done.outcome] if done.outcome else [], [done])


def _book(conversation: Conversation, idempotency_key: str, now: dt.datetime) -> Executed:
    business, service = conversation.business, conversation.service
    # The POLICY gate checked both.
    assert service is not None
    assert conversation.held_start is not None
    service.business = business
    deposit = deposit_for(Appointment(business=business, service=service, price=service.list_price))
    status = AppointmentStatus.PENDING_PAYMENT if deposit > 0 else AppointmentStatus.CONFIRMED
    try:
        outcome = appointment_create(
            service=service,
            start=conversation.held_start,
            client=ClientDetails(
                name=conversation.name, email=conversation.email, phone=conversation.phone
            ),
            idempotency_key=idempotency_key,
            holder=conversation.holder,
            status=status,
            actor="client",
            now=now,
        )
    except SlotUnavailable as refusal:
        # Lost since it was held (the hold lapsed and someone booked it): say so, offer more.
        hold_release(conversation)
        alternatives = [slot.start for slot in refusal.alternatives]
        conversation.offered = [start.isoformat() for start in alternatives]
        return Executed(blocked(Stage.POLICY, refusal.message), alternatives=alternatives)
    except InvalidBooking as refusal:
        return Executed(blocked(Stage.POLICY, refusal.message))
    conversation.appointment = outcome.appointment
    # The core consumed the hold with the booking.
    conversation.held_start = conversation.held_until = None
    facts.reference_create(conversation)
    return Executed(APPROVED)


def _checkout(conversation: Conversation, done: Executed, now: dt.datetime):
    appointment = conversation.appointment
    assert appointment is not None
    if appointment.status != AppointmentStatus.PENDING_PAYMENT:
        return None, done
    try:
        checkout = deposit_checkout_open(appointment=appointment, now=now)
    except StripeUnavailable:
        # The checkout service released the appointment: its time is open again.
        verdict = GateVerdict(
            False, None, "payments are unavailable, so nothing was booked; please try again"
        )
        return None, Executed(verdict, outcome=done.outcome)
    return (checkout.payment if checkout else None), done


def _replay(conversation: Conversation) -> TurnResult:
    """The same answer as the first time this request was made."""
    reply = conversation.confirm_reply
    assert reply is not None  # stored with the booking's reply (the lease kept others out)
    return TurnResult(conversation, reply, [], [Executed(APPROVED, moved=Decimal("0"))])
