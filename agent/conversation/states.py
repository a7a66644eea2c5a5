"""A conversation's stages and the only moves between them. Pure: no database, no clock.

The stage is never set by hand. After each turn the shell describes the conversation's columns
as a ``Snapshot`` and asks ``stage_of`` where they put it; ``transition`` then checks that move
against ``MOVES`` and refuses any other (a bug, never a client's doing). So the stage cannot
drift from the facts it summarises: a hold that lapsed, an appointment released for an unpaid
deposit, a deposit paid by the webhook between two messages — each lands the conversation where
its facts now are, by an allowed move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class State(StrEnum):
    GREETING = "greeting"
    SERVICE_CHOSEN = "service_chosen"
    SLOT_OFFERED = "slot_offered"
    SLOT_HELD = "slot_held"
    DETAILS_COLLECTED = "details_collected"
    AWAITING_PAYMENT = "awaiting_payment"
    CONFIRMED = "confirmed"
    ESCALATED = "escalated"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


# Stages of a booking still being made: the client may go back to any earlier one (choose
# another service, ask for other days, let the hold go) or forward one step at a time —
# or several in one message ("a haircut Wednesday at 10, I'm Ana, ana@example.com").
BOOKING = (
    State.GREETING,
    State.SERVICE_CHOSEN,
    State.SLOT_OFFERED,
    State.SLOT_HELD,
    State.DETAILS_COLLECTED,
)
# Nothing follows these: a human has the conversation, or it is over.
TERMINAL = frozenset({State.ESCALATED, State.CANCELLED, State.EXPIRED})

MOVES: dict[State, frozenset[State]] = {
    **{stage: frozenset(BOOKING) for stage in BOOKING},
    # Only the client's Confirm makes an appointment: from details collected, never before.
    State.DETAILS_COLLECTED: frozenset({*BOOKING, State.AWAITING_PAYMENT, State.CONFIRMED}),
    # Paid (webhook or reconciliation) → confirmed; released unpaid → back to choosing a time.
    State.AWAITING_PAYMENT: frozenset({State.CONFIRMED, State.CANCELLED, *BOOKING}),
    # A confirmed booking can be moved (it stays confirmed) or cancelled.
    State.CONFIRMED: frozenset({State.CANCELLED}),
    **{stage: frozenset() for stage in TERMINAL},
}
# Any open conversation can be handed to a human or lapse from idleness.
for _stage in (*BOOKING, State.AWAITING_PAYMENT, State.CONFIRMED):
    MOVES[_stage] = MOVES[_stage] | {State.ESCALATED, State.EXPIRED}


# The one way out of ESCALATED, and only a person takes it ("hand back to the assistant"):
# to wherever the facts stand then. CANCELLED and EXPIRED stay final.
HANDED_BACK = frozenset({*BOOKING, State.AWAITING_PAYMENT, State.CONFIRMED, State.CANCELLED})


class InvalidTransition(Exception):
    def __init__(self, current: State, target: State) -> None:
        super().__init__(f"a conversation cannot move from {current} to {target}")
        self.current, self.target = current, target


def transition(current: State, target: State) -> State:
    """``target`` if the move is allowed (staying put always is); else InvalidTransition."""
    if target == current or target in MOVES[current]:
        return target
    raise InvalidTransition(current, target)


@dataclass(frozen=True)
class Snapshot:
    """The columns that decide a conversation's stage, as plain facts."""

    has_service: bool = False
    has_offered: bool = False
    holds_slot: bool = False  # a time held for the client (the hold itself may have lapsed)
    details_complete: bool = False
    appointment_status: str | None = None  # bookings' AppointmentStatus value, if booked
    escalated: bool = False
    idle_expired: bool = False


def stage_of(snapshot: Snapshot) -> State:
    """Where the facts put the conversation; the first rule that matches decides."""
    if snapshot.escalated:
        return State.ESCALATED
    status = snapshot.appointment_status
    if status in ("confirmed", "attended", "no_show"):
        return State.CONFIRMED
    if status == "pending_payment":
        return State.AWAITING_PAYMENT
    if status == "cancelled":
        return State.CANCELLED
    if snapshot.idle_expired:
        return State.EXPIRED
    # No appointment, or one released for an unpaid deposit: a booking in the making.
    if snapshot.holds_slot and snapshot.details_complete:
        return State.DETAILS_COLLECTED
    if snapshot.holds_slot:
        return State.SLOT_HELD
    if snapshot.has_service and snapshot.has_offered:
        return State.SLOT_OFFERED
    if snapshot.has_service:
        return State.SERVICE_CHOSEN
    return State.GREETING


def handed_back(current: State, snapshot: Snapshot) -> State:
    """Where an escalated conversation goes when a person hands it back to the assistant."""
    if current != State.ESCALATED:
        raise InvalidTransition(current, current)
    target = stage_of(replace(snapshot, escalated=False))
    if target not in HANDED_BACK:
        raise InvalidTransition(current, target)
    return target
