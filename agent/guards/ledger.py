"""The facts of one turn, as the core handed them over, and the record of what a guard rewrote."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from functools import cached_property
from zoneinfo import ZoneInfo

FALLBACK_NEXT_STEP = "How can I help you with your booking?"


@dataclass(frozen=True)
class Price:
    amount: Decimal
    currency: str  # ISO 4217, e.g. "EUR"


@dataclass(frozen=True)
class TurnFacts:
    """What the core established this turn: the only authority a reply may narrate."""

    zone: str = "UTC"
    language: str = "en"
    today: date | None = None  # the business-local date, handed over by the core
    datetimes: tuple[datetime, ...] = ()  # aware; slots, held time, booked time
    prices: tuple[Price, ...] = ()
    booking_confirmed: bool = False  # a confirmed booking record exists
    payment_verified: bool = False  # a charge verified paid by the payment provider
    message_sent: bool = False  # an email/SMS was actually sent this turn
    refund_issued: bool = False  # a refund was issued through the payment provider this turn
    booked_at: datetime | None = None  # the booked appointment's start, if one is booked
    cancelled: bool = False  # the appointment is cancelled (this turn or before)
    moved: bool = False  # the appointment was moved this turn
    missing_fields: tuple[str, ...] = ()  # e.g. ("name", "email")
    payment_requested: bool = False  # the conversation reached the payment stage
    next_step: str = ""  # the real next step, in the business's words
    # The knowledge shown to the model this turn: a sentence quoted from it word for word is
    # the business's own words about its policies ("street parking is paid"), not a claim
    # about this client's booking or payment. Dates, prices and mechanics are still checked.
    knowledge: str = ""
    links: tuple[str, ...] = ()  # the only links a reply may carry: the core's, this turn
    site: str = ""  # the business's own site: any page of it may be linked
    # What the core itself said this turn in the client's words (its refusals): a guard never
    # removes these, whatever days or amounts they name, and a reply always tells them.
    core_said: tuple[str, ...] = ()
    # The core's own narration of this turn, sentence by sentence (the offline narrator's,
    # from facts alone): trusted word for word, and what the client reads instead of a claim
    # the status guard drops.
    core_narration: tuple[str, ...] = ()
    names: tuple[str, ...] = ()  # the business's, its services' and the client's names
    client_email: str = ""  # the only email address a reply may name
    held_at: datetime | None = None  # the held time, only while the hold is live
    paid: tuple[Price, ...] = ()  # what Stripe confirmed paid
    refunds: tuple[Price, ...] = ()  # what was refunded (this turn or on record)
    discount: bool = False  # a price below the list price agreed by the core's negotiation
    # While a negotiation is active: the one figure the core handed over this turn (its ask, its
    # counter, or the agreed price). Every amount a reply states, however written ("€40",
    # "40 euros", "40.00", "forty", "40,00 €"), is rewritten to it (bookings.negotiation).
    negotiation: Price | None = None
    # While negotiating, the chosen service's list price: a sentence that names it as the list
    # price may state it (bookings.negotiation prices down from it).
    list_price: Price | None = None
    # Sentences an earlier guard wrote as the truth ("Nothing is booked yet."): later guards
    # leave them as they are.
    vouched: tuple[str, ...] = ()
    # The states the client's message spoke of ("is it booked?": booking): what a dropped
    # claim's denial may answer.
    asked_topics: frozenset[str] = frozenset()

    def is_core_said(self, sentence: str) -> bool:
        """``sentence`` is, word for word, one of the sentences the core said this turn (its
        refusals or its own narration)."""
        said = " ".join(sentence.split())
        return bool(said) and said in self._core_sentences

    @cached_property
    def _core_sentences(self) -> frozenset[str]:
        return frozenset(
            " ".join(part.split())
            for core in (*self.core_said, *self.core_narration, *self.vouched)
            for part in re.split(r"(?<=[.!?])\s+", core)
        )

    def quotes_knowledge(self, sentence: str) -> bool:
        quoted = " ".join(sentence.split())
        return len(quoted) > 12 and quoted in " ".join(self.knowledge.split())

    def __post_init__(self) -> None:
        for moment in self.datetimes:
            if moment.tzinfo is None or moment.utcoffset() is None:
                raise ValueError(f"naive datetime handed to the reply guards: {moment!r}")

    def local_datetimes(self) -> list[datetime]:
        zone = ZoneInfo(self.zone)
        return [moment.astimezone(zone) for moment in self.datetimes]

    def next_step_text(self) -> str:
        return self.next_step.strip() or FALLBACK_NEXT_STEP


@dataclass(frozen=True)
class Rewrite:
    """One change a guard made, for the audit log."""

    guard: str
    reason: str
    before: str
    after: str


@dataclass(frozen=True)
class GuardResult:
    text: str
    rewrites: list[Rewrite] = field(default_factory=list)
    vouched: tuple[str, ...] = ()  # sentences this guard wrote as the truth


@dataclass(frozen=True)
class GuardedReply:
    text: str
    rewrites: list[Rewrite]
