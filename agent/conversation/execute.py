"""Carrying out, through the booking core, a command the gates passed inside a conversation.

Called inside the turn's transaction with the conversation row locked. Each command changes
the conversation's columns and/or calls one of the core's services; what the core refuses
(a time just taken, an appointment no longer changeable, a refund the payment's state forbids)
comes back as a POLICY block with the core's own words and, for times, its real alternatives.

An effect on an existing appointment or on money — cancel, move, refund — proposed by the
model only prepares a card naming exactly what will happen (``pending_effect``); the client's
press on that card runs it (``effect_run``). Times offered or suggested are always the core's
open slots for the service they are offered for: each result names its service, and the
narration shows only those of the conversation's service when the turn ends.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext, gettext_noop

from agent.actions import (
    CancelAppointment,
    ChooseAppointment,
    ChooseService,
    CollectContact,
    EscalateToHuman,
    HoldSlot,
    OfferPerson,
    OfferPrice,
    OfferSlots,
    Refund,
    RequestConfirmation,
    RequestPayment,
    RescheduleAppointment,
    SendMessage,
)
from agent.containment import Outcome
from agent.conversation import bargaining
from agent.conversation.offering import slots_to_offer
from agent.conversation.policy import parse_day, parse_instant, phone_e164
from agent.conversation.references import appointment_take_up, client_appointments
from agent.gates import APPROVED, GateVerdict, Stage, Structured, blocked
from agent.llm.base import PriceAnswer
from agent.models import Conversation
from agent.services import granted_actions, refund_execute
from bookings.actors import Actor
from bookings.errors import (
    AppointmentNotChangeable,
    BookingError,
    InvalidBooking,
    SlotUnavailable,
)
from bookings.models import Service
from bookings.negotiation import offer_amount
from bookings.selectors import negotiation_terms, open_slots_for
from bookings.services import hold_release as core_hold_release
from bookings.services import hold_slot, nearest_alternatives
from orchestration.appointment_changes import appointment_cancel, appointment_reschedule
from orchestration.deposit_settlement import deposit_checkout_open
from payments.stripe_api import StripeUnavailable

# Without a day or window, slots are looked for over a week, then a second one.
SEARCH_DAYS = 7
SEARCH_WEEKS = 2


# A proposal that passed the gates and prepared a card: nothing happens until the client
# presses it.
PREPARED = GateVerdict(True, None, "approved: shown to the client, waiting for their press")


@dataclass
class Executed:
    """What one command did: the gates' verdict (a core refusal turns it into a block), the
    money it moved and the facts it hands the narration."""

    verdict: GateVerdict
    moved: Decimal = Decimal("0")
    slots: list[dt.datetime] = field(default_factory=list)
    alternatives: list[dt.datetime] = field(default_factory=list)
    service_id: int | None = None  # the service ``slots`` and ``alternatives`` are open for
    payment_url: str = ""
    message: str = ""  # send_message's text, the model's own
    effect: dict[str, str] | None = None  # the card an effect proposal prepared
    outcome: Outcome | None = None  # as audited
    replayed: bool = False  # a repeated Confirm, answered as the first time
    payments_unavailable: bool = False  # booked, then released: Stripe opened no checkout
    price_answer: PriceAnswer | None = None  # the core's answer to a price offer
    contained: Decimal = Decimal("0")  # what that answer kept above the offer
    # A person offered: the agent's grants, so the reply says only what it can do here.
    granted: frozenset[str] = frozenset()


def core_refusal(message: str) -> GateVerdict:
    """A refusal of the booking core: its message is written for clients already, in English
    for the audit, and told in the conversation's language (the catalogues hold the core's
    sentences; one they do not hold is told as written)."""
    return blocked(Stage.POLICY, message, gettext(message))


def core_error_refusal(error: BookingError) -> GateVerdict:
    """The booking core's refusal of a request, as ``core_refusal``; an invalid request is told
    by its reasons alone (the field names are the core's, not the client's)."""
    if isinstance(error, InvalidBooking):
        reasons = list(error.errors.values())
        return blocked(Stage.POLICY, error.message, " ".join(gettext(r) for r in reasons))
    return core_refusal(error.message)


def execute(
    conversation: Conversation,
    structured: Structured,
    *,
    services: dict[int, Service],
    service_id: int | None,
    now: dt.datetime,
    address: str | None = None,
) -> Executed:
    """Carry out one command; ``address`` is the client's, which the core bounds holds by."""
    proposal = structured.proposal
    business = conversation.business
    match proposal:
        case ChooseService():
            assert service_id is not None  # the policy gate resolved it
            _choose(conversation, services[service_id])
            return Executed(APPROVED)
        case OfferSlots():
            assert service_id is not None
            _choose(conversation, services[service_id])
            slots = _open_starts(conversation, services[service_id], proposal, now)
            conversation.offered = [start.isoformat() for start in slots]
            return Executed(APPROVED, slots=slots, service_id=service_id)
        case HoldSlot():
            assert service_id is not None
            return _hold(conversation, services[service_id], proposal, now, address)
        case CollectContact():
            if proposal.name is not None:
                conversation.name = proposal.name
            if proposal.email is not None:
                conversation.email = proposal.email.lower()
            if proposal.phone is not None:
                conversation.phone = phone_e164(proposal.phone, business.country) or ""
            return Executed(APPROVED)
        case OfferPrice():
            return _price_offer(conversation, services, proposal, now)
        case RequestConfirmation():
            # Nothing to store: the booking to confirm is shown whenever details are complete.
            return Executed(APPROVED)
        case RequestPayment():
            return _payment_link(conversation, now)
        case ChooseAppointment(appointment=reference):
            # Looked up again among the verified client's own: the gate judged the reference,
            # this finds the row it names (a stale list would find nothing, and refuse).
            chosen = client_appointments(conversation).get(reference)
            if chosen is None:
                return Executed(core_refusal(gettext_noop("That isn't one of your bookings here.")))
            appointment_take_up(conversation, chosen)
            return Executed(APPROVED)
        case CancelAppointment() | RescheduleAppointment() | Refund():
            return _effect_card(conversation, structured, now)
        case EscalateToHuman(reason=reason):
            conversation.escalation_reason = reason
            return Executed(APPROVED)
        case SendMessage(text=text):
            return Executed(APPROVED, message=text)
        case OfferPerson():
            return _person_offer(conversation)
    raise ValueError(f"no execution for {structured.action}; the policy gate should have blocked")


