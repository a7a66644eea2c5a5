"""Reading a locked conversation's facts for the turn: its stage brought up to date, the view a
model may see, the facts the POLICY gate judges, and the narration of what the turn did.

Every query a turn makes is here or in the core's services, and none grows with the length of
the conversation: the model sees the last ``HISTORY_MESSAGES`` messages, nothing older.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.conf import settings

from agent import stable_reads
from agent.conversation import bargaining, telling
from agent.conversation.execute import Executed, hold_release
from agent.conversation.policy import CHANGEABLE, ConversationFacts, missing_fields
from agent.conversation.references import client_appointments, reference_of
from agent.conversation.states import (
    BOOKING,
    TERMINAL,
    Snapshot,
    State,
    handed_back,
    stage_of,
    transition,
)
from agent.llm.base import (
    AppointmentFact,
    ConversationView,
    LapsedHold,
    Narration,
    ServiceFact,
    StepOutcome,
    TurnContext,
)
from agent.models import AppointmentReference, Conversation, Message, MessageRole
from agent.offline.dayparts import weekly_dayparts
from agent.offline.reading import MessageReading, read_message
from agent.services import granted_actions
from bookings.models import AppointmentStatus, Business, Service
from bookings.negotiation import Terms
from bookings.selectors import negotiation_terms, open_slots_for
from bookings.services import nearest_alternatives
from bookings.tokens import calendar_url, manage_url
from knowledge.selectors import knowledge_for_prompt
from orchestration.booking_with_deposit import deposit_quote
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
    conversation.escalation_alerted_at = None  # the next escalation is a new one
    conversation.blocked_turns = 0


def _snapshot(conversation: Conversation, now: dt.datetime) -> Snapshot:
    """The facts that decide the stage, after letting go of what time has overtaken."""
    held = conversation.held_start
    if held is not None and (held <= now or conversation.service_id is None):
        # The time went by, or the service was removed: nothing to tell beyond the stage.
        hold_release(conversation)
    elif (
        held is not None and conversation.held_until is not None and conversation.held_until <= now
    ):
        _let_lapsed_hold_go(conversation, held, now)
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


def _let_lapsed_hold_go(conversation: Conversation, start: dt.datetime, now: dt.datetime) -> None:
    """The hold ran out: the time is no longer kept, and the client is no longer shown it as
    held or asked to confirm it. What the core has now is offered instead — that very time
    if it is still free, else the nearest open ones — and the next reply says what happened
    (``lapsed_start`` is kept until then)."""
    hold_release(conversation)
    conversation.lapsed_start = start
    service = conversation.service
    assert service is not None
    service.business = conversation.business
    day = start.astimezone(conversation.business.tzinfo).date()
    free = open_slots_for(service, first_day=day, last_day=day, now=now, holder=conversation.holder)
    if any(slot.start == start for slot in free):
        conversation.offered = [start.isoformat()]
    else:
        nearest = nearest_alternatives(service, start, now=now, holder=conversation.holder)
        conversation.offered = [slot.start.isoformat() for slot in nearest]


def note_requests(conversation: Conversation, reading: MessageReading) -> None:
    """Remember what the client asked to be done to their booking or with money: the only
    effects a model may prepare in this conversation (agent.conversation.policy)."""
    if reading.requests:
        conversation.asked = sorted({*conversation.asked, *reading.requests})


def active_services(business: Business) -> list[Service]:
    """The business's bookable services, read once per request and kept on the instance (and
    in the process, while the business's read stamp stands: agent.stable_reads)."""
    return stable_reads.active_services(business)


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


def reference_create(conversation: Conversation) -> None:
    appointment = conversation.appointment
    reference = reference_of(appointment)
    assert appointment is not None
    assert reference is not None
    AppointmentReference.objects.get_or_create(
        appointment=appointment,
        defaults={"business": conversation.business, "reference": reference},
    )


# Contact details must have been typed by the client (agent.conversation.policy): these last
# client messages, with the one being answered, are what they are looked for in.
CLIENT_WORDS_MESSAGES = 50


def client_words(conversation: Conversation, current: str) -> str:
    """What the client wrote in this conversation lately, the current message included."""
    earlier = Message.objects.filter(conversation=conversation, role=MessageRole.CLIENT).order_by(
        "-id"
    )[:CLIENT_WORDS_MESSAGES]
    return "\n".join([*earlier.values_list("text", flat=True), current])


