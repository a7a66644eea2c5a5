"""Every audit entry reads as a sentence an owner understands: every command of the menu, done
or refused at each gate, in plain words — no command names, no gate names — with money in the
business's currency and times in its zone."""

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest

from agent.actions import MENU
from agent.audit_sentences import Wording, audit_sentence, plain_reason

WORDING = Wording(
    currency="EUR",
    time_zone="Europe/Lisbon",
    service_names={"7": "Haircut", "haircut": "Haircut"},
)


@dataclass(frozen=True)
class Entry:
    action: str
    proposal: Any
    result: str
    stage: str
    reason: str
    money_moved: Decimal = Decimal("0")


# A proposal of each command as a model writes it.
PROPOSALS: dict[str, dict[str, Any]] = {
    "offer_slots": {"service": "haircut", "day": "2026-12-03", "from_time": "09:00"},
    "choose_service": {"service": "7"},
    "hold_slot": {"service": "haircut", "start": "2026-12-03T10:00:00+00:00"},
    "collect_contact": {"name": "Ana", "email": "ana@example.com"},
    "request_confirmation": {},
    "confirm_booking": {"card": "c-1"},
    "request_payment": {"appointment": "A-1001"},
    "choose_appointment": {"appointment": "A-1001"},
    "cancel_appointment": {"appointment": "A-1001"},
    "reschedule_appointment": {"appointment": "A-1001", "start": "2026-12-04T15:00"},
    "refund": {"appointment": "A-1001", "amount": "150.00"},
    "offer_price": {"amount": "45"},
    "escalate_to_human": {"reason": "the client asks about an allergy"},
    "offer_person": {"reason": "the assistant could not read the client's message"},
    "send_message": {"text": "Hello"},
    "change_price": {"product_id": "7", "price": "1.00"},
    "issue_store_credit": {"amount": "500"},
    "mark_paid": {"appointment": "A-1001"},
    "delete_client": {"client": "C-9"},
}

# Each way an entry ends: executed; blocked at each gate (with a reason in the system's own
# terms, as the gates write it); not executed because Stripe did not answer.
RESULTS = [
    ("EXECUTE", "", "approved"),
    ("BLOCK", "STRUCTURE", "{action}: missing field 'service'"),
    ("BLOCK", "CAPABILITY", "{action} is not in the agent's capabilities"),
    ("BLOCK", "POLICY", "{action} is not something a conversation does"),
    ("BLOCK", "", "not executed: Stripe is unavailable (HTTP 503)"),
]

JARGON = re.compile(
    r"_|STRUCTURE|CAPABILITY|POLICY|EXECUTE|BLOCK|\bgates?\b|capabilit|approved|proposal",
    re.IGNORECASE,
)


def test_the_menu_is_covered_by_the_proposals_written_here():
    assert set(PROPOSALS) == set(MENU)


@pytest.mark.parametrize(("result", "stage", "reason"), RESULTS, ids=lambda v: v or "-")
@pytest.mark.parametrize("action", sorted(MENU))
def test_every_command_and_result_reads_as_a_plain_sentence(action, result, stage, reason):
    entry = Entry(
        action, {"action": action, **PROPOSALS[action]}, result, stage, reason.format(action=action)
    )

    sentence = audit_sentence(entry, WORDING)

    assert sentence[:1].isupper(), sentence
    assert not JARGON.search(sentence), sentence
    assert not re.search(r"None|[{}]", sentence), sentence


@pytest.mark.parametrize(
    ("action", "proposal", "stage", "reason"),
    [
        ("", "Sure, booked!", "STRUCTURE", "free text, not a command"),
        (
            "reboot_server",
            {"action": "reboot_server"},
            "STRUCTURE",
            "unknown action: 'reboot_server'",
        ),
        (
            "hold_slot",
            {"action": "hold_slot"},
            "STRUCTURE",
            "more than 6 commands in one turn (3 refused)",
        ),
    ],
)
def test_what_is_no_command_at_all_reads_plainly_too(action, proposal, stage, reason):
    sentence = audit_sentence(Entry(action, proposal, "BLOCK", stage, reason), WORDING)

    assert sentence.startswith("The assistant")
    assert not JARGON.search(sentence), sentence


