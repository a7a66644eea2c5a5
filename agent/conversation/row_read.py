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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Field, ForeignKey, ForeignObjectRel, Model, OneToOneField

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
        cursor.execute(statement.sql, [token_hash])
        row = cursor.fetchone()
    if row is None:
        return None
    return _instances(statement, list(row))


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
    return conversation