def policy_facts(
    conversation: Conversation, now: dt.datetime, *, client_said: str = ""
) -> ConversationFacts:
    business = conversation.business
    services: dict[str, int] = {}
    for service in active_services(business):
        services[str(service.pk)] = service.pk
        services[service.name.lower()] = service.pk
    appointment = conversation.appointment
    chosen = next(
        (each for each in active_services(business) if each.pk == conversation.service_id), None
    )
    # The chosen appointment only while it is still the verified client's (see acted_on).
    chosen_subject = conversation.acted_on if conversation.acted_on != appointment else None
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
        asked=frozenset(conversation.asked),
        effect_card=telling.effect_card_of(conversation.pending_effect),
        client_said=client_said,
        currency=business.currency,
        negotiable=chosen is not None and negotiation_terms(chosen) is not None,
        subject=reference_of(chosen_subject),
        subject_status=chosen_subject.status if chosen_subject else None,
        # Who may name a booking of theirs: a client who proved who they are, or a chat opened
        # from one appointment's manage link (its one booking).
        verified=conversation.verified_client_id is not None
        or conversation.proven_appointment_id is not None,
        client_appointments=frozenset(client_appointments(conversation)),
    )


def negotiation_standing(conversation: Conversation) -> bargaining.Standing:
    """Where the conversation's negotiation stands under the owner's terms as they are now
    (read from the services the request already loaded: no query)."""
    return bargaining.standing(conversation, chosen_terms(conversation))


def view_of(conversation: Conversation, payment: Payment | None = None) -> ConversationView:
    """The conversation as a model may know it; ``payment``, its booking's deposit where the
    caller has read it (a narration does)."""
    by_id = {service.id: service for service in service_facts(conversation.business)}
    appointment = conversation.acted_on
    payment_status = payment.status if payment is not None else None
    standing = negotiation_standing(conversation)
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
        appointment_service=appointment.service.name if appointment else "",
        payment_status=payment_status,
        deposit_left=_left(payment),
        pending_effect=conversation.pending_effect,
        asking=standing.price,
        agreed=standing.agreed,
        negotiates=conversation.appointment is None and chosen_terms(conversation) is not None,
        client_appointments=_listed(conversation),
        verified=conversation.verified_client_id is not None,
        # Read while a turn is taken (its count already moved on): the previous turn offered.
        person_offered=conversation.person_offered_turn == conversation.turns - 1,
    )


def _listed(conversation: Conversation) -> tuple[AppointmentFact, ...]:
    """The verified client's appointments here, for the model to name one (none unverified)."""
    return tuple(
        AppointmentFact(
            reference=reference,
            service=appointment.service.name,
            start=appointment.starts_at,
            status=appointment.status,
            deposit_left=_left(getattr(appointment, "payment", None)),
        )
        for reference, appointment in client_appointments(conversation).items()
    )


def _left(payment: Payment | None) -> Decimal | None:
    """What of a deposit was paid and is not refunded yet; None when nothing was paid."""
    if payment is None or payment.paid_at is None:
        return None
    return payment.amount - payment.amount_refunded


def chosen_terms(conversation: Conversation) -> Terms | None:
    """The owner's terms for the conversation's chosen service, None when it does not
    negotiate (read from the services the request already loaded: no query)."""
    chosen = next(
        (s for s in active_services(conversation.business) if s.pk == conversation.service_id),
        None,
    )
    return negotiation_terms(chosen) if chosen is not None else None


def message_reading(conversation: Conversation, text: str, now: dt.datetime) -> MessageReading:
    """What ``text`` contains, read in the conversation's language and the business's zone,
    country, services and opening hours (its dayparts: "the afternoon" of a clinic open
    15:00–19:00 is 15:00–19:00). One query for the hours, whatever the message."""
    business = conversation.business
    booking = conversation.acted_on
    booked_on = None
    if booking is not None and booking.status in CHANGEABLE:
        booked_on = booking.starts_at.astimezone(business.tzinfo).date()
    return read_message(
        text,
        now=now,
        time_zone=business.tzinfo,
        country=business.country,
        services=[(service.id, service.name) for service in service_facts(business)],
        booked_on=booked_on,
        language=conversation.language,
        dayparts=weekly_dayparts(stable_reads.weekly_hours(business)),
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
    reading = message_reading(conversation, text, now)
    knowledge = "" if reading.is_routine else knowledge_of(business)
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
        # Read only when the client asks for money back: what of the deposit is left to refund.
        payment=payment_of(conversation) if "refund" in reading.requests else None,
    )


def knowledge_of(business: Business) -> str:
    """The business's knowledge for a prompt (knowledge.selectors), kept while its stamp
    stands: the refresher's writes move the stamp like any other."""
    budget = settings.KNOWLEDGE_BUDGET_CHARS
    return stable_reads.knowledge(
        business, budget, lambda: knowledge_for_prompt(business_id=business.pk, budget=budget)
    )


