"""The one interface every model speaks: propose, then narrate.

A model sees a ``TurnContext`` (plain facts the shell read from the database this turn) and
answers with a ``Proposed``: commands for the gates, as raw as the model produced them (a dict
is a command; a string is free text, which the STRUCTURE gate refuses), and optionally a reply
of its own when it proposes nothing. After the core has executed what passed, the model
narrates a ``Narration`` — the outcomes and the facts the core handed over — into a draft,
which the reply guards check before it reaches the client.

A model never touches the database, money or another business: it only ever returns values.
A model that cannot answer (network error, timeout, output that is not a turn at all) raises
``ModelUnavailable``; the shell re-asks a fixed number of times, then hands the conversation to
a human.

Pure values only: nothing here reads a setting, the clock or the database.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol

from agent.offline.reading import MessageReading


class ModelUnavailable(Exception):
    """The model gave no usable answer this time (timeout, HTTP error, unreadable output)."""


@dataclass(frozen=True)
class ServiceFact:
    id: int
    name: str
    minutes: int
    price: Decimal
    currency: str


@dataclass(frozen=True)
class AppointmentFact:
    """One of a verified returning client's appointments at the business."""

    reference: str
    service: str
    start: dt.datetime
    status: str
    deposit_left: Decimal | None = None  # paid and not yet refunded; None: no deposit paid


@dataclass(frozen=True)
class ConversationView:
    """The conversation as the model may know it: its stage and what has been collected."""

    state: str
    service: ServiceFact | None = None
    offered: tuple[dt.datetime, ...] = ()  # slot starts the core offered, aware
    held: dt.datetime | None = None  # the held slot's start
    hold_expires: dt.datetime | None = None
    name: str = ""
    email: str = ""
    phone: str = ""
    missing: tuple[str, ...] = ()  # contact fields still needed before confirming
    appointment: str | None = None  # the booked appointment's reference
    appointment_status: str | None = None
    appointment_start: dt.datetime | None = None
    appointment_service: str = ""  # the booked service's name
    payment_status: str | None = None  # the deposit's, if the booking has one
    deposit_left: Decimal | None = None  # of it, paid and not yet refunded (None: nothing paid)
    # A cancel, move or refund card waiting for the client's press (action, appointment, and
    # its start or amount).
    pending_effect: dict[str, str] | None = None
    # While a price is being negotiated for the service (never the owner's floor), as it stands
    # under the owner's terms now: the core's figure (the price agreed, else its current ask —
    # the price the card shows and Confirm books), and the price agreed once there is one.
    asking: Decimal | None = None
    agreed: Decimal | None = None
    # The chosen service's price is open to offers and nothing is booked yet: a price is being
    # talked about whether or not the client has made an offer (the reply price scan is on).
    negotiates: bool = False
    # Once the client proved who they are (a one-time code): their appointments here, newest
    # first, each nameable by ``choose_appointment``. Empty otherwise.
    client_appointments: tuple[AppointmentFact, ...] = ()
    # The client proved who they are: the name, email and phone above are theirs on file.
    verified: bool = False
    # The reply this message answers offered the client a person (``offer_person``): a plain
    # "yes" now takes it up.
    person_offered: bool = False


@dataclass(frozen=True)
class TurnContext:
    business: str  # the business's display name
    time_zone: str  # IANA
    language: str
    currency: str
    now: dt.datetime  # aware
    services: tuple[ServiceFact, ...]
    conversation: ConversationView
    message: str  # the client's message, as typed
    reading: MessageReading  # what the deterministic reader found in it
    actions: tuple[str, ...]  # the commands granted to this business's agent
    history: tuple[tuple[str, str], ...] = ()  # (role, text), oldest first, bounded
    knowledge: str = ""  # empty when the routine-turn classifier skipped it


@dataclass(frozen=True)
class Proposed:
    proposals: tuple[Any, ...] = ()  # dict = command, str = free text; as produced
    reply: str = ""  # a reply of the model's own, when it proposes nothing (or besides)


@dataclass(frozen=True)
class StepOutcome:
    """One proposal's fate this turn, for narration."""

    action: str
    executed: bool
    reason: str  # the gate's or the core's reason; "approved" when executed
    money_moved: Decimal = Decimal("0")  # a refund issued
    said: str = ""  # a refusal in the client's words (never the reason, which is for the log)
    # Passed the gates but only prepared a card (a cancel, move or refund waiting for the
    # client's press): nothing happened yet.
    prepared: bool = False


@dataclass(frozen=True)
class PriceAnswer:
    """The core's answer to the client's price offer this turn (``bookings.negotiation``):
    "accept", "counter" or "firm", with its one price. ``is_floor`` says the price is the
    owner's floor — the only way a model ever learns the floor."""

    kind: str
    price: Decimal
    is_floor: bool = False


@dataclass(frozen=True)
class LapsedHold:
    """A time the conversation was holding when its hold ran out, as the core finds it now."""

    start: dt.datetime
    still_free: bool


@dataclass(frozen=True)
class Narration:
    """What the model narrates: the turn, what happened, and the conversation afterwards."""

    turn: TurnContext
    outcomes: tuple[StepOutcome, ...]
    after: ConversationView
    slots: tuple[dt.datetime, ...] = ()  # slots the core offers the client this turn
    alternatives: tuple[dt.datetime, ...] = ()  # after a refused time: real alternatives
    price: Decimal | None = None  # the core's price this turn, if any
    deposit: Decimal | None = None  # the deposit due, if the core asked for one
    payment_url: str = ""
    payment_expires: dt.datetime | None = None  # unpaid by then, the booking is released
    next_step: str = ""  # the real next step, already phrased
    notes: tuple[str, ...] = field(default_factory=tuple)  # other core facts, phrased
    effect: dict[str, str] | None = None  # the effect card prepared this turn, if any
    lapsed: LapsedHold | None = None  # a hold that ran out since the last reply
    links: tuple[str, ...] = ()  # the only links a reply may carry: the core's, this turn
    site: str = ""  # the business's own site: any of its pages may be linked
    manage_url: str = ""  # the client's page for their appointment, once booked
    calendar_url: str = ""  # its .ics
    price_answer: PriceAnswer | None = None  # the core's answer to an offer this turn
    # When a person was offered this turn: the commands the agent is granted, so the reply
    # says only what the assistant can truly do here. Empty otherwise.
    granted: frozenset[str] = frozenset()


class LanguageModel(Protocol):
    name: str
    # What the shell does for this model. A model that narrates in this process (the offline
    # one, in microseconds) has its turn in one transaction; a remote one narrates after the
    # commit (ADR 0005). The last messages and the granted commands are read for a model only
    # if it reads them.
    narrates_in_process: bool
    reads_history: bool
    reads_menu: bool

    def propose(self, context: TurnContext) -> Proposed: ...

    def narrate(self, narration: Narration) -> str: ...