def test_a_refused_refund_says_how_much_is_left():
    entry = Entry(
        "refund",
        {"action": "refund", "appointment": "A-1001", "amount": "150.00"},
        "BLOCK",
        "POLICY",
        "150.00 EUR is more than the 12.00 EUR still refundable.",
    )

    assert audit_sentence(entry, WORDING) == (
        "The assistant tried to refund €150.00 — refused: only €12.00 is still refundable"
    )


def test_a_hold_names_the_time_in_the_business_zone_and_the_service():
    entry = Entry(
        "hold_slot",
        # 10:00 UTC on Thursday 3 December is 10:00 in Lisbon (no summer time in December).
        {"action": "hold_slot", "service": "7", "start": "2026-12-03T10:00:00+00:00"},
        "EXECUTE",
        "",
        "approved",
    )

    assert audit_sentence(entry, Wording("EUR", "America/New_York", WORDING.service_names)) == (
        "The assistant held Thu 3 Dec 05:00 for Haircut"
    )
    assert audit_sentence(entry, WORDING) == "The assistant held Thu 3 Dec 10:00 for Haircut"


def test_a_refund_that_went_out_and_a_refund_card_read_differently():
    proposal = {"action": "refund", "appointment": "A-1001", "amount": "20.00"}
    prepared = Entry("refund", proposal, "EXECUTE", "", "approved")
    paid_out = Entry("refund", proposal, "EXECUTE", "", "approved", Decimal("20.00"))

    assert audit_sentence(prepared, WORDING) == (
        "The assistant prepared a refund of €20.00 for appointment A-1001, for the client to "
        "confirm"
    )
    assert audit_sentence(paid_out, WORDING) == (
        "The client's refund of €20.00 for appointment A-1001 went out"
    )


def test_a_price_offer_answered_names_the_offer_and_the_counter_in_the_currency():
    entry = Entry(
        "offer_price",
        {"action": "offer_price", "amount": "45"},
        "EXECUTE",
        "",
        "approved: counter at 55.00 (offered 45.00)",
    )

    assert audit_sentence(entry, Wording("USD", "UTC", {})) == (
        "The assistant answered the client's offer of $45.00: countered at $55.00"
    )


def test_the_model_confirming_by_itself_and_the_clients_confirm_refused_differ():
    model = Entry(
        "confirm_booking",
        {"action": "confirm_booking"},
        "BLOCK",
        "POLICY",
        "only the client's Confirm confirms a booking, never the model",
    )
    client = Entry(
        "confirm_booking", {"action": "confirm_booking"}, "BLOCK", "POLICY", "no slot is held"
    )

    assert audit_sentence(model, WORDING).startswith("The assistant tried to confirm")
    assert audit_sentence(client, WORDING) == "The client's Confirm was refused: no slot is held"


# The reasons the policy gate writes (agent/conversation/policy.py, agent/gates.py), as
# recorded: each reads without a command's or a field's name.
POLICY_REASONS = [
    "offer_slots is judged inside a conversation, not here",
    "collect_contact with nothing to collect",
    "from_time '9h' is not a time like 09:30",
    "the client has not asked for this (cancel) in this conversation",
    "start 2026-11-01T10:00:00+00:00 has passed",
    "2026-11-01 has passed",
    "required details missing: name, email",
    "appointment A-1 is not this conversation's",
    "The refund window of 14 days after the visit has passed.",
    "60.00 EUR is more than this business's maximum refund of 50.00 EUR.",
    "offer refused: An offer must be more than 0.",
    "the hold ran out (no slot is held); the time is taken",
]


@pytest.mark.parametrize("reason", POLICY_REASONS)
def test_each_policy_reason_reads_in_plain_words(reason):
    plain = plain_reason(reason, WORDING)

    assert plain, reason
    assert "_" not in plain, plain
    assert not re.search(r"\d{4}-\d{2}-\d{2}", plain), plain  # dates in words
    assert "EUR" not in plain, plain  # money as the business writes it


def test_what_a_model_wrote_inside_a_reason_is_kept_as_written():
    assert plain_reason("'ana_b@x' is not an email address", WORDING) == (
        "'ana_b@x' is not an email address"
    )
