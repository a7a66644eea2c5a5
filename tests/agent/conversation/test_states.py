"""The conversation's stages: only the listed moves, and a stage always read off the facts."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.conversation.states import (
    BOOKING,
    MOVES,
    TERMINAL,
    InvalidTransition,
    Snapshot,
    State,
    stage_of,
    transition,
)


@pytest.mark.parametrize(
    ("snapshot", "stage"),
    [
        (Snapshot(), State.GREETING),
        (Snapshot(has_service=True), State.SERVICE_CHOSEN),
        (Snapshot(has_service=True, has_offered=True), State.SLOT_OFFERED),
        (Snapshot(has_service=True, has_offered=True, holds_slot=True), State.SLOT_HELD),
        (
            Snapshot(has_service=True, holds_slot=True, details_complete=True),
            State.DETAILS_COLLECTED,
        ),
        # Details without a hold are not enough: the slot went, so back to choosing a time.
        (Snapshot(has_service=True, has_offered=True, details_complete=True), State.SLOT_OFFERED),
        (Snapshot(has_service=True, appointment_status="pending_payment"), State.AWAITING_PAYMENT),
        (Snapshot(has_service=True, appointment_status="confirmed"), State.CONFIRMED),
        (Snapshot(has_service=True, appointment_status="attended"), State.CONFIRMED),
        (Snapshot(has_service=True, appointment_status="cancelled"), State.CANCELLED),
        # Released for an unpaid deposit: choosing again, not stuck awaiting payment.
        (Snapshot(has_service=True, appointment_status="expired"), State.SERVICE_CHOSEN),
        (Snapshot(has_service=True, holds_slot=True, escalated=True), State.ESCALATED),
        (Snapshot(has_service=True, idle_expired=True), State.EXPIRED),
        # A confirmed booking never "expires" from a quiet chat.
        (Snapshot(appointment_status="confirmed", idle_expired=True), State.CONFIRMED),
    ],
)
def test_stage_of_reads_the_facts(snapshot, stage):
    assert stage_of(snapshot) == stage


def test_booking_stages_move_freely_among_themselves():
    for current in BOOKING:
        for target in BOOKING:
            assert transition(current, target) == target


@pytest.mark.parametrize(
    ("current", "target"),
    [
        (State.GREETING, State.CONFIRMED),  # no booking without the client's Confirm …
        (State.SLOT_HELD, State.CONFIRMED),  # … which needs every detail first
        (State.SLOT_OFFERED, State.AWAITING_PAYMENT),
        (State.CONFIRMED, State.SLOT_HELD),  # a confirmed booking is not un-made by chat
        (State.CANCELLED, State.GREETING),
        (State.ESCALATED, State.SLOT_OFFERED),  # a human has it
        (State.EXPIRED, State.SLOT_HELD),
    ],
)
def test_other_moves_are_refused(current, target):
    with pytest.raises(InvalidTransition, match=f"from {current} to {target}"):
        transition(current, target)


def test_terminal_stages_have_no_way_out():
    for stage in TERMINAL:
        assert MOVES[stage] == frozenset()


def test_confirmation_only_follows_collected_details_or_payment():
    sources = {stage for stage, targets in MOVES.items() if State.CONFIRMED in targets}
    assert sources == {State.DETAILS_COLLECTED, State.AWAITING_PAYMENT}


snapshots = st.builds(
    Snapshot,
    has_service=st.booleans(),
    has_offered=st.booleans(),
    holds_slot=st.booleans(),
    details_complete=st.booleans(),
    appointment_status=st.sampled_from(
        [None, "pending_payment", "confirmed", "cancelled", "expired", "attended", "no_show"]
    ),
    escalated=st.booleans(),
    idle_expired=st.booleans(),
)


@given(snapshots, snapshots)
def test_any_fact_change_is_an_allowed_move_or_a_refusal_never_a_crash(before, after):
    current = stage_of(before)
    target = stage_of(after)
    try:
        assert transition(current, target) == target
    except InvalidTransition:
        assert target not in MOVES[current]


def test_a_person_hands_an_escalated_conversation_back_to_where_its_facts_stand():
    from agent.conversation.states import handed_back

    holding = Snapshot(has_service=True, holds_slot=True, details_complete=True, escalated=True)
    assert handed_back(State.ESCALATED, holding) == State.DETAILS_COLLECTED
    booked = Snapshot(appointment_status="confirmed", escalated=True)
    assert handed_back(State.ESCALATED, booked) == State.CONFIRMED
    with pytest.raises(InvalidTransition):
        handed_back(State.ESCALATED, Snapshot(idle_expired=True, escalated=True))
    with pytest.raises(InvalidTransition):
        handed_back(State.SLOT_HELD, holding)  # only an escalated conversation is handed back
