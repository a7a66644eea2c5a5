"""The client's Confirm: the only way a booking is made from the widget.

It is a ``confirm_booking`` proposal made by the client, judged by the same three gates (the
agent must be granted it; the POLICY gate wants a held slot and every required detail) and
executed through the booking-with-deposit flow (``orchestration.booking_with_deposit``, the
core's one door ``appointment_create`` with its deposit and reminders) with the client's
Idempotency-Key: a double click or a retried request answers with the same appointment. A time
lost since it was held comes back as an honest refusal with the core's real alternatives.

When the business asks a deposit the appointment is booked awaiting it, and its Stripe Checkout
is opened after the transaction commits (the day's booking lock is never held during a call to
Stripe); when Stripe cannot open one the appointment is released and the client told so.

Everything the client reads from here — refusals, the next step, the narration, even their press
recorded as their message — is in the conversation's language, whoever calls (the chat API sets
it too); the audit keeps its reasons in English (agent.conversation.policy).
"""

from __future__ import annotations

import datetime as dt
import hashlib

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

from agent.conversation import facts, telling
from agent.conversation.claims import conversation_claim
from agent.conversation.execute import Executed, core_refusal, effect_run, hold_release
from agent.conversation.policy import EFFECT_REQUESTS
from agent.conversation.states import TERMINAL, State
from agent.conversation.turns import (
    TurnResult,
    audit,
    judge,
    locked_conversation,
    narrate_and_store,
    reply_lease,
    token_hash,
)
from agent.gates import APPROVED, GateVerdict, Stage, blocked
from agent.llm.base import StepOutcome
from agent.models import Conversation, Message, MessageRole
from agent.offline.model import OfflineModel
from agent.services import granted_actions
from bookings.actors import Actor
from bookings.errors import IdempotencyConflict, InvalidBooking, SlotUnavailable
from bookings.models import AppointmentStatus
from bookings.services import ClientDetails
from orchestration.booking_with_deposit import booking_with_deposit_create
from orchestration.deposit_settlement import deposit_checkout_open
from payments.stripe_api import StripeUnavailable

LIVE = (AppointmentStatus.CONFIRMED, AppointmentStatus.PENDING_PAYMENT)


class AlreadyBooked(Exception):
    """This conversation's booking was made with another Idempotency-Key."""


class ConversationClosed(Exception):
    """A human has the conversation, or it is over: nothing more is booked in it."""


def conversation_confirm(
    *, token: str, idempotency_key: str, card: str, now: dt.datetime | None = None
) -> TurnResult:
    """The client pressed Confirm on ``card`` (the fingerprint the booking was shown with).

    The request holds the conversation's claim throughout (``agent.conversation.claims``), so
    when a process dies anywhere between the booking and its reply, the client's retry with
    the same key carries on at once and ends where the first would have: the same booking,
    the same Checkout (opened now if Stripe had not been asked yet), and its reply.
    """
    now = now or timezone.now()
    # ``_confirm`` speaks the conversation's language once it has read it; the caller's is back
    # when it is done.
    with translation.override(translation.get_language()), conversation_claim(token_hash(token)):
        return _confirm(token, idempotency_key, card, now)


def _confirm(token: str, idempotency_key: str, card: str, now: dt.datetime) -> TurnResult:
    with transaction.atomic():
        conversation = locked_conversation(token, now)
        translation.activate(conversation.language)
        key = scoped_key(conversation, idempotency_key)
        if conversation.confirm_key == key and conversation.confirm_reply is not None:
            # The same answer as the first time this request was made.
            done = Executed(APPROVED, replayed=True)
            return TurnResult(conversation, conversation.confirm_reply, [], [done])
        effect = conversation.pending_effect
        if effect is not None and card and card == telling.effect_card_of(effect):
            return _effect_confirm(conversation, effect, key, now)
        appointment = conversation.appointment
        replayed = appointment is not None and appointment.idempotency_key == key
        if replayed:
            # Booked by this key, but the process died before its reply was written: finish
            # what it was doing, from the facts.
            done = Executed(APPROVED, replayed=True)
            step = StepOutcome(action="confirm_booking", executed=True, reason="approved")
        else:
            step, done = _confirm_booking(conversation, key, card, now)
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
        confirm_key=key if done.verdict.passed else None,
    )
    return TurnResult(conversation, reply, [done.outcome] if done.outcome else [], [done])