def quiet_context(conversation: Conversation, now: dt.datetime, **read: Any) -> TurnContext:
    """The context of a turn; with nothing ``read`` (message, reading, actions, history,
    knowledge, services), that of a turn no model reads: a greeting, a Confirm, a closed chat."""
    business = conversation.business
    payment = read.pop("payment", None)
    unread: dict[str, Any] = {"message": "", "reading": NOTHING_READ, "actions": ()}
    if "services" not in read:
        unread["services"] = service_facts(business)
    return TurnContext(
        business=business.name,
        time_zone=business.time_zone,
        language=conversation.language,
        currency=business.currency,
        now=now,
        conversation=view_of(conversation, payment),
        **{**unread, **read},
    )


def narration_of(
    conversation: Conversation,
    turn: TurnContext,
    steps: list[tuple[StepOutcome, Executed]],
    *,
    payment: Payment | None,
    reply: str = "",
    now: dt.datetime | None = None,
) -> Narration:
    """What the model narrates: the turn's outcomes and facts, and the conversation after.
    A hold that lapsed since the last reply is told here, once."""
    view = view_of(conversation, payment)
    services = service_facts(conversation.business)
    awaiting = view.state == State.AWAITING_PAYMENT
    appointment = conversation.acted_on
    deposit = None
    if view.service is not None and view.state in (
        State.SLOT_HELD,
        State.DETAILS_COLLECTED,
        State.AWAITING_PAYMENT,
    ):
        deposit = _deposit(conversation) or None
    # Times are offered only for the service they were found for: a step that looked for
    # another service earlier in the turn (then the client switched) offers nothing now.
    current = conversation.service_id
    slots = [s for _o, done in steps if done.service_id in (None, current) for s in done.slots]
    alternatives = [
        start
        for _outcome, done in steps
        if done.service_id in (None, current)
        for start in done.alternatives
    ]
    lapsed = _lapsed_told(conversation, now or turn.now)
    if lapsed is not None and not slots and not alternatives:
        offered = [dt.datetime.fromisoformat(start) for start in conversation.offered]
        (slots if lapsed.still_free else alternatives).extend(offered)
    return Narration(
        turn=turn,
        outcomes=tuple(outcome for outcome, _done in steps),
        after=view,
        slots=tuple(slots),
        alternatives=tuple(alternatives),
        # While negotiating, the price is the core's figure, not the list price.
        price=view.asking or (view.service.price if view.service else None),
        deposit=deposit,
        payment_url=payment.checkout_url if awaiting and payment else "",
        payment_expires=payment.expires_at if awaiting and payment else None,
        next_step=telling.next_step(
            view, services, payment_link=bool(payment and payment.checkout_url)
        ),
        notes=(*(done.message for _o, done in steps if done.message), *([reply] if reply else [])),
        effect=next((done.effect for _o, done in steps if done.effect), None),
        lapsed=lapsed,
        links=_links(conversation, payment),
        site=conversation.business.website,
        manage_url=manage_url(appointment.public_id) if appointment else "",
        calendar_url=calendar_url(appointment.public_id) if appointment else "",
        price_answer=next((done.price_answer for _o, done in steps if done.price_answer), None),
        granted=next((done.granted for _o, done in steps if done.granted), frozenset()),
    )


def _lapsed_told(conversation: Conversation, now: dt.datetime) -> LapsedHold | None:
    """The hold that ran out since the last reply, as it stands now; told once."""
    start = conversation.lapsed_start
    if start is None:
        return None
    conversation.lapsed_start = None
    if conversation.held_start == start:
        return None  # held again this very turn: nothing lapsed any more
    return LapsedHold(start=start, still_free=start.isoformat() in conversation.offered)


def _links(conversation: Conversation, payment: Payment | None) -> tuple[str, ...]:
    """The links the core hands over: the deposit's Checkout, the client's page for their
    appointment, the business's own site. A reply may carry no other."""
    links = []
    if payment is not None and payment.checkout_url:
        links.append(payment.checkout_url)
    if conversation.acted_on is not None:
        links.append(manage_url(conversation.acted_on.public_id))
    return tuple(links)


def payment_of(conversation: Conversation) -> Payment | None:
    if conversation.acted_on is None:
        return None
    return Payment.objects.filter(appointment=conversation.acted_on).first()


def _deposit(conversation: Conversation) -> Decimal:
    if conversation.appointment is not None:
        return deposit_for(conversation.appointment)
    service = conversation.service
    assert service is not None
    service.business = conversation.business
    # What Confirm would book (agent.conversation.bargaining): the core's figure, else the list.
    price = negotiation_standing(conversation).price or service.list_price
    return deposit_quote(service=service, price=price)
