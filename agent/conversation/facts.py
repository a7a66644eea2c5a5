"""Reading a locked conversation's facts for the turn: its stage brought up to date, the view a
model may see, the facts the POLICY gate judges, and the narration of what the turn did.

Every query a turn makes is here or in the core's services, and none grows with the length of
the conversation: the model sees the last ``HISTORY_MESSAGES`` messages, nothing older.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from agent.conversation import telling
from agent.conversation.execute import Executed, hold_release
from agent.conversation.policy import ConversationFacts, missing_fields
from agent.conversation.states import (
    BOOKING,
    TERMINAL,
    Snapshot,
    State,
    handed_back,
    stage_of,
    transition,
)
from agent.llm.base import ConversationView, Narration, ServiceFact, StepOutcome, TurnContext
from agent.models import AppointmentReference, Conversation, Message
from agent.offline.reading import MessageReading, read_message
from agent.services import granted_actions
from bookings.models import Appointment, AppointmentStatus, Business, Service
from knowledge.selectors import knowledge_for_prompt
from payments.models import Payment
from payments.services.checkout import deposit_for

HISTORY_MESSAGES = 8
IDLE_EXPIRY = dt.timedelta(days=30)  # a booking left unfinished this long is closed
NOTHING_READ = MessageReading((), (), (), (), None, (), None, is_routine=False)


def restage(conversation: Conversation, now: dt.datetime) -> None:
    """Bring the stage up to date with the facts (see agent.conversation.states)."""
    if State(conversation.state) in TERMINAL:
        return  # a human has it, or it is over: no fact moves it any more
    snapshot = _snapshot(conversation, now)
    conversation.state = transition(State(conversation.state), stage_of(snapshot))


def hand_back(conversation: Conversation, now: dt.datetime) -> None:
    """A person hands an escalated conversation back to the assistant: it resumes where its
    facts stand, with its loop breakers reset."""
    conversation.state = handed_back(State(conversation.state), _snapshot(conversation, now))
    conversation.escalation_reason = ""
    conversation.blocked_turns = 0


def _snapshot(conversation: Conversation, now: dt.datetime) -> Snapshot:
    """The facts that decide the stage, after letting go of what time has overtaken."""
    # A lapsed hold keeps its time in the conversation: pressing Confirm still tries to book it
    # (the hold was only ever optimistic; the core decides at booking). A time that has
    # passed is gone, held or offered.
    passed = conversation.held_start is not None and conversation.held_start <= now
    if passed or conversation.service_id is None:  # the time went by, or the service was removed
        hold_release(conversation)
    conversation.offered = [
        start for start in conversation.offered if dt.datetime.fromisoformat(start) > now
    ]
    appointment = conversation.appointment
    if appointment is not None and appointment.status == AppointmentStatus.EXPIRED:
        # Released for an unpaid deposit: the client chooses a time again.
        conversation.appointment = None
        conversation.offered = []
    idle = (
        conversation.last_message_at is not None
        and now - conversation.last_message_at > IDLE_EXPIRY
        and conversation.state in BOOKING
    )
    if idle:
        hold_release(conversation)
    snapshot = Snapshot(
        has_service=conversation.service_id is not None,
        has_offered=bool(conversation.offered),
        holds_slot=conversation.held_start is not None,
        details_complete=not missing_fields(conversation.name, conversation.email),
        appointment_status=conversation.appointment.status if conversation.appointment else None,
        escalated=conversation.state == State.ESCALATED,
        idle_expired=idle,
    )
    return snapshot


def active_services(business: Business) -> list[Service]:
    """The business's bookable services, read once per request and kept on the instance."""
    cached = getattr(business, "_active_services", None)
    if cached is None:
        cached = list(Service.objects.filter(business=business, is_active=True).order_by("name"))
        for service in cached:
            service.business = business
        business._active_services = cached  # type: ignore[attr-defined]
    return cached


def service_facts(business: Business) -> tuple[ServiceFact, ...]:
    return tuple(
        ServiceFact(
            id=service.pk,
            name=service.name,
            minutes=service.duration_minutes,
            price=service.list_price,
            currency=business.currency,
        )
        for service in active_services(business)
    )


def reference_of(appointment: Appointment | None) -> str | None:
    """The reference a conversation's appointment goes by in chat ("A-3F9C2B1D0E7A4C55"): 64
    bits of its random public id, so no two of a business's appointments share one."""
    return None if appointment is None else f"A-{appointment.public_id.hex[:16].upper()}"


def reference_create(conversation: Conversation) -> None:
    appointment = conversation.appointment
    reference = reference_of(appointment)
    assert appointment is not None
    assert reference is not None
    AppointmentReference.objects.get_or_create(
        appointment=appointment,
        defaults={"business": conversation.business, "reference": reference},
    )


