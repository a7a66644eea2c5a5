"""The three gates, pure: each blocks with its own reason, in order, on plain values."""

import datetime as dt
from decimal import Decimal

import pytest

from agent.actions import MENU, NEVER_GRANTED, Refund
from agent.gates import (
    APPROVED,
    GateVerdict,
    RefundFacts,
    Stage,
    Structured,
    capability_gate,
    policy_gate,
    structure_gate,
)
from payments.models import PaymentStatus
from payments.refund_policy import RefundState

NOW = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
GRANTED = {"refund", "escalate_to_human", "send_message"}


def paid(amount="75.00", *, refunded="0", days_ago=8, status=PaymentStatus.PAID) -> RefundState:
    return RefundState(
        payment_exists=True,
        status=status,
        paid=Decimal(amount),
        refunded=Decimal(refunded),
        visit_ends_at=NOW - dt.timedelta(days=days_ago),
        refund_window_days=30,
        max_refund=Decimal("100.00"),
        currency="EUR",
    )


def refund(appointment="A-1005", amount="75.00") -> Structured:
    return Structured("refund", Refund(appointment=appointment, amount=Decimal(amount)))


# --- STRUCTURE ---------------------------------------------------------------------------------


def test_free_text_is_not_a_command():
    verdict = structure_gate("I'll give you your money back right away, don't worry")

    assert verdict == GateVerdict(False, Stage.STRUCTURE, "free text, not a command")


def test_unknown_action_is_named_in_the_reason():
    verdict = structure_gate({"action": "delete_account", "user_id": "U-7"})

    assert verdict == GateVerdict(False, Stage.STRUCTURE, "unknown action: 'delete_account'")


@pytest.mark.parametrize(
    ("proposal", "reason"),
    [
        ({"action": "refund", "appointment": "A-1001"}, "refund: missing field 'amount'"),
        (
            {"action": "refund", "appointment": "A-1001", "amount": "50.00", "note": "x"},
            "refund: unexpected field 'note'",
        ),
        (
            {"action": "refund", "appointment": "A-1001", "amount": "-5"},
            "refund: amount: Input should be greater than 0",
        ),
        ({"action": "escalate_to_human"}, "escalate_to_human: missing field 'reason'"),
    ],
    ids=["missing", "extra", "negative", "no-reason"],
)
def test_missing_or_invalid_fields_block_with_the_field_named(proposal, reason):
    verdict = structure_gate(proposal)

    assert verdict == GateVerdict(False, Stage.STRUCTURE, reason)


def test_a_well_formed_command_comes_out_typed():
    structured = structure_gate({"action": "refund", "appointment": "A-1001", "amount": "50.00"})

    assert structured == refund("A-1001", "50.00")


def test_the_menu_knows_the_platform_commands_an_agent_is_never_granted():
    assert NEVER_GRANTED.issubset(MENU)


# --- CAPABILITY --------------------------------------------------------------------------------


def test_known_command_outside_the_grants_is_blocked_by_capability():
    verdict = capability_gate("issue_store_credit", GRANTED)

    assert verdict == GateVerdict(
        False, Stage.CAPABILITY, "issue_store_credit is not in the agent's capabilities"
    )


def test_granted_command_passes_capability():
    assert capability_gate("refund", GRANTED) == APPROVED


# --- POLICY ------------------------------------------------------------------------------------


def test_refund_of_an_appointment_that_does_not_exist_is_blocked():
    verdict = policy_gate(refund("A-9999", "40.00"), RefundFacts(state=None, now=NOW))

    assert verdict == GateVerdict(
        False,
        Stage.POLICY,
        "appointment A-9999 does not exist",
        "I couldn't find that appointment.",
    )


@pytest.mark.parametrize(
    ("amount", "state", "reason"),
    [
        (
            "30.00",
            paid("30.00", refunded="30.00", status=PaymentStatus.REFUNDED),
            "This payment has already been fully refunded.",
        ),
        (
            "120.00",
            paid("120.00", days_ago=45),
            "The refund window of 30 days after the visit has passed.",
        ),
        ("5000.00", paid("75.00"), "5000.00 EUR is more than the 75.00 EUR still refundable."),
        (
            "100.01",
            paid("150.00"),
            "100.01 EUR is more than this business's maximum refund of 100.00 EUR.",
        ),
    ],
    ids=["already-refunded", "outside-window", "above-paid", "above-maximum"],
)
def test_refund_is_judged_by_the_payments_refund_policy(amount, state, reason):
    verdict = policy_gate(refund(amount=amount), RefundFacts(state=state, now=NOW))

    # The refund policy's reasons are plain words: the client reads the same sentence.
    assert verdict == GateVerdict(False, Stage.POLICY, reason, reason)


def test_refund_within_every_rule_passes():
    assert policy_gate(refund(amount="75.00"), RefundFacts(paid(), now=NOW)) == APPROVED


def test_escalation_passes_policy():
    escalation = structure_gate({"action": "escalate_to_human", "reason": "asks for a human"})

    assert isinstance(escalation, Structured)
    assert policy_gate(escalation) == APPROVED


def test_booking_commands_are_not_judged_outside_a_conversation():
    hold = structure_gate({"action": "hold_slot", "service": "cut", "start": "2026-12-01T10:00"})

    assert isinstance(hold, Structured)
    assert policy_gate(hold) == GateVerdict(
        False, Stage.POLICY, "hold_slot is judged inside a conversation, not here"
    )
