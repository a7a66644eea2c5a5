"""The backfill (agent 0012) on conversations that began before stage moves were recorded: each
gets the moves its audit entries and appointment still show, marked backfilled, ending on the
stage it holds; running it again adds nothing."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import (
    BusinessStamp,
    Conversation,
    ConversationReach,
    ConversationServiceAsked,
    ConversationStageEvent,
)
from tests.agent.conversation.chat_http import shown_card
from tests.analytics.test_stage_events import STEPS

BEFORE = [("agent", "0010_conversation_escalation_alerted_at")]
RECORDING = [("agent", "0011_conversation_stage_events")]


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def with_todays_columns() -> list:
    """Today's code drives the old conversations, and today's conversation has columns added
    after 0010 (by migrations that do not touch the stage events): they are added here, as
    today's model defines them, for the old conversations to be written — and taken out again
    before migrating forward, which adds them itself."""
    with connection.cursor() as cursor:
        table = connection.introspection.get_table_description(cursor, "agent_conversation")
    present = {column.name for column in table}
    missing = [f for f in Conversation._meta.local_concrete_fields if f.column not in present]
    with connection.schema_editor() as editor:
        for field in missing:
            editor.add_field(Conversation, field)
        # The turn's read of its conversation joins today's read stamps (agent 0020) too.
        if BusinessStamp._meta.db_table not in connection.introspection.table_names():
            editor.create_model(BusinessStamp)
    return missing


def without(fields: list) -> None:
    with connection.schema_editor() as editor:
        for field in fields:
            editor.remove_field(Conversation, field)
        # Taken out with the columns (the forward migration creates it), not after it ran.
        if fields and BusinessStamp._meta.db_table in connection.introspection.table_names():
            editor.delete_model(BusinessStamp)


def moves(conversation) -> list[tuple[str, str, bool]]:
    events = ConversationStageEvent.objects.filter(conversation=conversation).order_by("id")
    return [(event.previous_stage, event.stage, event.backfilled) for event in events]


def take(token: str, *steps, text: str = "…") -> None:
    turn_take(token=token, text=text, model=ScriptedModel([Proposed(tuple(steps))]))


# Migrations run outside a test transaction, as they do in a deployment.
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("frozen_now")
def test_old_conversations_get_the_moves_their_history_shows_once(shop):
    migrate(BEFORE)
    added = with_todays_columns()
    try:
        # Given conversations that ran before their moves were recorded
        quiet, _token, _greeting = conversation_start(business=shop)
        booked, token, _greeting = conversation_start(business=shop)
        take(token, STEPS[0])
        take(token, STEPS[1], STEPS[2])
        take(token, STEPS[3], text="Ana Silva, ana@example.com")
        conversation_confirm(token=token, idempotency_key="k", card=shown_card(token))
        handed, token, _greeting = conversation_start(business=shop)
        take(token, STEPS[0])
        take(token, {"action": "escalate_to_human", "reason": "asked for a person"})
        states = dict(Conversation.objects.values_list("pk", "state"))
        assert states[booked.pk] == "confirmed"

        # When the recording and its backfill are migrated in
        without(added)
        added = []
        migrate(RECORDING)
        assert not ConversationStageEvent.objects.exists()
        migrate(latest())

        # Then each has what can be told of its way, ending where it is
        assert moves(quiet) == [("", "greeting", True)]
        assert moves(booked) == [
            ("", "greeting", True),
            ("greeting", "service_chosen", True),
            ("service_chosen", "slot_offered", True),
            ("slot_offered", "slot_held", True),
            ("slot_held", "details_collected", True),
            ("details_collected", "confirmed", True),
        ]
        assert moves(handed) == [
            ("", "greeting", True),
            ("greeting", "service_chosen", True),
            ("service_chosen", "escalated", True),
        ]
        events = ConversationStageEvent.objects.filter(conversation=booked).order_by("id")
        times = [event.occurred_at for event in events]
        assert times == sorted(times)
        assert {event.business_id for event in events} == {shop.pk}

        # And their reach is summarised from the backfilled events (agent 0014), which were
        # written before the trigger that keeps it existed
        reach = dict(ConversationReach.objects.values_list("conversation_id", "furthest"))
        assert reach == {quiet.pk: 0, booked.pk: 6, handed.pk: 1}
        assert ConversationReach.objects.get(pk=booked.pk).confirmed_at == times[-1]
        assert ConversationServiceAsked.objects.filter(reach_id=booked.pk).count() == 1

        # And running it again adds nothing
        count = ConversationStageEvent.objects.count()
        migrate(RECORDING)
        migrate(latest())
        assert ConversationStageEvent.objects.count() == count
    finally:
        without(added)
        migrate(latest())
