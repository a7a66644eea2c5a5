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

from django.utils.translation import gettext, pgettext

from agent.conversation.states import State
from agent.conversation.wording import local_label, spoken_list
from agent.guards import Price, TurnFacts
from agent.guards.sentences import sentences
from agent.guards.status import topics_of
from agent.llm.base import ConversationView, Narration, ServiceFact, StepOutcome


def effect_button(action: str) -> str:
    """What the button of an effect card says, in the active language; the conversation records
    the client's press as these words."""
    buttons = {
        "cancel_appointment": pgettext("a button on a card", "Cancel appointment"),
        "reschedule_appointment": pgettext("a button on a card", "Move appointment"),
        "refund": pgettext("a button on a card", "Refund"),
    }
    return buttons[action]


def detail_name(field: str) -> str:
    """A contact detail the booking needs, as the client reads it."""
    names = {
        "name": pgettext("a detail the client gives", "name"),
        "email": pgettext("a detail the client gives", "email"),
        "phone": pgettext("a detail the client gives", "phone"),
    }
    return names.get(field, field.replace("_", " "))


def next_step(
    view: ConversationView, services: tuple[ServiceFact, ...], *, payment_link: bool = True
) -> str:
    """The one sentence every stage has: what the client can do next, in the active language."""
    state = State(view.state)
    # A card waiting for the press is the next step of a conversation about a booking: its own
    # (confirmed), one chosen with nothing else begun (greeting), or one whose move it offers.
    about_booking = state in (State.CONFIRMED, State.GREETING) or moving_booking(view)
    if view.pending_effect is not None and about_booking:
        button = effect_button(view.pending_effect["action"])
        return gettext(
            "To go ahead, press “%(button)s”; or tell me if you've changed your mind."
        ) % {"button": button}
    if state == State.GREETING and view.appointment is not None:
        # A returning client's chosen booking (or their manage link's): they came about it,
        # not to book, so they are not asked which service to book.
        return gettext("Is there anything else I can help you with?")
    match state:
        case State.GREETING:
            names = spoken_list([service.name for service in services])
            return gettext("Which service would you like to book? We offer %(services)s.") % {
                "services": names
            }
        case State.SERVICE_CHOSEN:
            return gettext("Which day would suit you?")
        case State.SLOT_OFFERED:
            return gettext("Which of these times suits you? Or tell me another day.")
        case State.SLOT_HELD:
            details = spoken_list([detail_name(field) for field in view.missing])
            return gettext("To book it, I need your %(details)s.") % {"details": details}
        case State.DETAILS_COLLECTED if view.verified:
            # A returning client's details are offered back, not asked again.
            on_file = ", ".join(detail for detail in (view.name, view.email, view.phone) if detail)
            return gettext(
                "Shall I book it under %(details)s? Press Confirm to book, or tell me other "
                "details."
            ) % {"details": on_file}
        case State.DETAILS_COLLECTED:
            return gettext("Please check the details and press Confirm to book.")
        case State.AWAITING_PAYMENT if payment_link:
            return gettext("Please pay the deposit with the link to complete your booking.")
        case State.AWAITING_PAYMENT:
            # A Confirm cut off before its payment link was ready: pressing it again opens it.
            return gettext(
                "Your time is kept for you; press Confirm again to get the payment link."
            )
        case State.CONFIRMED | State.CANCELLED:
            return gettext("Is there anything else I can help you with?")
        case State.ESCALATED:
            return gettext("A member of the team will reply to you here.")
        case State.EXPIRED:
            return gettext("This conversation has expired; please start a new one to book.")


def moving_booking(view: ConversationView) -> bool:
    """Whether the times of this conversation are for moving the booking it acts on rather than
    for booking another: its own booking is confirmed (nothing more is booked in it), or one
    chosen by a returning client is, and the times are for that booking's service with nothing
    held. Only a confirmed booking moves."""
    if view.appointment is None or view.appointment_status != "confirmed" or view.held:
        return False
    if State(view.state) == State.CONFIRMED:
        return True
    return view.service is not None and view.service.name == view.appointment_service


