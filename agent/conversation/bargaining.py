"""A price negotiation inside a conversation: where it stands, and the core's answer to an offer.

The arithmetic is the booking core's (``bookings.negotiation.negotiate``); this module reads
where the negotiation stands from the conversation's columns, hands the client's offer and the
owner's terms to the core, and writes the answer back. It never computes a price itself.

The rules of a conversation's negotiation:
- It belongs to one service: choosing another service starts it over.
- It holds for any time of that service, except a price given while the held time was within
  the last-minute hours of the terms: that price is for that time only, and holding another
  time starts it over.
- Once a price is agreed, it is the price: a later offer is answered with it (accepted if it
  reaches it, firm otherwise) and the ask never moves again.
- It is read under the owner's terms as they are now (``standing``): an ask or agreed price
  stands only while the service still negotiates and the price is still within its floor and
  list price. Otherwise it is dropped as if never given — the list price is the price and the
  next offer starts over — so no change of terms can book a price outside them.
- A counter is the business's standing offer: the price the client is told, the confirm card
  shows and Confirm books is the core's one figure — the agreed price, else the current ask,
  else the list price. Pressing Confirm on the card is the client's acceptance of it.
- A price given under last-minute terms is for its time only, also once booked: the
  conversation does not move a booking made at it below the list price (``time_bound``); the
  client is told why.
- It ends with the booking, which stores that price; while the conversation has a live
  booking, no offer is taken (``agent.conversation.policy``). A booking released for an unpaid
  deposit leaves the agreement standing for the next time chosen.

The floor never leaves the core except as ``PriceAnswer.is_floor``: the answer names the floor
only when the core's price is the floor itself.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from agent.llm.base import PriceAnswer
from agent.models import Conversation
from bookings.models import Appointment, Service
from bookings.negotiation import Kind, State, Terms, negotiate

HOUR = dt.timedelta(hours=1)


def negotiating(conversation: Conversation) -> bool:
    """A negotiation is under way for the conversation's service and not yet booked: the
    core has answered an offer for it."""
    return (
        conversation.service_id is not None
        and conversation.negotiation_service_id == conversation.service_id
        and conversation.negotiation_ask is not None
        and conversation.appointment_id is None
    )


@dataclass(frozen=True)
class Standing:
    """Where the negotiation stands under the owner's current terms (nothing: no negotiation,
    the list price is the price)."""

    price: Decimal | None = None  # the core's one figure: the agreed price, else the ask
    agreed: Decimal | None = None  # the price agreed, once an offer reached the ask


NOTHING = Standing()


def standing(conversation: Conversation, terms: Terms | None) -> Standing:
    """What of the stored negotiation still stands under ``terms``, the owner's terms for the
    conversation's service as they are now (None: it no longer negotiates). The one reading of
    the stored ask and agreed price: the view, the card, the deposit and the booking all go
    through it, so none of them can name a price the owner's terms no longer allow."""
    if terms is None or not negotiating(conversation):
        return NOTHING
    agreed = conversation.agreed_price
    price = agreed if agreed is not None else conversation.negotiation_ask
    assert price is not None  # negotiating: an ask was given
    if not terms.floor <= price <= terms.list_price:
        return NOTHING  # the owner moved the floor or the list price past it
    return Standing(price=price, agreed=agreed)


def time_bound(conversation: Conversation, appointment: Appointment) -> bool:
    """The appointment was booked in this conversation at a last-minute price — below its
    list price, at the very time the price was given for — so moving it would carry that
    price to a time it was never given for."""
    return (
        conversation.negotiation_slot is not None
        and conversation.negotiation_slot == appointment.starts_at
        and (appointment.discount or 0) > 0
    )


def negotiation_reset(conversation: Conversation) -> None:
    conversation.negotiation_service = None
    conversation.negotiation_rounds = 0
    conversation.negotiation_ask = None
    conversation.agreed_price = None
    conversation.negotiation_slot = None


def slot_held(conversation: Conversation, start: dt.datetime) -> None:
    """A time is held: a price given for another time under last-minute terms no longer
    stands."""
    bound = conversation.negotiation_slot
    if bound is not None and bound != start:
        negotiation_reset(conversation)


def offer_answer(
    conversation: Conversation,
    *,
    service: Service,
    terms: Terms,
    offer: Decimal,
    now: dt.datetime,
) -> tuple[PriceAnswer, Decimal]:
    """The core's answer to ``offer`` (valid money, from ``offer_amount``) for ``service``
    under the owner's ``terms``, written to the conversation's columns; with it, the money the
    answer contained (how far the price named stays above the offer)."""
    if standing(conversation, terms) == NOTHING:
        # Another service, or what was given no longer stands under the owner's terms: the
        # negotiation starts over from the list price.
        negotiation_reset(conversation)
    held = conversation.held_start
    hours = None if held is None else Decimal((held - now) / HOUR).quantize(Decimal("0.01"))
    if conversation.agreed_price is not None:
        # A price agreed is the price: to the core, an ask that has come down to it with no
        # counters left to give (an offer reaching it is accepted at it, any other held firm).
        state = State(rounds=terms.max_rounds, ask=conversation.agreed_price)
        hours = None
    else:
        state = State(rounds=conversation.negotiation_rounds, ask=conversation.negotiation_ask)
    outcome = negotiate(terms, state, offer, hours_to_start=hours)
    conversation.negotiation_service = service
    conversation.negotiation_rounds = outcome.state.rounds
    # Once answered, the ask is explicit: the list price the core held, or what it came to.
    conversation.negotiation_ask = outcome.state.ask or outcome.price
    if outcome.kind is Kind.ACCEPT:
        conversation.agreed_price = outcome.price
    if _last_minute(terms, hours):
        conversation.negotiation_slot = held
    answer = PriceAnswer(kind=outcome.kind.value, price=outcome.price, is_floor=outcome.is_floor)
    return answer, max(Decimal("0"), outcome.price - offer)


def _last_minute(terms: Terms, hours: Decimal | None) -> bool:
    """The held time is within the terms' last-minute hours: a price given now may be the
    last-minute one, good for this time only."""
    limit = terms.last_minute_hours
    return limit is not None and hours is not None and 0 <= hours <= limit
