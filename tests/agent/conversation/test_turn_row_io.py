"""The turn's hand-written row reads and writes leave the database exactly as the ORM calls they
replace: a conversation saved with only its changed columns ends as a full save leaves it (a
list changed in place included), and messages and audit entries inserted in one statement get
their own keys, in order, and the values ``bulk_create`` would write."""

import datetime as dt
import re

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from agent.conversation.row_read import PREPARED, conversation_locked_by_hash, save_changed
from agent.conversation.turns import conversation_start, token_hash
from agent.models import Conversation, Message, MessageRole
from bookings.row_inserts import insert_rows

pytestmark = pytest.mark.django_db


def columns(conversation: Conversation) -> dict:
    fresh = Conversation.objects.get(pk=conversation.pk)
    return {f.attname: getattr(fresh, f.attname) for f in Conversation._meta.concrete_fields}


def test_a_conversation_saved_with_its_changed_columns_ends_as_a_full_save_leaves_it(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    later = timezone.now() + dt.timedelta(minutes=1)
    with transaction.atomic():
        conversation = conversation_locked_by_hash(token_hash(token))
        assert conversation is not None
        conversation.turns += 1
        conversation.last_message_at = later
        conversation.asked.append("cancel")  # changed in place, as a turn may
        with CaptureQueriesContext(connection) as captured:
            save_changed(conversation)
    (update,) = [q["sql"] for q in captured if q["sql"].startswith("UPDATE")]
    written = set(re.findall(r'"(\w+)" = ', update.split(" WHERE ")[0]))
    assert written == {"turns", "last_message_at", "asked", "updated_at"}
    stored = columns(conversation)
    assert stored["turns"] == 1
    assert stored["last_message_at"] == later
    assert stored["asked"] == ["cancel"]
    assert stored == {
        f.attname: getattr(conversation, f.attname) for f in Conversation._meta.concrete_fields
    }


def test_a_conversation_not_read_by_hand_is_saved_whole(shop):
    conversation, _token, _greeting = conversation_start(business=shop)
    conversation.name = "Ana"
    with CaptureQueriesContext(connection) as captured:
        save_changed(conversation)
    (update,) = [q["sql"] for q in captured if q["sql"].startswith("UPDATE")]
    assert '"token_hash" =' in update  # every column
    assert Conversation.objects.get(pk=conversation.pk).name == "Ana"


def test_rows_inserted_in_one_statement_get_their_keys_in_order_and_bulk_creates_values(shop):
    conversation, _token, _greeting = conversation_start(business=shop)

    def pair(tag: str) -> list[Message]:
        return [
            Message(conversation=conversation, role=MessageRole.CLIENT, text=f"{tag} asked"),
            Message(
                conversation=conversation,
                role=MessageRole.ASSISTANT,
                text=f"{tag} answered",
                choices={"slots": [{"id": "a", "price": "60.00"}]},
            ),
        ]

    by_hand, by_orm = pair("hand"), pair("orm")
    with CaptureQueriesContext(connection) as captured:
        insert_rows(by_hand)
    Message.objects.bulk_create(by_orm)

    assert len(captured) == 1
    assert by_hand[0].pk < by_hand[1].pk
    for hand, orm in zip(by_hand, by_orm, strict=True):
        stored_hand = Message.objects.get(pk=hand.pk)
        stored_orm = Message.objects.get(pk=orm.pk)
        assert stored_hand.text == hand.text
        assert not hand._state.adding
        for field in ("conversation_id", "role", "author_id", "choices"):
            assert getattr(stored_hand, field) == getattr(stored_orm, field)
        assert stored_hand.created_at == hand.created_at


def test_rows_of_two_models_are_refused():
    with pytest.raises(TypeError):
        insert_rows([Message(), Conversation()])


# --- the read, prepared once per database session --------------------------------------------


def read_statements(token: str) -> list[str]:
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        assert conversation_locked_by_hash(token_hash(token)) is not None
    return [q["sql"] for q in captured if "agent_conversation" in q["sql"]]


@pytest.mark.django_db(transaction=True)
def test_the_read_is_prepared_once_per_session_and_again_after_a_reconnect(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    connection.close()  # a new session, as after a reconnect

    (first,) = read_statements(token)
    (second,) = read_statements(token)
    connection.close()
    (after_reconnect,) = read_statements(token)

    assert first.startswith("PREPARE ")
    assert second.startswith("EXECUTE ")
    assert after_reconnect.startswith("PREPARE ")


def test_a_session_that_lost_the_prepared_read_prepares_it_again_on_the_next_turn(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    read_statements(token)
    connection.cursor().execute(f"DEALLOCATE {PREPARED}")  # as a session reset would

    with pytest.raises(DatabaseError), transaction.atomic():
        conversation_locked_by_hash(token_hash(token))
    (again,) = read_statements(token)

    assert again.startswith("PREPARE ")