def appointment_now(view: ConversationView, now: dt.datetime, time_zone: str) -> str:
    """One true sentence about the conversation's appointment as it stands now: upcoming,
    passed, attended, missed, cancelled, released or awaiting its deposit — and its deposit paid
    or refunded."""
    if view.appointment_start is None:
        return ""
    told = {"service": booked_service(view), "when": local_label(view.appointment_start, time_zone)}
    match view.appointment_status:
        case "pending_payment":
            sentence = gettext("Your %(service)s on %(when)s is waiting for its deposit.")
        case "confirmed" if view.appointment_start > now:
            sentence = gettext("Your %(service)s is booked for %(when)s.")
        case "confirmed":
            sentence = gettext("Your %(service)s on %(when)s has passed.")
        case "attended":
            sentence = gettext("You came in for your %(service)s on %(when)s.")
        case "no_show":
            sentence = gettext("Your %(service)s on %(when)s was missed.")
        case "cancelled":
            sentence = gettext("Your %(service)s on %(when)s was cancelled.")
        case "expired":
            sentence = gettext(
                "Your %(service)s on %(when)s was released: its deposit wasn't paid in time."
            )
        case _:
            return ""
    deposit = {
        "paid": gettext("Its deposit is paid."),
        "refunded": gettext("Its deposit has been refunded."),
        "partially_refunded": gettext("Part of its deposit has been refunded."),
    }.get(view.payment_status or "")
    return sentence % told + (f" {deposit}" if deposit else "")


def booked_service(view: ConversationView) -> str:
    """The booked service's name; a plain word for it when the name is not known."""
    return view.appointment_service or pgettext("a booking whose service is unknown", "appointment")


# What booking in chat needs the agent to be granted, from the first offer to the Confirm.
BOOKING_COMMANDS = frozenset({"offer_slots", "hold_slot", "collect_contact", "confirm_booking"})
# The stages in which the conversation can still book (it has booked nothing yet).
STILL_BOOKING = frozenset(
    {State.GREETING, State.SERVICE_CHOSEN, State.SLOT_OFFERED, State.SLOT_HELD,
     State.DETAILS_COLLECTED}
)  # fmt: skip


def person_offer(narration: Narration) -> str:
    """What the client is told when the assistant could not act on their message: that it
    cannot help with that here, what it can do in this conversation now — only what the
    agent is granted and the conversation's stage allows —, and the offer of a person."""
    turn, after, granted = narration.turn, narration.after, narration.granted
    can: list[str] = []
    if State(after.state) in STILL_BOOKING and granted >= BOOKING_COMMANDS and turn.services:
        names = [service.name for service in turn.services]
        either = names[-1]
        if len(names) > 1:
            either = gettext("%(some)s or %(last)s") % {
                "some": ", ".join(names[:-1]),
                "last": either,
            }
        can.append(gettext("book %(services)s") % {"services": either})
    if after.appointment_start is not None:
        booking = gettext("your %(service)s on %(when)s") % {
            "service": booked_service(after),
            "when": local_label(after.appointment_start, turn.time_zone),
        }
        upcoming = after.appointment_start > turn.now
        can.extend(_booking_changes(after, booking, granted, upcoming=upcoming))
    if turn.knowledge.strip():
        can.append(gettext("answer questions about %(business)s") % {"business": turn.business})
    told = [
        gettext("I don't have that information here.")
        if turn.reading.is_question
        else gettext("I can't help with that here.")
    ]
    if can:
        told.append(gettext("In this chat I can %(things)s.") % {"things": spoken_list(can)})
    told.append(
        gettext(
            "Would you like a member of the team to take over? Just say yes, and they'll "
            "reply here."
        )
    )
    return " ".join(told)


def _booking_changes(
    after: ConversationView, booking: str, granted: frozenset[str], *, upcoming: bool
) -> list[str]:
    """What can be asked of the booking this conversation acts on. A refund is only looked
    at here — the refund policy decides it — so that is all the client is told."""
    status = after.appointment_status
    movable = upcoming and status == "confirmed" and "reschedule_appointment" in granted
    cancellable = upcoming and status in ("confirmed", "pending_payment")
    cancellable = cancellable and "cancel_appointment" in granted
    changes = []
    if movable and cancellable:
        changes.append(gettext("move or cancel %(booking)s") % {"booking": booking})
    elif movable or cancellable:
        verb = gettext("move %(booking)s") if movable else gettext("cancel %(booking)s")
        changes.append(verb % {"booking": booking})
    if after.deposit_left and "refund" in granted:
        if changes:
            changes.append(gettext("check whether its deposit can be refunded"))
        else:
            refund = gettext("check whether the deposit of %(booking)s can be refunded")
            changes.append(refund % {"booking": booking})
    return changes


