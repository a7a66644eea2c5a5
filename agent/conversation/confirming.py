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
import hashlib

from django.db import transaction
from django.utils import timezone

from agent.conversation import facts
from agent.conversation.execute import Executed, hold_release
from agent.conversation.states import TERMINAL, State
from agent.conversation.turns import (
    TurnResult,
    audit,
    judge,
    locked_conversation,
    narrate_and_store,
    reply_lease,
)
from agent.gates import APPROVED, GateVerdict, Stage, blocked
from agent.llm.base import StepOutcome
from agent.models import Conversation, Message, MessageRole
from agent.offline.model import OfflineModel
from agent.services import granted_actions
from bookings.errors import IdempotencyConflict, InvalidBooking, SlotUnavailable
from bookings.models import Appointment, AppointmentStatus
from bookings.services import ClientDetails, appointment_create
from payments.services import deposit_checkout_open
from payments.services.checkout import deposit_for
from payments.stripe_api import StripeUnavailable

LIVE = (AppointmentStatus.CONFIRMED, AppointmentStatus.PENDING_PAYMENT)


class AlreadyBooked(Exception):
    """This conversation's booking was made with another Idempotency-Key."""


class ConversationClosed(Exception):
    """A human has the conversation, or it is over: nothing more is booked in it."""


def conversation_confirm(
    *, token: str, idempotency_key: str, card: str, now: dt.datetime | None = None
) -> TurnResult:
    """The client pressed Confirm on ``card`` (the fingerprint the booking was shown with)."""
    now = now or timezone.now()
    with transaction.atomic():
        conversation = locked_conversation(token, now)
        key = scoped_key(conversation, idempotency_key)
        appointment = conversation.appointment
        if appointment is not None and appointment.idempotency_key == key:
            return _replay(conversation, now)
        if State(conversation.state) in TERMINAL:
            raise ConversationClosed()
        if appointment is not None and appointment.status in LIVE:
            raise AlreadyBooked()
        Message.objects.create(conversation=conversation, role=MessageRole.CLIENT, text="Confirm")
        granted = granted_actions(business=conversation.business)
        proposal = {"action": "confirm_booking", "card": card or None}
        verdict, _structured, _policy = judge(conversation, proposal, granted, now, actor="client")
        done = _book(conversation, key, now) if verdict.passed else Executed(verdict)
        step = audit(conversation, proposal, done)
        conversation.last_message_at = now
        facts.restage(conversation, now)
        # Until the reply is stored, this conversation is taken (ADR 0005).
        lease = reply_lease(now)
        conversation.reply_lease_until = lease
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
        lease=lease,
        confirm_reply=done.verdict.passed,
    )
    return TurnResult(conversation, reply, [done.outcome] if done.outcome else [], [done])


def scoped_key(conversation: Conversation, idempotency_key: str) -> str:
    """The client's key, as this conversation's alone: the same key sent from another
    conversation (or to the booking API) is another booking, never this one's replay."""
    digest = hashlib.sha256(idempotency_key.encode()).hexdigest()[:40]
    return f"chat:{conversation.public_id}:{digest}"


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
    if not outcome.created and outcome.appointment.status not in LIVE:
        # This key already made a booking here that was released (its deposit could not be
        # taken): a retry must not read as booked.
        raise IdempotencyConflict()
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
        return None, Executed(verdict, outcome=done.outcome, payments_unavailable=True)
    return (checkout.payment if checkout else None), done


def _replay(conversation: Conversation, now: dt.datetime) -> TurnResult:
    """The same answer as the first time this request was made. Its reply is stored with the
    booking's; if the process died in between, the reply is written now from the facts."""
    done = Executed(APPROVED, replayed=True)
    reply = conversation.confirm_reply
    if reply is None:
        step = StepOutcome(action="confirm_booking", executed=True, reason="approved")
        payment = facts.payment_of(conversation)
        narration = facts.narration_of(
            conversation, facts.quiet_context(conversation, now), [(step, done)], payment=payment
        )
        reply = narrate_and_store(
            conversation, narration, model=OfflineModel(), payment=payment, confirm_reply=True
        )
    return TurnResult(conversation, reply, [], [done])