def effect_run(conversation: Conversation, structured: Structured, now: dt.datetime) -> Executed:
    """The client pressed the card of a cancel, move or refund the gates passed again: it
    happens now, through the core, by the client's hand."""
    proposal = structured.proposal
    appointment = conversation.acted_on
    assert appointment is not None  # the policy gate checked it is this conversation's
    match proposal:
        case CancelAppointment():
            try:
                appointment_cancel(
                    appointment=appointment,
                    actor=Actor.client(),
                    reason=proposal.reason or "cancelled in chat",
                    now=now,
                )
            except AppointmentNotChangeable as refusal:
                return Executed(core_error_refusal(refusal))
            appointment.refresh_from_db(fields=["status"])
            return Executed(APPROVED)
        case RescheduleAppointment():
            start = parse_instant(proposal.start, conversation.business.time_zone)
            assert start is not None
            try:
                rescheduled = appointment_reschedule(
                    appointment=appointment, new_start=start, actor=Actor.client(), now=now
                )
            except SlotUnavailable as refusal:
                alternatives = [slot.start for slot in refusal.alternatives]
                return Executed(
                    core_refusal(gettext_noop("That time was just taken.")),
                    alternatives=alternatives,
                    service_id=appointment.service_id,
                )
            except BookingError as refusal:
                return Executed(core_error_refusal(refusal))
            if appointment == conversation.appointment:
                conversation.appointment = rescheduled
            else:
                conversation.subject = rescheduled
                if conversation.appointment is None and conversation.held_start is None:
                    # The times offered were for this move, and it is done: nothing else was
                    # being booked, so the chat is back to its start, the booking chosen.
                    conversation.offered = []
                    conversation.service = None
            return Executed(APPROVED)
        case Refund():
            verdict, moved = refund_execute(
                business=conversation.business, proposal=proposal, now=now, actor=Actor.client()
            )
            return Executed(verdict, moved=moved)
    raise ValueError(f"{structured.action} is not an effect a card runs")


