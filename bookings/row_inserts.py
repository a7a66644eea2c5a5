"""Model rows written by one INSERT whose text is built once per model.

``Model.save()`` and ``bulk_create()`` build and compile the same INSERT anew on every call;
on the booking path, where every statement runs under the booking lock while others wait, and
in a chat turn (its messages, its audit entries), that compiling cost more than the statements
themselves. These write exactly what Django would: the instance's own values (defaults set by
its constructor, ``auto_now`` fields through ``pre_save``), each prepared for the database by
its field, into every concrete column.

For plain new rows of models with an automatic primary key and no parent model. A row whose
model has ``pre_save``/``post_save`` receivers goes through ``save()`` instead, so no receiver
is ever skipped. The model's own ``save()`` is not called: a model whose ``save()`` does more
than refuse updates (as the append-only history's does) must not be written here.
"""

import functools
from collections.abc import Sequence
from typing import cast

from django.db import connection
from django.db.models import Field, Model, signals


def insert_row(row: Model) -> None:
    """Insert ``row`` and give it the primary key the database chose."""
    insert_rows([row])


def insert_rows(rows: Sequence[Model]) -> None:
    """Insert ``rows`` (new, all of one model) in one statement; each gets its primary key, read
    back in the rows' order (``RETURNING``, as ``bulk_create`` reads them on PostgreSQL). On
    another database (SQLite: the demo) several rows go through ``bulk_create`` itself."""
    if not rows:
        return
    model = _one_model(rows)
    if _has_receivers(model):
        for row in rows:
            row.save(force_insert=True)
        return
    if len(rows) > 1 and connection.vendor != "postgresql":
        model._default_manager.bulk_create(rows)
        return
    sql, fields = _statement(model, connection.vendor, count=len(rows), ignore_conflicts=False)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in _values(row, fields)])
        keys = cursor.fetchall()
    for row, (key,) in zip(rows, keys, strict=True):
        row.pk = key
        _written(row)


def insert_row_and_child(row: Model, child: Model, *, link: str) -> None:
    """Insert ``row``, then ``child``, whose foreign key ``link`` is to point at it (an
    appointment and the first entry of its history). One statement on PostgreSQL (the child
    takes the key the row's insert returns), two elsewhere; both get their primary keys."""
    models = (type(row), type(child))
    if connection.vendor != "postgresql" or any(map(_has_receivers, models)):
        insert_row(row)
        setattr(child, link, row)
        insert_row(child)
        return
    sql, fields, child_fields = _linked_statement(*models, link)
    with connection.cursor() as cursor:
        cursor.execute(sql, _values(row, fields) + _values(child, child_fields))
        row.pk, child.pk = cursor.fetchone()
    setattr(child, link, row)
    _written(row)
    _written(child)


def insert_rows_ignoring_conflicts(rows: Sequence[Model]) -> None:
    """Insert ``rows`` (all of one model) in one statement; a row that would break a unique
    constraint is skipped, as ``bulk_create(ignore_conflicts=True)`` does. The rows get no
    primary keys back (which were skipped is not known)."""
    if not rows:
        return
    model = _one_model(rows)
    if _has_receivers(model):
        # bulk_create sends no signals either; its cost is only paid where it must be.
        model._default_manager.bulk_create(rows, ignore_conflicts=True)
        return
    sql, fields = _statement(model, connection.vendor, count=len(rows), ignore_conflicts=True)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in _values(row, fields)])


def _one_model(rows: Sequence[Model]) -> type[Model]:
    model = type(rows[0])
    if any(type(row) is not model for row in rows):
        raise TypeError("one statement writes rows of one model")
    return model


def _has_receivers(model: type[Model]) -> bool:
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


def _values(row: Model, fields: tuple[Field, ...]) -> list:
    # As save() and bulk_create do: a related object saved since it was assigned gives its key
    # (and one never saved is refused).
    row._prepare_related_fields_for_save(operation_name="insert")  # type: ignore[attr-defined]
    return [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]


def _written(row: Model) -> None:
    row._state.adding = False
    row._state.db = connection.alias


@functools.cache
def _linked_statement(
    model: type[Model], child_model: type[Model], link: str
) -> tuple[str, tuple[Field, ...], tuple[Field, ...]]:
    # PostgreSQL: a data-modifying WITH, whose RETURNING the child's SELECT reads.
    insert, fields = _statement(model, "postgresql", count=1, ignore_conflicts=False)
    link_field = cast(Field, child_model._meta.get_field(link))
    _, child_fields = _statement(child_model, "postgresql", count=1, ignore_conflicts=False)
    child_fields = tuple(field for field in child_fields if field is not link_field)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(field)) for field in (link_field, *child_fields))
    values = ", ".join(["made.pk", *(["%s"] * len(child_fields))])
    child_table, child_key = child_model._meta.db_table, _key_column(child_model)
    # Names from the models' metadata, quoted; every value is a parameter.
    sql = (
        f"WITH made AS ({insert} AS pk) "  # noqa: S608
        f"INSERT INTO {quote(child_table)} ({columns}) SELECT {values} FROM made "
        f"RETURNING {quote(_column(link_field))}, {quote(child_key)}"
    )
    return sql, fields, child_fields


@functools.cache
def _statement(
    model: type[Model], vendor: str, *, count: int, ignore_conflicts: bool
) -> tuple[str, tuple[Field, ...]]:
    # Cached per model and row count: the columns never change while the process runs.
    meta = model._meta
    if meta.auto_field is None or meta.parents:
        raise TypeError(
            f"{meta.label} needs Model.save(): its key is not automatic or it has a parent"
        )
    fields = tuple(field for field in meta.concrete_fields if not field.primary_key)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(field)) for field in fields)
    one_row = f"({', '.join(['%s'] * len(fields))})"
    rows = ", ".join([one_row] * count)
    # Names from the model's metadata, quoted; every value is a parameter.
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {rows}"  # noqa: S608
    if ignore_conflicts:
        return f"{sql} ON CONFLICT DO NOTHING", fields
    return f"{sql} RETURNING {quote(_key_column(model))}", fields


def _key_column(model: type[Model]) -> str:
    auto_field = model._meta.auto_field
    if auto_field is None:
        raise TypeError(f"{model._meta.label} has no automatic key")
    return _column(auto_field)


def _column(field: Field) -> str:
    # Every concrete field has a column; the stubs allow None for the others.
    return cast(str, field.column)
