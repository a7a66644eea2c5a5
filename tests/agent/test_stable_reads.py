"""What a turn keeps in its process (agent.stable_reads) is only ever what the database holds.

The cache is keyed by the business's read stamp, which database triggers move on every write
to a cached table (agent/migrations/0020_business_stamp.py). So: every kind of write to every
cached table moves the stamp (insert, save, QuerySet.update, bulk_update, bulk_create, delete,
QuerySet.delete, raw SQL, a row moved to another business); every cached model's table carries
the trigger, and the cache reads no other table; a turn after any such write sees it; and a
turn whose stamp did not move reads none of those tables again.
"""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from agent import stable_reads
from agent.actions import DEFAULT_GRANTS
from agent.conversation import facts
from agent.conversation.row_read import conversation_locked_by_hash
from agent.conversation.turns import conversation_start, token_hash, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import AgentGrant, BusinessStamp, Conversation
from agent.offline.model import OfflineModel
from agent.services import granted_actions, grants_set
from bookings.models import Business, OpeningHours, Service, TermsSource
from bookings.selectors import negotiation_enabled
from knowledge.models import KnowledgeSource, SourceStatus
from tests.factories import BusinessFactory, OpeningHoursFactory, ServiceFactory

pytestmark = pytest.mark.django_db

GRANT = sorted(DEFAULT_GRANTS)[0]


def unsaved_row(model, business: Business, n: int = 0):
    """One row of a cached model, of ``business``, not saved yet."""
    if model is Service:
        return ServiceFactory.build(business=business)
    if model is OpeningHours:
        return OpeningHoursFactory.build(business=business, weekday=n % 7)
    if model is AgentGrant:
        return AgentGrant(business=business, action=sorted(DEFAULT_GRANTS)[n])
    if model is KnowledgeSource:
        return KnowledgeSource(
            business=business,
            title=f"Note {n}",
            body="Free parking behind the salon.",
            text="Free parking behind the salon.",
            status=SourceStatus.READY,
        )
    raise AssertionError(f"no row for {model}: a cached model needs one here")


def new_row(model, business: Business, n: int = 0):
    row = unsaved_row(model, business, n)
    row.save()
    return row


def bare_business(**fields) -> Business:
    """A business with no rows in the cached tables (a new one is granted the defaults)."""
    business = BusinessFactory(**fields)
    AgentGrant.objects.filter(business=business).delete()
    return business


def stamp_of(business: Business) -> int | None:
    return (
        BusinessStamp.objects.filter(business_id=business.pk)
        .values_list("version", flat=True)
        .first()
    )


def raw(sql: str, *params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _insert(model, row, other):
    new_row(model, row.business, 1)


def _save(model, row, other):
    row.save()


def _queryset_update(model, row, other):
    model.objects.filter(pk=row.pk).update(updated_at=timezone.now())


def _bulk_update(model, row, other):
    row.updated_at = timezone.now()
    model.objects.bulk_update([row], ["updated_at"])


def _bulk_create(model, row, other):
    model.objects.bulk_create([unsaved_row(model, row.business, 2)])


def _delete(model, row, other):
    row.delete()


def _queryset_delete(model, row, other):
    model.objects.filter(pk=row.pk).delete()


def _raw_update(model, row, other):
    raw(f"UPDATE {model._meta.db_table} SET updated_at = updated_at WHERE id = %s", row.pk)  # noqa: S608


def _raw_delete(model, row, other):
    raw(f"DELETE FROM {model._meta.db_table} WHERE id = %s", row.pk)  # noqa: S608


def _moved(model, row, other):
    model.objects.filter(pk=row.pk).update(business=other)


WRITES = {
    "insert": _insert,
    "save": _save,
    "QuerySet.update": _queryset_update,
    "bulk_update": _bulk_update,
    "bulk_create": _bulk_create,
    "delete": _delete,
    "QuerySet.delete": _queryset_delete,
    "raw SQL update": _raw_update,
    "raw SQL delete": _raw_delete,
    "moved to another business": _moved,
}


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("model", stable_reads.CACHED_MODELS, ids=lambda m: m.__name__)
def test_every_kind_of_write_to_a_cached_table_moves_its_business_stamp(model, write):
    business, other = bare_business(), bare_business()
    row = new_row(model, business)
    before, other_before = stamp_of(business), stamp_of(other)
    assert before is not None

    WRITES[write](model, row, other)

    assert stamp_of(business) not in (None, before)
    if write == "moved to another business":
        assert stamp_of(other) not in (None, other_before)


def test_every_cached_model_has_a_row_builder_here():
    """A model added to the cache is added to the write matrix above (new_row fails loudly)."""
    business = bare_business()
    for n, model in enumerate(stable_reads.CACHED_MODELS):
        assert isinstance(new_row(model, business, n), model)


def test_every_cached_table_carries_the_stamp_trigger():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgrelid::regclass::text FROM pg_trigger "
            "WHERE tgfoid = 'agent_businessstamp_bump'::regproc AND NOT tgisinternal"
        )
        stamped = {table for (table,) in cursor.fetchall()}
    cached = {model._meta.db_table for model in stable_reads.CACHED_MODELS}
    assert cached <= stamped, cached - stamped