def lapsed_words(start: dt.datetime, time_zone: str, *, still_free: bool) -> str:
    """What the client is told of a hold that ran out: the time, and whether it is still
    free (then it is offered again) or taken (then the nearest open times are)."""
    if still_free:
        told = gettext(
            "The time I was holding for you, %(when)s, was released when the hold ran out. "
            "It is still free: shall I hold it again?"
        )
    else:
        told = gettext(
            "The time I was holding for you, %(when)s, was released when the hold ran out, "
            "and it has been taken since."
        )
    return told % {"when": local_label(start, time_zone)}


def effect_card_of(effect: dict[str, str] | None) -> str:
    """The fingerprint of an effect card as shown; the client's press names it."""
    if not effect:
        return ""
    shown = "|".join(f"{key}={effect[key]}" for key in sorted(effect))
    return hashlib.sha256(shown.encode()).hexdigest()[:20]


def effect_label(effect: dict[str, str], view: ConversationView, time_zone: str) -> str:
    """What pressing the card does, in the client's words."""
    service = booked_service(view)
    when = local_label(view.appointment_start, time_zone) if view.appointment_start else ""
    match effect["action"]:
        case "cancel_appointment":
            return gettext("Cancel your %(service)s on %(when)s") % {
                "service": service,
                "when": when,
            }
        case "reschedule_appointment":
            moved_to = local_label(dt.datetime.fromisoformat(effect["start"]), time_zone)
            return gettext("Move your %(service)s from %(when)s to %(moved_to)s") % {
                "service": service,
                "when": when,
                "moved_to": moved_to,
            }
        case _:
            return gettext("Refund %(amount)s of your deposit to your card") % {
                "amount": effect["amount"]
            }


def turn_facts(
    narration: Narration,
    *,
    payment_verified: bool,
    paid: Decimal | None = None,
    refunded: Decimal = Decimal("0"),
    core_narration: str = "",
) -> TurnFacts:
    """The ledger for the reply guards: every date, time and price the core handed over, every
    state that is a fact (``paid``: what Stripe confirmed; ``refunded``: what was given back,
    on record), and the core's own narration of the turn (``core_narration``)."""
    after = narration.after
    moments = [*narration.slots, *narration.alternatives]
    if after.held is not None:
        moments.append(after.held)
    if after.appointment_start is not None:
        moments.append(after.appointment_start)
    if narration.lapsed is not None:
        moments.append(narration.lapsed.start)  # the time that was held, told as released
    currency = narration.turn.currency
    refunds = [step.money_moved for step in narration.outcomes if step.money_moved]
    if refunded and refunded not in refunds:
        refunds.append(refunded)
    amounts = [narration.price, narration.deposit, *refunds]
    if (effect := narration.effect) is not None:
        # The card prepared this turn names its time or amount: the core's figures.
        if "start" in effect:
            moments.append(dt.datetime.fromisoformat(effect["start"]))
        if "amount" in effect:
            amounts.append(Decimal(effect["amount"]))
    # While negotiating, the core's one figure this turn: its answer to an offer, else where
    # the negotiation stands (the agreed price, or the current ask), else — the service
    # negotiates but no offer was answered yet — its list price: a model that concedes without
    # asking the core is rewritten all the same.
    figure = narration.price_answer.price if narration.price_answer else after.asking
    list_price = after.service.price if after.service is not None else None
    if figure is None and after.negotiates:
        figure = list_price
    if figure is not None:
        amounts.append(figure)
        if list_price is not None:
            amounts.append(list_price)  # "the list price is €60.00, but…" stays true
    prices = [Price(amount, currency) for amount in amounts if amount]
    state = State(after.state)
    now = narration.turn.now
    live_hold = after.held is not None and (after.hold_expires is None or after.hold_expires > now)
    names = (
        narration.turn.business,
        *(service.name for service in narration.turn.services),
        after.name,
        after.appointment_service,
    )
    return TurnFacts(
        zone=narration.turn.time_zone,
        language=narration.turn.language,
        today=narration.turn.now.astimezone(ZoneInfo(narration.turn.time_zone)).date(),
        datetimes=tuple(moments),
        prices=tuple(prices),
        booking_confirmed=state == State.CONFIRMED,
        payment_verified=payment_verified,
        # A refund made this turn, or one on record for the booking's deposit.
        refund_issued=bool(refunds),  # made this turn, or on record for the deposit
        asked_topics=asked_topics(narration),
        booked_at=after.appointment_start if state == State.CONFIRMED else None,
        cancelled=state == State.CANCELLED,
        moved=any(
            step.executed and not step.prepared and step.action == "reschedule_appointment"
            for step in narration.outcomes
        ),
        missing_fields=after.missing if state == State.SLOT_HELD else (),
        payment_requested=state == State.AWAITING_PAYMENT,
        next_step=narration.next_step,
        knowledge=narration.turn.knowledge,
        links=narration.links,
        site=narration.site,
        core_said=core_sentences(narration),
        core_narration=tuple(sentences(core_narration)),
        names=tuple(name for name in names if name),
        client_email=after.email,
        held_at=after.held if live_hold else None,
        paid=(Price(paid, currency),) if payment_verified and paid else (),
        refunds=tuple(Price(amount, currency) for amount in refunds),
        negotiation=Price(figure, currency) if figure is not None else None,
        list_price=(
            Price(list_price, currency) if figure is not None and list_price is not None else None
        ),
        discount=(
            after.agreed is not None
            and after.service is not None
            and after.agreed < after.service.price
        ),
    )


