"""The turn's first statement, written by hand: lock the conversation row and read it whole —
with its business, chosen service, appointment and subject, and the business's read stamp
(agent.stable_reads) — in one parameterised statement.

It returns exactly what ``Conversation.objects.select_for_update(skip_locked=True, of=("self",))
.select_related("business", "service", "appointment", "subject")`` would (the same instances,
converted by the same database converters, with the same related caches), without compiling
that queryset on every turn: the ORM spent about 3 ms of Python building it, ten times the
statement's own time. The SQL is built once per database vendor from the models' own fields,
so a column added to any of the five models is read with no change here.

On a database without ``FOR UPDATE ... SKIP LOCKED`` (SQLite: the single-process demo, where
Django's ``select_for_update`` locks nothing either) the same statement is sent without the
locking clause; writers there are serialised by the database itself.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import (
    Field,
    ForeignKey,
    ForeignObjectRel,
    JSONField,
    Model,
    OneToOneField,
)

from agent.models import BusinessStamp, Conversation
from bookings.models import Appointment, Business, Service

# (alias, model, the Conversation field it hangs from; None for the conversation itself).
_JOINED: tuple[tuple[str, type[Model], str | None], ...] = (
    ("c", Conversation, None),
    ("b", Business, "business"),
    ("s", Service, "service"),
    ("a", Appointment, "appointment"),
    ("j", Appointment, "subject"),
)

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Part:
    model: type[Model]
    relation: str | None
    attnames: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Converter, ...], Any], ...]  # (column index, chain, col)
    width: int
    pk_index: int


@dataclass(frozen=True)
class _Statement:
    sql: str
    parts: tuple[_Part, ...]


_statements: dict[tuple[str, bool], _Statement] = {}


def _statement(locking: bool) -> _Statement:
    key = (connection.vendor, locking)
    built = _statements.get(key)
    if built is None:
        built = _statements[key] = _build(locking)
    return built


def _relation(name: str) -> ForeignKey:
    field = Conversation._meta.get_field(name)
    assert isinstance(field, ForeignKey)  # a OneToOneField is one too
    return field


def _column(field: Field | ForeignObjectRel) -> str:
    assert isinstance(field, Field)
    assert field.column is not None
    return connection.ops.quote_name(field.column)


def _build(locking: bool) -> _Statement:
    quote = connection.ops.quote_name
    columns: list[str] = []
    parts: list[_Part] = []
    joins: list[str] = []
    for alias, model, relation in _JOINED:
        fields = list(model._meta.concrete_fields)
        converters = []
        for index, field in enumerate(fields):
            col = field.get_col(alias)
            chain = (*connection.ops.get_db_converters(col), *field.get_db_converters(connection))
            if chain:
                converters.append((index, tuple(chain), col))
            columns.append(f"{alias}.{_column(field)}")
        parts.append(
            _Part(
                model=model,
                relation=relation,
                attnames=tuple(field.attname for field in fields),
                converters=tuple(converters),
                width=len(fields),
                pk_index=fields.index(model._meta.pk),
            )
        )
        if relation is not None:
            foreign = _relation(relation)
            kind = "LEFT OUTER JOIN" if foreign.null else "INNER JOIN"
            joins.append(
                f"{kind} {quote(model._meta.db_table)} {alias}"
                f" ON {alias}.{_column(model._meta.pk)} = c.{_column(foreign)}"
            )
    stamp = BusinessStamp._meta
    columns.append(f"t.{_column(stamp.get_field('version'))}")
    joins.append(
        f"LEFT OUTER JOIN {quote(stamp.db_table)} t"
        f" ON t.{_column(stamp.pk)} = c.{_column(_relation('business'))}"
    )
    token_column = _column(Conversation._meta.get_field("token_hash"))
    # Names only from the models' own metadata, quoted; the token's hash is a parameter.
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(Conversation._meta.db_table)} c "  # noqa: S608
        f"{' '.join(joins)} WHERE c.{token_column} = %s"
    )
    if locking:
        # Only the conversation's row: the joined rows are read, not locked (``of=("self",)``).
        sql += " FOR UPDATE OF c SKIP LOCKED"
    return _Statement(sql=sql, parts=tuple(parts))


def locking_supported() -> bool:
    features = connection.features
    return bool(features.has_select_for_update_skip_locked and features.has_select_for_update_of)


def conversation_locked_by_hash(token_hash: str) -> Conversation | None:
    """The conversation of ``token_hash`` with its related rows, its row locked for this
    transaction (where the database locks rows); None when there is no such conversation or
    another transaction holds its row (SKIP LOCKED: nothing is waited for here). The business
    carries its read stamp as ``read_stamp`` (None when its rows were never stamped)."""
    statement = _statement(locking_supported())
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            row = _prepared_row(cursor, statement, token_hash)
        else:
            cursor.execute(statement.sql, [token_hash])
            row = cursor.fetchone()
    if row is None:
        return None
    return _instances(statement, list(row))


# PostgreSQL plans the five-table join anew for every statement sent as text: about 0.4 ms of
# the statement's 0.6 (more on a busy server). Prepared once per session, it is planned once.
# The session is the database connection: a new one (a reconnect) prepares again. This needs a
# session of the connection's own, as the conversation claims' advisory locks already do (a
# pooler in transaction mode would break both).
PREPARED = "agent_conversation_locked"


def _prepared_row(cursor: Any, statement: _Statement, token_hash: str) -> tuple[Any, ...] | None:
    session = connection.connection
    if getattr(connection, "_conversation_read_prepared_on", None) is session:
        sql = f"EXECUTE {PREPARED}(%s)"
    else:
        # Prepared and executed in one round trip (two statements in one query text); marked
        # first, since a PREPARE outlives a rollback of its transaction.
        connection._conversation_read_prepared_on = session  # type: ignore[attr-defined]
        sql = (
            f"PREPARE {PREPARED}(text) AS {statement.sql.replace('%s', '$1')}; "
            f"EXECUTE {PREPARED}(%s)"
        )
    try:
        cursor.execute(sql, [token_hash])
    except DatabaseError as error:
        if getattr(error.__cause__, "sqlstate", None) == PREPARED_STATEMENT_MISSING:
            # The session lost it (reset by something else): the next transaction prepares.
            connection._conversation_read_prepared_on = None  # type: ignore[attr-defined]
        raise
    if cursor.description is None:  # the PREPARE's own result: the row is in the next
        cursor.nextset()
    return cursor.fetchone()


PREPARED_STATEMENT_MISSING = "26000"


def language_by_hash(token_hash: str) -> str | None:
    """The language of the conversation of ``token_hash``, None when there is none: the API
    words its answers in it before the turn runs (a statement this small costs less written
    by hand than the queryset costs to compile)."""
    meta = Conversation._meta
    language = _column(meta.get_field("language"))
    hashed = _column(meta.get_field("token_hash"))
    table = connection.ops.quote_name(meta.db_table)
    sql = f"SELECT {language} FROM {table} WHERE {hashed} = %s"  # noqa: S608 - the model's names
    with connection.cursor() as cursor:
        cursor.execute(sql, [token_hash])
        row = cursor.fetchone()
    return None if row is None else row[0]


def _instances(statement: _Statement, row: list[Any]) -> Conversation:
    db = connection.alias
    found: dict[str | None, Model | None] = {}
    start = 0
    for part in statement.parts:
        values = row[start : start + part.width]
        start += part.width
        for index, chain, col in part.converters:
            value = values[index]
            for converter in chain:
                value = converter(value, col, connection)
            values[index] = value
        # A LEFT JOIN that found nothing: all its columns are NULL, its primary key too.
        found[part.relation] = (
            None if values[part.pk_index] is None else part.model.from_db(db, part.attnames, values)
        )
    conversation = found.pop(None)
    assert isinstance(conversation, Conversation)
    for relation, related in found.items():
        assert relation is not None
        field = _relation(relation)
        field.set_cached_value(conversation, related)
        if related is not None and isinstance(field, OneToOneField):
            # As select_related does: the appointment knows its conversation.
            field.remote_field.set_cached_value(related, conversation)
    business = conversation.business
    business.read_stamp = row[start]  # type: ignore[attr-defined]
    _remember_as_read(conversation)
    return conversation


# The conversation's columns, for comparing what a turn changed; JSON values are copied (a turn
# may change a list in place).
_CONVERSATION_FIELDS = tuple(
    (field.name, field.attname, isinstance(field, JSONField))
    for field in Conversation._meta.concrete_fields
    if not field.primary_key
)


def _remember_as_read(conversation: Conversation) -> None:
    as_read = {}
    for _name, attname, is_json in _CONVERSATION_FIELDS:
        value = getattr(conversation, attname)
        as_read[attname] = copy.deepcopy(value) if is_json else value
    conversation._as_read = as_read  # type: ignore[attr-defined]


def save_changed(conversation: Conversation) -> None:
    """Save the conversation, writing only the columns changed since it was read here (and
    ``updated_at``, which every save moves): the row is locked by this transaction, so the
    columns left out are as read, and the row ends exactly as a full save would leave it.
    A conversation not read here is saved whole."""
    as_read = getattr(conversation, "_as_read", None)
    if as_read is None:
        conversation.save()
        return
    changed = [
        name
        for name, attname, _json in _CONVERSATION_FIELDS
        if getattr(conversation, attname) != as_read[attname]
    ]
    conversation.save(update_fields=[*changed, "updated_at"])
    _remember_as_read(conversation)