# A last-minute price was given for its time only (agent.conversation.bargaining).
TIME_BOUND_PRICE = gettext_noop(
    "This booking was made at a last-minute price for its time only, so it can't be moved; "
    "you can cancel it and book another time."
)


def _effect_card(conversation: Conversation, structured: Structured, now: dt.datetime) -> Executed:
    """The card of an effect the client asked for: what exactly will happen, stored until the
    client presses it (or another card replaces it). A move is offered only to a time open
    now; otherwise the core's nearest open times come back instead."""
    proposal = structured.proposal
    assert isinstance(proposal, CancelAppointment | RescheduleAppointment | Refund)
    appointment = conversation.acted_on
    assert appointment is not None
    # "from": the booking as the card shows it; pressed after it changed, the card is refused.
    card: dict[str, str] = {
        "action": structured.action,
        "appointment": proposal.appointment,
        "from": appointment.starts_at.isoformat(),
    }
    if isinstance(proposal, RescheduleAppointment):
        if bargaining.time_bound(conversation, appointment):
            return Executed(core_refusal(TIME_BOUND_PRICE))
        start = parse_instant(proposal.start, conversation.business.time_zone)
        assert start is not None
        service = appointment.service
        service.business = conversation.business
        day = start.astimezone(conversation.business.tzinfo).date()
        open_now = open_slots_for(
            service, first_day=day, last_day=day, now=now, excluding_appointment=appointment.pk
        )
        if not any(slot.start == start for slot in open_now):
            alternatives = nearest_alternatives(
                service, start, now=now, excluding_appointment=appointment.pk
            )
            return Executed(
                core_refusal(gettext_noop("That time isn't open.")),
                alternatives=[slot.start for slot in alternatives],
                service_id=service.pk,
            )
        card["start"] = start.isoformat()
    if isinstance(proposal, Refund):
        card["amount"] = f"{proposal.amount:.2f}"
    if isinstance(proposal, CancelAppointment) and proposal.reason:
        card["reason"] = proposal.reason
    conversation.pending_effect = card
    return Executed(PREPARED, effect=card)


def _price_offer(
    conversation: Conversation,
    services: dict[int, Service],
    proposal: OfferPrice,
    now: dt.datetime,
) -> Executed:
    """The core answers the client's offer for the conversation's service (the policy gate
    checked there is one, that its terms negotiate and that the offer is money)."""
    assert conversation.service_id is not None
    service = services[conversation.service_id]
    terms = negotiation_terms(service)
    assert terms is not None
    offer = offer_amount(
        proposal.amount, currency=proposal.currency, business_currency=service.business.currency
    )
    answer, contained = bargaining.offer_answer(
        conversation, service=service, terms=terms, offer=offer, now=now
    )
    # The audit entry's reason records the core's answer beside the offer (owners read it).
    floor = ", the floor" if answer.is_floor else ""
    said = f"approved: {answer.kind} at {answer.price}{floor} (offered {offer})"
    return Executed(GateVerdict(True, None, said), price_answer=answer, contained=contained)


def hold_release(conversation: Conversation) -> None:
    """Let go of the conversation's hold, if it has one."""
    if conversation.held_start is not None:
        core_hold_release(business_id=conversation.business_id, holder=conversation.holder)
    conversation.held_start = conversation.held_until = None