def core_sentences(narration: Narration) -> tuple[str, ...]:
    """What the core itself said this turn, in words for the client: its refusals of what the
    client asked for. A guard never removes these (a refusal naming the last bookable day is no
    invented date), and a reply always tells them."""
    return tuple(step.said for step in narration.outcomes if refusal_told(step, narration))


# What each command's refusal is about: told only when the client asked about that.
REFUSAL_TOPICS = {
    "cancel_appointment": "cancel",
    "reschedule_appointment": "move",
    "refund": "refund",
    "request_payment": "payment",
    "confirm_booking": "booking",
}


def asked_topics(narration: Narration) -> frozenset[str]:
    """The states the client spoke of this turn: in their message, or by pressing a card."""
    turn = narration.turn
    if turn.message:
        # The states named in the message, and what the core read it asking for ("can I get
        # my deposit back?" names no refund word, and asks for one).
        return topics_of(turn.message, turn.language) | turn.reading.requests
    pressed = {REFUSAL_TOPICS.get(step.action) for step in narration.outcomes}
    return frozenset(topic for topic in pressed if topic)


def refusal_told(step: StepOutcome, narration: Narration) -> bool:
    """Whether the client hears this refusal: one of something they asked for, in their words
    or by a press — not of what a model tried on its own ("I'll only refund if you ask" to a
    client who said "thanks" would answer a question nobody asked)."""
    if step.executed or not step.said:
        return False
    reading = narration.turn.reading
    if step.action == "collect_contact" and narration.turn.message:
        typed = (reading.emails, reading.phones, reading.bad_emails, reading.bad_phones)
        return any(typed) or reading.name is not None
    topic = REFUSAL_TOPICS.get(step.action)
    return topic is None or topic in asked_topics(narration)


def card_of(view: ConversationView) -> str:
    """The fingerprint of the booking to confirm, as shown: service and price, time, details.
    The client's Confirm names it; anything changed since makes it another card."""
    if view.service is None or view.held is None:
        return ""
    shown = [
        view.service.id,
        booking_price(view),
        view.held.isoformat(),
        view.name,
        view.email,
        view.phone,
    ]
    return hashlib.sha256("|".join(map(str, shown)).encode()).hexdigest()[:20]


def booking_price(view: ConversationView) -> Decimal:
    """What the booking to confirm costs: where a negotiation stands — the price agreed, else
    the business's counter, which Confirm accepts (agent.conversation.bargaining) — else the
    list price. The same figure the reply is held to while negotiating."""
    assert view.service is not None
    return view.asking if view.asking is not None else view.service.price