def _effect_confirm(
    conversation: Conversation, effect: dict[str, str], key: str, now: dt.datetime
) -> TurnResult:
    """The client pressed the card of a cancel, move or refund they asked for: judged again by
    the three gates as the client's own command, run through the core, audited, answered — all
    in this one transaction, so a retry finds it done (and its reply) or not done at all."""
    if State(conversation.state) in TERMINAL:
        raise ConversationClosed()
    Message.objects.create(
        conversation=conversation,
        role=MessageRole.CLIENT,
        text=telling.effect_button(effect["action"]),
    )
    granted = granted_actions(business=conversation.business)
    command = {key: value for key, value in effect.items() if key != "from"}
    verdict, structured, _policy = judge(conversation, command, granted, now, actor="client")
    appointment = conversation.acted_on
    if verdict.passed and (
        appointment is None or appointment.starts_at.isoformat() != effect["from"]
    ):
        verdict = blocked(
            Stage.POLICY,
            "the booking changed since its card was shown",
            gettext(
                "Your booking changed since I showed you that, so I haven't done it; tell me "
                "again what you'd like."
            ),
        )
    if verdict.passed and structured is not None:
        done = effect_run(conversation, structured, now)
    else:
        done = Executed(verdict)
    conversation.pending_effect = None  # pressed: the card is used, whatever came of it
    if done.verdict.passed:
        asked = EFFECT_REQUESTS[effect["action"]]
        conversation.asked = [request for request in conversation.asked if request != asked]
    step = audit(conversation, command, done)
    conversation.last_message_at = now
    facts.restage(conversation, now)
    payment = facts.payment_of(conversation)
    narration = facts.narration_of(
        conversation, facts.quiet_context(conversation, now), [(step, done)], payment=payment
    )
    conversation.save()
    reply = narrate_and_store(
        conversation,
        narration,
        model=OfflineModel(),
        payment=payment,
        confirm_key=key if done.verdict.passed else None,
    )
    return TurnResult(conversation, reply, [done.outcome] if done.outcome else [], [done])


def _confirm_booking(
    conversation: Conversation, key: str, card: str, now: dt.datetime
) -> tuple[StepOutcome, Executed]:
    """The Confirm judged by the three gates and, if it passes, booked; audited either way."""
    if State(conversation.state) in TERMINAL:
        raise ConversationClosed()
    appointment = conversation.appointment
    if appointment is not None and appointment.status in LIVE:
        raise AlreadyBooked()
    pressed = pgettext("the button that books what the client was shown", "Confirm")
    Message.objects.create(conversation=conversation, role=MessageRole.CLIENT, text=pressed)
    granted = granted_actions(business=conversation.business)
    proposal = {"action": "confirm_booking", "card": card or None}
    verdict, _structured, _policy = judge(conversation, proposal, granted, now, actor="client")
    if verdict.passed:
        done = _book(conversation, key, now)
    elif conversation.lapsed_start is not None and conversation.held_start is None:
        done = _lapsed_refusal(conversation, verdict)
    else:
        done = Executed(verdict)
    step = audit(conversation, proposal, done)
    conversation.last_message_at = now
    facts.restage(conversation, now)
    return step, done


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
    try:
        # Awaiting its deposit, the appointment holds its time; its payment is written with it.
        outcome = booking_with_deposit_create(
            service=service,
            start=conversation.held_start,
            client=ClientDetails(
                name=conversation.name, email=conversation.email, phone=conversation.phone
            ),
            idempotency_key=idempotency_key,
            holder=conversation.holder,
            # Where this conversation's negotiation stands under the owner's terms now (the
            # price the card showed); the list price without one.
            price=facts.negotiation_standing(conversation).price,
            actor=Actor.client(),
            now=now,
        )
    except SlotUnavailable as refusal:
        # Lost since it was held (the hold lapsed and someone booked it): say so, offer more.
        hold_release(conversation)
        alternatives = [slot.start for slot in refusal.alternatives]
        conversation.offered = [start.isoformat() for start in alternatives]
        return Executed(
            core_refusal(refusal.message), alternatives=alternatives, service_id=service.pk
        )
    except InvalidBooking as refusal:
        # Field by field, for the audit log; the client reads the plain refusal of a booking.
        return Executed(blocked(Stage.POLICY, refusal.message))
    if not outcome.created and outcome.appointment.status not in LIVE:
        # This key already made a booking here that was released (its deposit could not be
        # taken): a retry must not read as booked.
        raise IdempotencyConflict()
    conversation.appointment = outcome.appointment
    # What the chat acts on from now is the booking just made, not an older one it chose.
    conversation.subject = None
    # The core consumed the hold with the booking.
    conversation.held_start = conversation.held_until = None
    facts.reference_create(conversation)
    return Executed(APPROVED)


def _lapsed_refusal(conversation: Conversation, verdict: GateVerdict) -> Executed:
    """The Confirm of a booking whose hold ran out: told in the refusal itself (still free and
    offered again, or taken, with the nearest open times), not as a missing hold."""
    start = conversation.lapsed_start
    assert start is not None
    conversation.lapsed_start = None  # told here
    offered = [dt.datetime.fromisoformat(moment) for moment in conversation.offered]
    still_free = offered == [start]
    said = telling.lapsed_words(start, conversation.business.time_zone, still_free=still_free)
    reason = f"the hold ran out ({verdict.reason}); the time is {'free' if still_free else 'taken'}"
    refusal = blocked(Stage.POLICY, reason, said)
    if still_free:
        return Executed(refusal, slots=offered, service_id=conversation.service_id)
    return Executed(refusal, alternatives=offered, service_id=conversation.service_id)


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