def _choose(conversation: Conversation, service: Service) -> None:
    if conversation.service_id != service.id:
        # Another service has another length: earlier offers and the hold no longer fit.
        hold_release(conversation)
        conversation.offered = []
        conversation.service = service
        # A price is negotiated for one service (agent.conversation.bargaining).
        bargaining.negotiation_reset(conversation)


def _open_starts(
    conversation: Conversation, service: Service, proposal: OfferSlots, now: dt.datetime
) -> list[dt.datetime]:
    business = conversation.business
    today = now.astimezone(business.tzinfo).date()
    first = parse_day(proposal.day) if proposal.day else today
    assert first is not None
    window = proposal.from_time is not None or proposal.to_time is not None
    from_time = dt.time.fromisoformat(proposal.from_time) if proposal.from_time else None
    to_time = dt.time.fromisoformat(proposal.to_time) if proposal.to_time else None
    # A window belongs to the day asked for; otherwise look a week ahead, and a second week
    # when the first is full.
    weeks = 1 if window and proposal.day else SEARCH_WEEKS
    for week in range(weeks):
        start_day = first + dt.timedelta(days=week * SEARCH_DAYS)
        last_day = start_day if window and proposal.day else start_day + dt.timedelta(days=6)
        slots = open_slots_for(
            service, first_day=start_day, last_day=last_day, now=now, holder=conversation.holder
        )
        starts = slots_to_offer(
            [slot.start for slot in slots],
            time_zone=business.time_zone,
            from_time=from_time,
            to_time=to_time,
        )
        if starts:
            return starts
    return []


def _hold(
    conversation: Conversation,
    service: Service,
    proposal: HoldSlot,
    now: dt.datetime,
    address: str | None,
) -> Executed:
    start = parse_instant(proposal.start, conversation.business.time_zone)
    assert start is not None  # the policy gate parsed it
    _choose(conversation, service)
    try:
        hold = hold_slot(
            service=service, start=start, holder=conversation.holder, address=address, now=now
        )
    except SlotUnavailable as refusal:
        alternatives = [slot.start for slot in refusal.alternatives]
        conversation.offered = [moment.isoformat() for moment in alternatives]
        return Executed(
            blocked(Stage.POLICY, "that time is not open", gettext("That time isn't open.")),
            alternatives=alternatives,
            service_id=service.pk,
        )
    except BookingError as refusal:
        return Executed(core_error_refusal(refusal))
    conversation.held_start, conversation.held_until = hold.starts_at, hold.expires_at
    bargaining.slot_held(conversation, hold.starts_at)
    return Executed(APPROVED)


def _person_offer(conversation: Conversation) -> Executed:
    """Offer the client a person: nothing changes but the note of the offer, which the next
    message may take up. An offer the agent could not keep — it may not hand over — is not
    made."""
    granted = granted_actions(business=conversation.business)
    if "escalate_to_human" not in granted:
        return Executed(
            blocked(Stage.CAPABILITY, "no person can be offered: escalate_to_human is not granted")
        )
    conversation.person_offered_turn = conversation.turns
    return Executed(APPROVED, granted=granted)


def _payment_link(conversation: Conversation, now: dt.datetime) -> Executed:
    appointment = conversation.acted_on
    assert appointment is not None
    try:
        checkout = deposit_checkout_open(appointment=appointment, now=now)
    except StripeUnavailable as outage:
        return Executed(
            GateVerdict(
                False,
                None,
                f"not executed: {outage}",
                "Payments are unavailable at the moment, so the booking was released; "
                "please try again shortly.",
            )
        )
    if checkout is None:
        return Executed(
            blocked(
                Stage.POLICY, "no deposit is due", gettext("Your booking has no deposit to pay.")
            )
        )
    return Executed(APPROVED, payment_url=checkout.url)