def choices_for(narration: Narration) -> dict[str, Any]:
    """What the widget shows beside the reply; every value comes from the core. Times are
    written as the rest of the API writes them (ISO 8601 in the business's zone, with its
    offset), money as two-decimal strings, and each offered slot has an ``id`` the widget
    names when the client picks it."""
    after, zone = narration.after, narration.turn.time_zone
    state = State(after.state)
    choices: dict[str, Any] = {}
    # Beside a cancel, move or refund card the client is asked to press it, not to book.
    effect_shown = narration.effect is not None and after.pending_effect == narration.effect
    if state == State.GREETING and not effect_shown:
        choices["services"] = [
            {"id": s.id, "name": s.name, "minutes": s.minutes, "price": money(s.price)}
            for s in narration.turn.services
        ]
    offered = narration.slots or narration.alternatives
    # Times offered to move a booking are answered in words ("the first one", "Friday at 10"):
    # a slot's button holds a time for a new booking.
    bookable = state in (State.SLOT_OFFERED, State.SERVICE_CHOSEN, State.SLOT_HELD)
    if offered and bookable and not moving_booking(after):
        length = dt.timedelta(minutes=after.service.minutes if after.service else 0)
        choices["slots"] = [
            {
                "id": slot_id(start),
                "start": in_zone(start, zone),
                "end": in_zone(start + length, zone),
                "label": local_label(start, zone),
            }
            for start in offered
        ]
    if state == State.DETAILS_COLLECTED and after.service is not None and after.held:
        choices["confirm"] = {
            "service": after.service.name,
            "start": in_zone(after.held, zone),
            "label": local_label(after.held, zone),
            "name": after.name,
            "email": after.email,
            "phone": after.phone,
            "price": money(booking_price(after)),
            "deposit": money(narration.deposit or Decimal("0")),
            "currency": narration.turn.currency,
            "hold_expires": in_zone(after.hold_expires, zone) if after.hold_expires else None,
            "card": card_of(after),
        }
    if effect_shown:
        assert narration.effect is not None
        choices["effect"] = {
            "action": narration.effect["action"],
            "label": effect_label(narration.effect, after, zone),
            "button": effect_button(narration.effect["action"]),
            "card": effect_card_of(narration.effect),
        }
    if state == State.AWAITING_PAYMENT and narration.payment_url:
        choices["payment"] = {
            "url": narration.payment_url,
            "amount": money(narration.deposit or Decimal("0")),
            "currency": narration.turn.currency,
            "expires_at": in_zone(narration.payment_expires, zone)
            if narration.payment_expires
            else None,
        }
    if state == State.CONFIRMED and after.appointment_start and narration.manage_url:
        choices["booked"] = booked_choice(
            service=after.appointment_service,
            start=after.appointment_start,
            status=after.appointment_status,
            reference=after.appointment,
            time_zone=zone,
            manage_url=narration.manage_url,
            calendar_url=narration.calendar_url,
        )
    return choices


def booked_choice(
    *,
    service: str,
    start: dt.datetime,
    status: str | None,
    reference: str | None,
    time_zone: str,
    manage_url: str,
    calendar_url: str,
) -> dict[str, Any]:
    """The booking made, as the widget shows it: in a reply's choices, and on the
    conversation read back (a deposit paid between two messages confirms it with no reply)."""
    return {
        "service": service,
        "start": in_zone(start, time_zone),
        "label": local_label(start, time_zone),
        "status": status,
        "reference": reference,
        "manage_url": manage_url,
        "calendar_url": calendar_url,
    }


def slot_id(start: dt.datetime) -> str:
    """How an offered slot is named when the client picks it: its start, as the conversation
    keeps it (UTC, ISO 8601)."""
    return start.astimezone(dt.UTC).isoformat()


def in_zone(moment: dt.datetime, time_zone: str) -> str:
    return moment.astimezone(ZoneInfo(time_zone)).isoformat()


def money(amount: Decimal) -> str:
    """Money as the API writes it: two decimals, as a string ("0.00", never "0")."""
    return f"{amount:.2f}"