TABLE = re.compile(r'\b(?:FROM|JOIN)\s+"?(\w+)"?', re.IGNORECASE)


def test_the_cache_reads_no_table_but_the_stamped_ones():
    business = bare_business()
    for n, model in enumerate(stable_reads.CACHED_MODELS):
        new_row(model, business, n)
    business.read_stamp = stamp_of(business)
    stable_reads.forget_all()
    with CaptureQueriesContext(connection) as captured:
        stable_reads.active_services(business)
        stable_reads.weekly_hours(business)
        stable_reads.stored_grants(business, frozenset())
        facts.knowledge_of(business)
    read = {table for query in captured for table in TABLE.findall(query["sql"])}
    assert read == {model._meta.db_table for model in stable_reads.CACHED_MODELS}


# --- turns ------------------------------------------------------------------------------------


@pytest.fixture
def shop():
    business = BusinessFactory(country="PT")
    for weekday in range(7):
        OpeningHoursFactory(
            business=business, weekday=weekday, opens_at=dt.time(9), closes_at=dt.time(19)
        )
    ServiceFactory(business=business, name="Haircut")
    grants_set(business=business)
    new_row(KnowledgeSource, business)
    return business


CACHED_TABLES = tuple(model._meta.db_table for model in stable_reads.CACHED_MODELS)


def tables_read(token: str, text: str, model=None) -> set[str]:
    with CaptureQueriesContext(connection) as captured:
        turn_take(token=token, text=text, model=model or OfflineModel())
    # The conversation's own read joins its chosen service: that row is read every turn.
    return {
        table
        for query in captured
        if query["sql"].lstrip().upper().startswith(("SELECT", "("))
        and 'FROM "agent_conversation"' not in query["sql"]
        for table in TABLE.findall(query["sql"])
        if table in CACHED_TABLES
    }


def test_a_turn_reads_the_stable_rows_again_only_when_their_stamp_moved(shop):
    stable_reads.forget_all()
    _conversation, token, _greeting = conversation_start(business=shop)
    question = "Is there parking near the salon?"
    model = ScriptedModel([Proposed(reply="")] * 3)  # it reads the menu: the grants

    assert tables_read(token, question, model) == set(CACHED_TABLES)
    assert tables_read(token, question, model) == set()
    Service.objects.filter(business=shop).update(description="Now with a wash")
    assert tables_read(token, question, model) == set(CACHED_TABLES)


