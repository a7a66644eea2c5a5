"""Bounded negotiation: what the business answers to a client's price offer. Pure arithmetic on
the owner's terms — no model, no database, no clock (the slot's distance from now comes in).

One offer in, exactly one outcome out:
- **accept**: the offer reaches the current ask; the price is the ask (a client who offers more
  than asked is charged what was asked, never more);
- **counter**: one number strictly between the offer and the current ask, by the owner's rule;
  it becomes the new ask;
- **firm**: no movement — the rule is *fixed*, the rounds are spent, or the ask is already the
  floor; the price named is the current ask (the floor itself, where it has reached it).

Whatever the offers, every price named is within [floor, list price], the ask never rises, and
counters stop after ``max_rounds``. The floor is the business's secret: ``Outcome.is_floor``
says when the number named is the floor, the only time a narrator may know it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from decimal import ROUND_CEILING, Decimal, InvalidOperation

CENT = Decimal("0.01")
# Offers are money a client could pay for one visit: at most 9 digits before the point.
LARGEST_OFFER = Decimal("999999999.99")


class Rule(enum.StrEnum):
    FIXED = "fixed"  # the list price is the answer
    HALFWAY = "halfway"  # counter halfway between the offer and the ask, rounded up to a step
    STEPS = "steps"  # each round concedes a fixed amount or a share of (list − floor)


class Kind(enum.StrEnum):
    ACCEPT = "accept"
    COUNTER = "counter"
    FIRM = "firm"


@dataclass(frozen=True)
class Terms:
    """The owner's terms for one service. Valid terms (``terms_problems`` finds none) are the
    only ones ``negotiate`` is given."""

    list_price: Decimal
    floor: Decimal
    rule: Rule = Rule.FIXED
    rounding: Decimal = Decimal("1.00")  # halfway: counters rounded up to a multiple of this
    step_amount: Decimal | None = None  # steps: conceded per round …
    step_percent: Decimal | None = None  # … or this percentage of (list − floor) per round
    max_rounds: int = 3  # counters given at most; after them the ask holds firm
    last_minute_hours: int | None = None  # this close to the start, the floor at once


@dataclass(frozen=True)
class State:
    """Where one negotiation stands: counters given so far and the current ask (None: the list
    price, nothing conceded yet)."""

    rounds: int = 0
    ask: Decimal | None = None


@dataclass(frozen=True)
class Outcome:
    kind: Kind
    price: Decimal  # accepted, countered, or held firm at
    state: State  # where the negotiation stands after this offer
    is_floor: bool  # the price named is the floor (the only time the floor is told)


class OfferRefused(ValueError):
    """An offer that is not a positive amount of the business's currency; ``reason`` says why
    in words a client may read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def terms_problems(terms: Terms) -> list[str]:
    """What makes these terms unusable, in words an owner may read (empty: usable)."""
    problems = []
    if terms.floor < 0:
        problems.append("The price floor cannot be negative.")
    if terms.floor > terms.list_price:
        problems.append("The price floor cannot be above the list price.")
    if terms.max_rounds < 1:
        problems.append("Allow at least one round of counter-offers.")
    if terms.rule is Rule.HALFWAY and terms.rounding <= 0:
        problems.append("Meeting halfway rounds to a step that must be more than 0.")
    if terms.rule is Rule.STEPS:
        amount, percent = terms.step_amount, terms.step_percent
        if (amount is None) == (percent is None):
            problems.append("Concede in steps of an amount or of a percentage (one of them).")
        elif amount is not None and amount <= 0:
            problems.append("The step must be more than 0.")
        elif percent is not None and not 0 < percent <= 100:
            problems.append("The step's percentage must be more than 0 and at most 100.")
    if terms.last_minute_hours is not None and terms.last_minute_hours < 1:
        problems.append("Last-minute pricing starts at least 1 hour before the visit.")
    return problems


