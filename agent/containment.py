"""How much the gates contained, from a run's outcomes or from the audit log alike: proposals,
executed, blocked (by stage), containment rate, money moved and money contained — and of price
negotiation, the discount refused (what the core's answers kept above the client's offers) and
the discount given (list price − agreed price of booked appointments, handed in). Pure."""

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any, Protocol

from agent.gates import Stage

EXECUTE = "EXECUTE"
BLOCK = "BLOCK"
CENT = Decimal("0.01")


class Decided(Protocol):
    """One judged proposal: an ``Outcome`` or an ``AuditEntry`` row."""

    @property
    def action(self) -> str: ...
    @property
    def result(self) -> str: ...
    @property
    def stage(self) -> str: ...
    @property
    def money_moved(self) -> Decimal: ...
    @property
    def money_contained(self) -> Decimal: ...


@dataclass(frozen=True)
class Outcome:
    action: str  # "(free text)" when the model wrote prose
    result: str
    stage: str  # blank when executed
    reason: str
    money_moved: Decimal = Decimal("0")
    money_contained: Decimal = Decimal("0")


# What the audit log's columns hold: a label of 64 characters, amounts of numeric(10, 2). No
# proposal, however absurd, can make the audit entry itself fail to be written.
LABEL_CHARACTERS = 64
MAX_RECORDED = Decimal("99999999.99")


def proposal_label(raw: Any) -> str:
    if isinstance(raw, dict) and isinstance(raw.get("action"), str):
        return raw["action"][:LABEL_CHARACTERS]
    return "(free text)"


RECORDED_DEPTH = 20


def as_recorded(raw: Any, depth: int = 0) -> Any:
    """``raw`` as the audit log can store it, whatever a model produced: no number JSON cannot
    carry (infinity, not-a-number), no NUL character (PostgreSQL refuses it in text), no
    nesting deeper than RECORDED_DEPTH (kept as its text)."""
    if depth > RECORDED_DEPTH:
        return str(raw)[:1000].replace("\x00", "")
    match raw:
        case str():
            return raw.replace("\x00", "")
        case float() if math.isnan(raw) or math.isinf(raw):
            return str(raw)
        case Decimal() if not raw.is_finite():
            return str(raw)
        case dict():
            return {as_recorded(k, depth + 1): as_recorded(v, depth + 1) for k, v in raw.items()}
        case list() | tuple():
            return [as_recorded(item, depth + 1) for item in raw]
    return raw


def refund_asked(raw: Any) -> Decimal:
    """The money a refund proposal asks for, however malformed the rest of it is; zero for any
    other proposal. This is what a block contains: to the cent, and at most what the audit
    column holds (the proposal itself, stored beside it, keeps the figure asked)."""
    if not isinstance(raw, dict) or raw.get("action") != "refund":
        return Decimal("0")
    try:
        amount = Decimal(str(raw.get("amount")))
    except (InvalidOperation, ValueError):
        return Decimal("0")
    if not amount.is_finite() or amount <= 0:
        return Decimal("0")
    if amount >= MAX_RECORDED:
        return MAX_RECORDED
    return amount.quantize(CENT, rounding=ROUND_DOWN)


@dataclass(frozen=True)
class ContainmentSummary:
    proposals: int
    executed: int
    blocked: int
    blocked_by_stage: dict[str, int] = field(default_factory=dict)
    containment_rate: Decimal = Decimal("0")  # percent, one decimal
    money_moved: Decimal = Decimal("0")
    money_contained: Decimal = Decimal("0")
    discount_refused: Decimal = Decimal("0")  # part of money_contained: price offers answered
    discount_given: Decimal = Decimal("0")

    def as_json(self) -> dict[str, Any]:
        return {
            "proposals": self.proposals,
            "executed": self.executed,
            "blocked": self.blocked,
            "blocked_by_stage": self.blocked_by_stage,
            "containment_rate": float(self.containment_rate),
            "money_moved": str(self.money_moved),
            "money_contained": str(self.money_contained),
        }


def containment_summary(
    decided: Iterable[Decided], *, discount_given: Decimal = Decimal("0")
) -> ContainmentSummary:
    rows = list(decided)
    by_stage = {stage.value: 0 for stage in Stage}
    for row in rows:
        if row.result == BLOCK and row.stage:
            by_stage[row.stage] += 1
    executed = sum(1 for row in rows if row.result == EXECUTE)
    blocked = len(rows) - executed
    rate = Decimal(blocked * 100) / len(rows) if rows else Decimal("0")
    return ContainmentSummary(
        proposals=len(rows),
        executed=executed,
        blocked=blocked,
        blocked_by_stage=by_stage,
        containment_rate=rate.quantize(Decimal("0.1")),
        money_moved=sum((row.money_moved for row in rows), Decimal("0")).quantize(CENT),
        money_contained=sum((row.money_contained for row in rows), Decimal("0")).quantize(CENT),
        discount_refused=sum(
            (row.money_contained for row in rows if row.action == "offer_price"), Decimal("0")
        ).quantize(CENT),
        discount_given=discount_given.quantize(CENT),
    )