@pytest.mark.parametrize("write", ["QuerySet.update", "raw SQL"])
def test_the_next_turn_sees_a_service_changed_by_any_writer(shop, write):
    _conversation, token, _greeting = conversation_start(business=shop)
    model = ScriptedModel([Proposed(reply="")] * 2)
    turn_take(token=token, text="hello", model=model)
    if write == "raw SQL":
        raw("UPDATE bookings_service SET name = %s WHERE business_id = %s", "Fringe", shop.pk)
    else:
        Service.objects.filter(business=shop).update(name="Fringe")
    turn_take(token=token, text="hello again", model=model)
    before, after = model.contexts
    assert [s.name for s in before.services] == ["Haircut"]
    assert [s.name for s in after.services] == ["Fringe"]


def test_the_next_turn_sees_knowledge_refreshed_and_grants_taken_away(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    model = ScriptedModel([Proposed(reply="")] * 2)
    turn_take(token=token, text="Where can I park?", model=model)
    KnowledgeSource.objects.filter(business=shop).update(text="Parking at the back.")
    grants_set(business=shop, actions=frozenset({GRANT}))
    turn_take(token=token, text="Where can I park?", model=model)
    before, after = model.contexts
    assert "Free parking" in before.knowledge
    assert after.knowledge.endswith("Parking at the back.")
    assert set(after.actions) == {GRANT}


def test_the_knowledge_budget_is_part_of_what_is_kept(shop, settings):
    business = Business.objects.get(pk=shop.pk)
    business.read_stamp = stamp_of(shop)
    whole = facts.knowledge_of(business)
    settings.KNOWLEDGE_BUDGET_CHARS = 10
    assert len(facts.knowledge_of(business)) < len(whole)


@pytest.mark.parametrize("business_negotiates", [True, False])
@pytest.mark.parametrize("terms", TermsSource.values)
@pytest.mark.parametrize("service_negotiates", [True, False])
@pytest.mark.parametrize("active", [True, False])
def test_the_cached_negotiation_switch_is_the_selectors(
    business_negotiates, terms, service_negotiates, active
):
    business = BusinessFactory(negotiable=business_negotiates)
    ServiceFactory(
        business=business,
        negotiation_terms=terms,
        negotiable=service_negotiates,
        is_active=active,
    )
    read = Business.objects.get(pk=business.pk)
    read.read_stamp = stamp_of(business)
    assert stable_reads.negotiates(read) == negotiation_enabled(business)
    assert granted_actions(business=read) == granted_actions(business=business)


def test_the_cache_keeps_a_bounded_number_of_businesses(monkeypatch):
    monkeypatch.setattr(stable_reads, "MAX_BUSINESSES", 3)
    stable_reads.forget_all()
    for pk in range(1, 6):
        business = Business(pk=pk)
        business.read_stamp = 7
        stable_reads.kept(business, "anything", lambda: ())
    assert stable_reads.cached_businesses() == 3


def test_a_business_not_read_with_its_stamp_is_read_from_the_database_every_time(shop):
    business = Business.objects.get(pk=shop.pk)  # no read_stamp: not through the turn's read
    for _ in range(2):
        with CaptureQueriesContext(connection) as captured:
            stable_reads.weekly_hours(business)
        assert len(captured) == 1


# --- the hand-written lock-and-read -----------------------------------------------------------


def test_the_locked_read_gives_what_the_orm_would(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    turn_take(token=token, text="Haircut please, tomorrow at 10, Ana Silva ana@example.com")
    hashed = token_hash(token)
    related = ("business", "service", "appointment", "subject")
    by_orm = Conversation.objects.select_related(*related).get(token_hash=hashed)
    by_hand = conversation_locked_by_hash(hashed)

    def values(instance):
        if instance is None:
            return None
        return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}

    assert by_hand is not None
    assert values(by_hand) == values(by_orm)
    for name in related:
        assert values(getattr(by_hand, name)) == values(getattr(by_orm, name))
    assert by_hand.business.read_stamp == stamp_of(shop)
    assert conversation_locked_by_hash(token_hash("no such token")) is None