def policy_facts(conversation: Conversation, now: dt.datetime) -> ConversationFacts:
    business = conversation.business
    services: dict[str, int] = {}
    for service in active_services(business):
        services[str(service.pk)] = service.pk
        services[service.name.lower()] = service.pk
    appointment = conversation.appointment
    return ConversationFacts(
        now=now,
        time_zone=business.time_zone,
        country=business.country,
        horizon_days=business.booking_horizon_days,
        services=services,
        service_id=conversation.service_id,
        holds_slot=conversation.held_start is not None,
        missing=missing_fields(conversation.name, conversation.email),
        appointment=reference_of(appointment),
        appointment_status=appointment.status if appointment else None,
        card=telling.card_of(view_of(conversation)),
    )


def view_of(conversation: Conversation) -> ConversationView:
    by_id = {service.id: service for service in service_facts(conversation.business)}
    appointment = conversation.appointment
    return ConversationView(
        state=conversation.state,
        service=by_id.get(conversation.service_id) if conversation.service_id else None,
        offered=tuple(dt.datetime.fromisoformat(start) for start in conversation.offered),
        held=conversation.held_start,
        hold_expires=conversation.held_until,
        name=conversation.name,
        email=conversation.email,
        phone=conversation.phone,
        missing=missing_fields(conversation.name, conversation.email),
        appointment=reference_of(appointment),
        appointment_status=appointment.status if appointment else None,
        appointment_start=appointment.starts_at if appointment else None,
    )


def turn_context(
    conversation: Conversation,
    text: str,
    now: dt.datetime,
    *,
    history: bool = True,
    menu: bool = True,
    current_stored: bool = True,
) -> TurnContext:
    """What the model is shown. ``history`` and ``menu``: the last messages and the granted
    commands, for a model that reads them (the offline model reads neither, and its proposals
    are judged against the grants all the same); ``current_stored``: the client's message is
    already among the last messages and is left out."""
    business = conversation.business
    services = service_facts(business)
    reading = read_message(
        text,
        now=now,
        time_zone=business.tzinfo,
        country=business.country,
        services=[(service.id, service.name) for service in services],
    )
    knowledge = "" if reading.is_routine else knowledge_for_prompt(business_id=business.pk)
    earlier: list[tuple[str, str]] = []
    if history:
        skip = 1 if current_stored else 0
        earlier = list(
            Message.objects.filter(conversation=conversation)
            .order_by("-id")
            .values_list("role", "text")[skip : HISTORY_MESSAGES + skip]
        )
    return quiet_context(
        conversation,
        now,
        services=services,
        message=text,
        reading=reading,
        actions=tuple(sorted(granted_actions(business=business))) if menu else (),
        history=tuple(reversed(earlier)),
        knowledge=knowledge,
    )


def quiet_context(conversation: Conversation, now: dt.datetime, **read: Any) -> TurnContext:
    """The context of a turn; with nothing ``read`` (message, reading, actions, history,
    knowledge, services), that of a turn no model reads: a greeting, a Confirm, a closed chat."""
    business = conversation.business
    unread: dict[str, Any] = {"message": "", "reading": NOTHING_READ, "actions": ()}
    if "services" not in read:
        unread["services"] = service_facts(business)
    return TurnContext(
        business=business.name,
        time_zone=business.time_zone,
        language=business.language,
        currency=business.currency,
        now=now,
        conversation=view_of(conversation),
        **{**unread, **read},
    )


def narration_of(
    conversation: Conversation,
    turn: TurnContext,
    steps: list[tuple[StepOutcome, Executed]],
    *,
    payment: Payment | None,
    reply: str = "",
) -> Narration:
    """What the model narrates: the turn's outcomes and facts, and the conversation after."""
    view = view_of(conversation)
    services = service_facts(conversation.business)
    awaiting = view.state == State.AWAITING_PAYMENT
    deposit = None
    if view.service is not None and view.state in (
        State.SLOT_HELD,
        State.DETAILS_COLLECTED,
        State.AWAITING_PAYMENT,
    ):
        deposit = _deposit(conversation) or None
    return Narration(
        turn=turn,
        outcomes=tuple(outcome for outcome, _done in steps),
        after=view,
        slots=tuple(start for _outcome, done in steps for start in done.slots),
        alternatives=tuple(start for _outcome, done in steps for start in done.alternatives),
        price=view.service.price if view.service else None,
        deposit=deposit,
        payment_url=payment.checkout_url if awaiting and payment else "",
        payment_expires=payment.expires_at if awaiting and payment else None,
        next_step=telling.next_step(view, services),
        notes=(*(done.said for _outcome, done in steps if done.said), *([reply] if reply else [])),
    )


def payment_of(conversation: Conversation) -> Payment | None:
    if conversation.appointment is None:
        return None
    return Payment.objects.filter(appointment=conversation.appointment).first()


def _deposit(conversation: Conversation) -> Decimal:
    if conversation.appointment is not None:
        return deposit_for(conversation.appointment)
    service = conversation.service
    assert service is not None
    service.business = conversation.business
    return deposit_for(
        Appointment(business=conversation.business, service=service, price=service.list_price)
    )
