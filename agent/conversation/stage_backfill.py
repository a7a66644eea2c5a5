"""The stage moves that can still be told of a conversation that began before its moves were
recorded (agent/migrations/0012): its start, the steps its executed proposals show, its booking
from the linked appointment's history, and the stage it is in now. Pure: plain values in,
plain values out.

What is derived is a lower bound on the path the conversation took, never an invention: only
steps forward are told (the audit log shows a hold was made, not that the client later let it
go), each at the time of the fact that shows it, and the last move always lands on the stage
the row holds now.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from agent.conversation.states import State

# The booking steps in the order a client goes through them: the funnel's order.
STEPS = (
    State.GREETING,
    State.SERVICE_CHOSEN,
    State.SLOT_OFFERED,
    State.SLOT_HELD,
    State.DETAILS_COLLECTED,
    State.AWAITING_PAYMENT,
    State.CONFIRMED,
)
STEP_RANK = {stage: rank for rank, stage in enumerate(STEPS)}

# An executed proposal shows the conversation reached at least this step.
REACHED_BY_ACTION = {
    "choose_service": State.SERVICE_CHOSEN,
    "offer_slots": State.SLOT_OFFERED,
    "hold_slot": State.SLOT_HELD,
    "collect_contact": State.DETAILS_COLLECTED,
}


@dataclass(frozen=True)
class Kept:
    """What a conversation kept of its past."""

    created_at: dt.datetime
    updated_at: dt.datetime
    state: str
    executed: tuple[tuple[str, dt.datetime], ...] = ()  # (action, when), from the audit log
    booked_at: dt.datetime | None = None  # the linked appointment's creation
    booked_pending: bool = False  # it was created awaiting its deposit
    confirmed_at: dt.datetime | None = None  # its deposit was paid (confirmed) then


@dataclass(frozen=True)
class Move:
    stage: str
    previous: str  # blank: the start
    at: dt.datetime


def derived_moves(kept: Kept) -> list[Move]:
    """The moves ``kept`` shows, in time order, from the start to the stage held now."""
    facts: list[tuple[dt.datetime, State]] = [
        (at, REACHED_BY_ACTION[action])
        for action, at in kept.executed
        if action in REACHED_BY_ACTION
    ]
    if kept.booked_at is not None:
        first = State.AWAITING_PAYMENT if kept.booked_pending else State.CONFIRMED
        facts.append((kept.booked_at, first))
        if kept.booked_pending and kept.confirmed_at is not None:
            facts.append((kept.confirmed_at, State.CONFIRMED))
    moves = [Move(State.GREETING.value, "", kept.created_at)]
    for at, stage in _forward_only(sorted(facts, key=lambda fact: fact[0])):
        moves.append(Move(stage.value, moves[-1].stage, max(at, moves[-1].at)))
    if moves[-1].stage != kept.state:
        moves.append(Move(kept.state, moves[-1].stage, max(kept.updated_at, moves[-1].at)))
    return moves


def _forward_only(
    facts: Iterable[tuple[dt.datetime, State]],
) -> Iterable[tuple[dt.datetime, State]]:
    furthest = STEP_RANK[State.GREETING]
    for at, stage in facts:
        if STEP_RANK[stage] > furthest:
            furthest = STEP_RANK[stage]
            yield at, stage