def offer_amount(amount: object, *, currency: str | None, business_currency: str) -> Decimal:
    """The offer as money of the business's currency, or OfferRefused saying why: not a number,
    not positive, not finite or absurdly large, finer than a cent, another currency (never
    converted)."""
    if currency is not None and currency.upper() != business_currency.upper():
        raise OfferRefused(f"Prices here are in {business_currency}; offer an amount in it.")
    if isinstance(amount, bool) or not isinstance(amount, (str, int, Decimal)):
        raise OfferRefused("An offer is an amount of money, such as 45 or 45.50.")
    try:
        value = Decimal(str(amount).strip())
    except InvalidOperation:
        raise OfferRefused("An offer is an amount of money, such as 45 or 45.50.") from None
    if not value.is_finite() or value > LARGEST_OFFER:
        raise OfferRefused("That amount is not a price anyone could pay for a visit.")
    if value <= 0:
        raise OfferRefused("An offer must be more than 0.")
    if value != value.quantize(CENT):
        raise OfferRefused("An offer is in whole cents, such as 45.50.")
    return value.quantize(CENT)


def negotiate(
    terms: Terms, state: State, offer: Decimal, *, hours_to_start: Decimal | None = None
) -> Outcome:
    """The business's answer to ``offer`` (valid: from ``offer_amount``) under ``terms`` (valid:
    ``terms_problems`` empty), ``hours_to_start`` the slot's distance (None: no slot yet)."""
    offer = offer.quantize(CENT)
    ask = terms.list_price if state.ask is None else state.ask
    if offer >= ask:
        return _outcome(Kind.ACCEPT, ask, state, terms)
    if terms.rule is Rule.FIXED:
        return _outcome(Kind.FIRM, ask, state, terms)
    if _last_minute(terms, hours_to_start):
        # The floor at once: taken if offered, else named and held.
        if offer >= terms.floor:
            return _outcome(Kind.ACCEPT, offer, replace(state, ask=offer), terms)
        return _outcome(Kind.FIRM, terms.floor, replace(state, ask=terms.floor), terms)
    if state.rounds >= terms.max_rounds or ask <= terms.floor:
        return _outcome(Kind.FIRM, ask, state, terms)
    counter = _counter(terms, ask, offer)
    if counter <= offer:
        # The concession reaches the offer (it is at or above the floor): take it.
        return _outcome(Kind.ACCEPT, offer, replace(state, ask=offer), terms)
    if counter >= ask:
        return _outcome(Kind.FIRM, ask, state, terms)
    return _outcome(Kind.COUNTER, counter, State(rounds=state.rounds + 1, ask=counter), terms)


def _counter(terms: Terms, ask: Decimal, offer: Decimal) -> Decimal:
    """The next ask by the owner's rule, never below the floor."""
    if terms.rule is Rule.HALFWAY:
        # Halfway to the offer itself, not to the floor: a counter above the floor is the same
        # whatever the floor is, so a low offer cannot measure it (where the clamp bites, the
        # answer is the floor, and is told as such).
        middle = (ask + offer) / 2
        rounded = (middle / terms.rounding).to_integral_value(ROUND_CEILING) * terms.rounding
        return max(terms.floor, rounded.quantize(CENT))
    if terms.step_amount is not None:
        step = terms.step_amount
    else:
        assert terms.step_percent is not None
        step = (terms.list_price - terms.floor) * terms.step_percent / 100
    # Rounded up to the cent: a concession never gives away a fraction more than the rule says.
    return max(terms.floor, (ask - step).quantize(CENT, ROUND_CEILING))


def _last_minute(terms: Terms, hours_to_start: Decimal | None) -> bool:
    return (
        terms.last_minute_hours is not None
        and hours_to_start is not None
        and 0 <= hours_to_start <= terms.last_minute_hours
    )


def _outcome(kind: Kind, price: Decimal, state: State, terms: Terms) -> Outcome:
    return Outcome(kind=kind, price=price, state=state, is_floor=price == terms.floor)
