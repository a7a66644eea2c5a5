"""The POLICY gate inside a conversation, judged on plain facts (no database)."""

import datetime as dt

import pytest

from agent.conversation.policy import ConversationFacts, conversation_policy, missing_fields
from agent.gates import Stage, Structured, structure_gate
from tests.agent.conversation.conftest import NOW

FACTS = ConversationFacts(
    now=NOW,
    time_zone="Europe/Lisbon",
    country="PT",
    horizon_days=30,
    services={"7": 7, "haircut": 7},
    service_id=7,
    client_said="Hi, I'm Ana Silva: ana@example.com, 912 345 678",
)
READY = ConversationFacts(**{**FACTS.__dict__, "holds_slot": True, "missing": (), "card": "card-1"})
BOOKED = ConversationFacts(
    **{**FACTS.__dict__, "appointment": "A-1", "appointment_status": "confirmed"}
)
# The client asked, in their own words, to cancel, move or refund.
ASKED = ConversationFacts(**{**BOOKED.__dict__, "asked": frozenset({"cancel", "move", "refund"})})


def judged(raw, facts=FACTS, actor="model"):
    structured = structure_gate(raw)
    assert isinstance(structured, Structured), structured
    return conversation_policy(structured, facts, actor=actor)


def blocks(raw, facts=FACTS, actor="model", reason=""):
    verdict = judged(raw, facts, actor)
    assert not verdict.passed
    assert verdict.stage == Stage.POLICY
    assert reason in verdict.reason
    return verdict


@pytest.mark.parametrize(
    "raw",
    [
        {"action": "choose_service", "service": "Haircut"},
        {"action": "choose_service", "service": "7"},
        {"action": "offer_slots", "service": "haircut"},
        {"action": "offer_slots", "service": "7", "day": "2026-12-02", "from_time": "12:00"},
        {"action": "hold_slot", "service": "7", "start": "2026-12-02T10:00:00+00:00"},
        {"action": "hold_slot", "service": "7", "start": "2026-12-02T10:00"},  # business wall time
        {"action": "collect_contact", "name": "Ana Silva"},
        {"action": "collect_contact", "email": "ana@example.com", "phone": "912 345 678"},
        {"action": "escalate_to_human", "reason": "asked for a person"},
        {"action": "send_message", "text": "Hello"},
    ],
)
def test_what_passes(raw):
    assert judged(raw).passed


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"action": "choose_service", "service": "Massage"}, "no bookable service 'Massage'"),
        ({"action": "offer_slots", "service": "7", "day": "tomorrow"}, "is not a date"),
        ({"action": "offer_slots", "service": "7", "day": "2026-11-29"}, "has passed"),
        ({"action": "offer_slots", "service": "7", "day": "2027-06-01"}, "beyond the booking"),
        ({"action": "offer_slots", "service": "7", "from_time": "noon"}, "is not a time"),
        ({"action": "hold_slot", "service": "7", "start": "Wednesday 10am"}, "not a date and time"),
        ({"action": "hold_slot", "service": "7", "start": "2026-11-29T10:00:00Z"}, "has passed"),
        ({"action": "collect_contact"}, "nothing to collect"),
        ({"action": "collect_contact", "email": "ana(at)example"}, "not an email address"),
        ({"action": "collect_contact", "phone": "12"}, "not a phone number"),
        ({"action": "collect_contact", "name": "12345"}, "is not a name"),
        ({"action": "request_confirmation"}, "no slot is held"),
    ],
)
def test_what_is_blocked_and_why(raw, reason):
    blocks(raw, reason=reason)


def test_confirmation_needs_every_required_detail():
    holding = ConversationFacts(**{**FACTS.__dict__, "holds_slot": True, "missing": ("email",)})
    blocks({"action": "request_confirmation"}, holding, reason="required details missing: email")
    assert judged({"action": "request_confirmation"}, READY).passed


def test_the_model_never_confirms_a_booking_only_the_client_does():
    shown = {"action": "confirm_booking", "card": "card-1"}
    blocks(shown, READY, reason="only the client's Confirm")
    assert judged(shown, READY, actor="client").passed
    blocks(shown, FACTS, actor="client", reason="no slot is held")


def test_a_confirm_books_only_the_booking_as_it_was_shown():
    changed = {"action": "confirm_booking", "card": "card-0"}
    blocks(changed, READY, actor="client", reason="the booking changed since it was shown")
    blocks({"action": "confirm_booking"}, READY, actor="client", reason="changed since")


@pytest.mark.parametrize(
    "raw",
    [
        {"action": "cancel_appointment", "appointment": "A-2"},
        {"action": "reschedule_appointment", "appointment": "A-2", "start": "2026-12-03T10:00Z"},
        {"action": "request_payment", "appointment": "A-2"},
        {"action": "refund", "appointment": "A-2", "amount": "10"},
    ],
)
def test_a_conversation_acts_only_on_its_own_appointment(raw):
    blocks(raw, BOOKED, reason="A-2 is not this conversation's")
    blocks(raw, FACTS, reason="A-2 is not this conversation's")


def test_own_appointment_rules():
    assert judged({"action": "cancel_appointment", "appointment": "A-1"}, ASKED).passed
    move = {"action": "reschedule_appointment", "appointment": "A-1", "start": "2026-12-03T10:00Z"}
    assert judged(move, ASKED).passed
    blocks({"action": "request_payment", "appointment": "A-1"}, BOOKED, reason="awaits no payment")
    cancelled = ConversationFacts(**{**ASKED.__dict__, "appointment_status": "cancelled"})
    blocks({"action": "cancel_appointment", "appointment": "A-1"}, cancelled, reason="no longer")
    blocks(move, cancelled, reason="cannot be moved")
    blocks(
        {"action": "hold_slot", "service": "7", "start": "2026-12-03T10:00Z"},
        BOOKED,
        reason="already has a booking",
    )


def test_missing_fields_are_name_and_email():
    assert missing_fields("", "") == ("name", "email")
    assert missing_fields("Ana", " ") == ("email",)
    assert missing_fields("Ana", "ana@example.com") == ()


def test_a_naive_time_is_the_business_wall_time_even_across_dst():
    summer = ConversationFacts(**{**FACTS.__dict__, "now": dt.datetime(2026, 7, 1, tzinfo=dt.UTC)})
    verdict = judged({"action": "hold_slot", "service": "7", "start": "2026-07-02T10:00"}, summer)
    assert verdict.passed
    from agent.conversation.policy import parse_instant

    assert parse_instant("2026-07-02T10:00", "Europe/Lisbon") == dt.datetime(
        2026, 7, 2, 9, tzinfo=dt.UTC
    )
