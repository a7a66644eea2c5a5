"""The three gates a model's proposal passes, in series, before anything executes.

STRUCTURE: a known menu command with its typed fields (free text is not a command).
CAPABILITY: a command granted to this agent.
POLICY: the business's rules against the current state, which the caller reads and hands in as
plain facts. The first gate that fails answers, with its own reason.

Pure: no database, no clock, no payments writer. Refunds are judged by
``payments.refund_policy`` — the same rules the owners' dashboard applies.

A verdict's ``reason`` is the audit log's and is English whatever the client's language, so the
owner reads one log however their clients write; ``said`` is the client's, written in the active
language (a turn sets it to the conversation's).
"""

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext
from pydantic import ValidationError

from agent.actions import MENU, Proposal, Refund
from payments.refund_policy import RefundRequest, RefundState, refund_rule_broken


class Stage(StrEnum):
    STRUCTURE = "STRUCTURE"
    CAPABILITY = "CAPABILITY"
    POLICY = "POLICY"


@dataclass(frozen=True)
class GateVerdict:
    passed: bool
    stage: Stage | None  # the gate that blocked; None when every gate passed
    reason: str  # for the audit log and operators: which rule, in the system's terms
    # For the client, when a rule has words of its own: plain, in the business's zone; the
    # narration never shows ``reason`` (agent.conversation.refusals).
    said: str = ""


APPROVED = GateVerdict(passed=True, stage=None, reason="approved")

# Commands a batch replay can carry out on its own; the rest need a conversation's state
# (a held slot, collected details) and are judged there.
RUNS_WITHOUT_CONVERSATION = frozenset({"refund", "escalate_to_human", "send_message"})


def blocked(stage: Stage, reason: str, said: str = "") -> GateVerdict:
    return GateVerdict(passed=False, stage=stage, reason=reason, said=said)


@dataclass(frozen=True)
class Structured:
    """A proposal that passed STRUCTURE: its command name and typed fields."""

    action: str
    proposal: Proposal


def structure_gate(raw: Any) -> GateVerdict | Structured:
    """The typed command ``raw`` names, or the verdict that blocks it."""
    if not isinstance(raw, dict):
        return blocked(Stage.STRUCTURE, "free text, not a command")
    fields = dict(raw)
    action = fields.pop("action", None)
    if not isinstance(action, str) or action not in MENU:
        return blocked(Stage.STRUCTURE, f"unknown action: {action!r}")
    try:
        return Structured(action, MENU[action].model_validate(fields))
    except ValidationError as invalid:
        return blocked(Stage.STRUCTURE, f"{action}: {field_errors(invalid)}")


def field_errors(invalid: ValidationError) -> str:
    reasons = []
    for error in invalid.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "fields"
        if error["type"] == "missing":
            reasons.append(f"missing field {where!r}")
        elif error["type"] == "extra_forbidden":
            reasons.append(f"unexpected field {where!r}")
        else:
            reasons.append(f"{where}: {error['msg']}")
    return "; ".join(reasons)


def capability_gate(action: str, granted: Collection[str]) -> GateVerdict:
    if action not in granted:
        return blocked(Stage.CAPABILITY, f"{action} is not in the agent's capabilities")
    return APPROVED


@dataclass(frozen=True)
class RefundFacts:
    """The current state a refund is judged against. ``state`` is None when no appointment of
    this business carries the proposal's reference."""

    state: RefundState | None
    now: dt.datetime


def refund_policy_gate(proposal: Refund, facts: RefundFacts) -> GateVerdict:
    if facts.state is None:
        return blocked(
            Stage.POLICY,
            f"appointment {proposal.appointment} does not exist",
            gettext("I couldn't find that appointment."),
        )
    refusal = refund_rule_broken(RefundRequest(proposal.amount, facts.now), facts.state)
    if refusal is None:
        return APPROVED
    # The refund policy's one sentence: the audit keeps it in English, the client reads it in
    # their language.
    return blocked(Stage.POLICY, refusal.in_english(), refusal.told())


def policy_gate(structured: Structured, refund_facts: RefundFacts | None = None) -> GateVerdict:
    if structured.action not in RUNS_WITHOUT_CONVERSATION:
        return blocked(
            Stage.POLICY, f"{structured.action} is judged inside a conversation, not here"
        )
    if isinstance(structured.proposal, Refund):
        if refund_facts is None:
            raise ValueError("a refund is judged against its facts; none were given")
        return refund_policy_gate(structured.proposal, refund_facts)
    # escalate_to_human and send_message move no money and change no booking.
    return APPROVED
