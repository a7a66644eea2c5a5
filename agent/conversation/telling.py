"""What the client is told a turn established, built only from the core's facts. Pure.

Three things come out of one turn's facts: the real next step (one sentence a stage always
has), the ledger the reply guards check the model's draft against (``TurnFacts``), and the
structured choices the widget shows beside the text — slots to pick, the booking to confirm,
where to pay. The model writes none of these.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from agent.conversation.states import State
from agent.guards import Price, TurnFacts
from agent.guards.sentences import human_list
from agent.llm.base import ConversationView, Narration, ServiceFact


def next_step(view: ConversationView, services: tuple[ServiceFact, ...]) -> str:
    match State(view.state):
        case State.GREETING:
            names = human_list([service.name for service in services])
            return f"Which service would you like to book? We offer {names}."
        case State.SERVICE_CHOSEN:
            return "Which day would suit you?"
        case State.SLOT_OFFERED:
            return "Which of these times suits you? Or tell me another day."
        case State.SLOT_HELD:
            return f"To book it, I need your {human_list(list(view.missing))}."
        case State.DETAILS_COLLECTED:
            return "Please check the details and press Confirm to book."
        case State.AWAITING_PAYMENT:
            return "Please pay the deposit with the link to complete your booking."
        case State.CONFIRMED:
            return "Is there anything else I can help you with?"
        case State.ESCALATED:
            return "A member of the team will reply to you here."
        case State.CANCELLED:
            return "Is there anything else I can help you with?"
        case State.EXPIRED:
            return "This conversation has expired; please start a new one to book."


def turn_facts(narration: Narration, *, payment_verified: bool) -> TurnFacts:
    """The ledger for the reply guards: every date, time and price the core handed over."""
    after = narration.after
    moments = [*narration.slots, *narration.alternatives]
    if after.held is not None:
        moments.append(after.held)
    if after.appointment_start is not None:
        moments.append(after.appointment_start)
    currency = narration.turn.currency
    refunds = [step.money_moved for step in narration.outcomes if step.money_moved]
    amounts = (narration.price, narration.deposit, *refunds)
    prices = [Price(amount, currency) for amount in amounts if amount]
    state = State(after.state)
    return TurnFacts(
        zone=narration.turn.time_zone,
        language=narration.turn.language,
        today=narration.turn.now.astimezone(ZoneInfo(narration.turn.time_zone)).date(),
        datetimes=tuple(moments),
        prices=tuple(prices),
        booking_confirmed=state == State.CONFIRMED,
        payment_verified=payment_verified,
        refund_issued=bool(refunds),
        booked_at=after.appointment_start if state == State.CONFIRMED else None,
        cancelled=state == State.CANCELLED,
        moved=any(
            step.executed and step.action == "reschedule_appointment" for step in narration.outcomes
        ),
        missing_fields=after.missing if state == State.SLOT_HELD else (),
        payment_requested=state == State.AWAITING_PAYMENT,
        next_step=narration.next_step,
        knowledge=narration.turn.knowledge,
    )


def card_of(view: ConversationView) -> str:
    """The fingerprint of the booking to confirm, as shown: service and price, time, details.
    The client's Confirm names it; anything changed since makes it another card."""
    if view.service is None or view.held is None:
        return ""
    shown = [
        view.service.id,
        view.service.price,
        view.held.isoformat(),
        view.name,
        view.email,
        view.phone,
    ]
    return hashlib.sha256("|".join(map(str, shown)).encode()).hexdigest()[:20]


def local_label(moment: dt.datetime, time_zone: str) -> str:
    """How a time is written to the client: "Wednesday 2 December at 10:00"."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{local:%A} {local.day} {local:%B} at {local:%H:%M}"


def choices_for(narration: Narration) -> dict[str, Any]:
    """What the widget shows beside the reply; every value comes from the core."""
    after, zone = narration.after, narration.turn.time_zone
    state = State(after.state)
    choices: dict[str, Any] = {}
    if state == State.GREETING:
        choices["services"] = [
            {"id": s.id, "name": s.name, "minutes": s.minutes, "price": s.price}
            for s in narration.turn.services
        ]
    offered = narration.slots or narration.alternatives
    if offered and state in (State.SLOT_OFFERED, State.SERVICE_CHOSEN, State.SLOT_HELD):
        choices["slots"] = [
            {"start": start, "label": local_label(start, zone)} for start in offered
        ]
    if state == State.DETAILS_COLLECTED and after.service is not None and after.held:
        choices["confirm"] = {
            "service": after.service.name,
            "start": after.held,
            "label": local_label(after.held, zone),
            "name": after.name,
            "email": after.email,
            "phone": after.phone,
            "price": after.service.price,
            "deposit": narration.deposit or Decimal("0"),
            "currency": narration.turn.currency,
            "hold_expires": after.hold_expires,
            "card": card_of(after),
        }
    if state == State.AWAITING_PAYMENT and narration.payment_url:
        choices["payment"] = {
            "url": narration.payment_url,
            "amount": narration.deposit,
            "currency": narration.turn.currency,
            "expires_at": narration.payment_expires,
        }
    return choices
