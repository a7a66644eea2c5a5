"""How far each conversation got (its reach) and the services it asked about are kept by the
database from the stage events (agent/migrations/0014): whatever path a conversation takes —
back and forth, escalated and handed back, cancelled after a confirmation, its service changed
— its summary always says what its events say."""

import datetime as dt
import random

import pytest
from django.db import connection

from agent.conversation.stage_backfill import STEP_RANK
from agent.conversation.states import State
from agent.conversation.turns import conversation_start
from agent.models import (
    Conversation,
    ConversationReach,
    ConversationServiceAsked,
    ConversationStageEvent,
)
from tests.factories import ServiceFactory

pytestmark = pytest.mark.usefixtures("frozen_now")


def what_the_events_say(conversation) -> tuple:
    """The summary recomputed from the conversation's events, in Python."""
    events = list(ConversationStageEvent.objects.filter(conversation=conversation))
    starts = [event.occurred_at for event in events if event.previous_stage == ""]
    confirmations = [event.occurred_at for event in events if event.stage == State.CONFIRMED]
    furthest = max(STEP_RANK.get(State(event.stage), -1) for event in events)
    services = {event.service_id for event in events if event.service_id is not None}
    return (
        min(starts, default=None),
        furthest,
        min(confirmations, default=None),
        services,
    )


def kept(conversation) -> tuple:
    reach = ConversationReach.objects.get(conversation=conversation)
    asked = ConversationServiceAsked.objects.filter(reach=reach)
    services = set(asked.values_list("service_id", flat=True))
    # Each service asked carries the conversation's business and start, as its reach has them.
    assert reach.business_id == conversation.business_id
    assert {(row.business_id, row.started_at) for row in asked} <= {
        (reach.business_id, reach.started_at)
    }
    return (reach.started_at, reach.furthest, reach.confirmed_at, services)


def move(conversation, state: str, at: dt.datetime, service=None) -> None:
    """A change of stage as any writer makes it: one UPDATE of the row."""
    Conversation.objects.filter(pk=conversation.pk).update(
        state=state, updated_at=at, service=service
    )


def test_a_conversation_that_goes_back_and_forth_keeps_its_furthest_step_and_first_confirmation(
    salon, haircut
):
    colour = ServiceFactory(business=salon, name="Colour")
    conversation, _token, _greeting = conversation_start(business=salon)
    began = ConversationStageEvent.objects.get(conversation=conversation).occurred_at
    at = [began + dt.timedelta(minutes=minutes) for minutes in range(1, 9)]
    move(conversation, "service_chosen", at[0], haircut)
    move(conversation, "slot_held", at[1], haircut)
    move(conversation, "escalated", at[2], haircut)
    move(conversation, "greeting", at[3])
    move(conversation, "service_chosen", at[4], colour)
    move(conversation, "confirmed", at[5], colour)
    move(conversation, "cancelled", at[6], colour)
    move(conversation, "confirmed", at[7], colour)

    assert kept(conversation) == (began, STEP_RANK[State.CONFIRMED], at[5], {haircut.pk, colour.pk})
    assert kept(conversation) == what_the_events_say(conversation)


def test_a_conversation_that_never_booked_has_no_confirmation(salon, haircut):
    conversation, _token, _greeting = conversation_start(business=salon)
    assert kept(conversation)[1:] == (0, None, set())
    move(conversation, "slot_offered", conversation.created_at, haircut)
    move(conversation, "expired", conversation.created_at)
    assert kept(conversation)[1:] == (STEP_RANK[State.SLOT_OFFERED], None, {haircut.pk})


def test_every_random_path_is_summarised_as_its_events_say(salon, haircut):
    services = [None, haircut, ServiceFactory(business=salon, name="Colour")]
    states = [state.value for state in State]
    draw = random.Random(14)
    for _ in range(12):
        conversation, _token, _greeting = conversation_start(business=salon)
        at = conversation.created_at
        for _ in range(draw.randint(0, 9)):
            at += dt.timedelta(minutes=draw.randint(0, 30))
            move(conversation, draw.choice(states), at, draw.choice(services))
        assert kept(conversation) == what_the_events_say(conversation)


def test_the_summary_is_written_by_the_database_for_any_insert_of_an_event(salon, haircut):
    """Not by the application: an event inserted by raw SQL moves the summary too."""
    conversation, _token, _greeting = conversation_start(business=salon)
    later = conversation.created_at + dt.timedelta(hours=1)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO agent_conversationstageevent (conversation_id, business_id, service_id,"
            " stage, previous_stage, occurred_at, backfilled)"
            " VALUES (%s, %s, %s, 'confirmed', 'greeting', %s, true)",
            [conversation.pk, salon.pk, haircut.pk, later],
        )
    assert kept(conversation) == (
        conversation.created_at,
        STEP_RANK[State.CONFIRMED],
        later,
        {haircut.pk},
    )

    # And a start told later than the moves (as a backfill may) moves the start of both
    earlier = conversation.created_at - dt.timedelta(days=1)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO agent_conversationstageevent (conversation_id, business_id, service_id,"
            " stage, previous_stage, occurred_at, backfilled)"
            " VALUES (%s, %s, NULL, 'greeting', '', %s, true)",
            [conversation.pk, salon.pk, earlier],
        )
    assert kept(conversation)[0] == earlier


def test_the_databases_ranks_are_the_funnels_steps(db):
    """The migration writes the steps out (a migration keeps its meaning); they must agree."""
    with connection.cursor() as cursor:
        for state in State:
            cursor.execute("SELECT agent_reach_rank(%s)", [state.value])
            assert cursor.fetchone()[0] == STEP_RANK.get(state, -1), state
