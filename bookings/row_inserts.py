"""Model rows written by one INSERT whose text is built once per model.

``Model.save()`` and ``bulk_create()`` build and compile the same INSERT anew on every call;
on the booking path, where every statement runs under the booking lock while others wait,
that compiling cost more than the statements themselves. These write exactly what Django
would: the instance's own values (defaults set by its constructor, ``auto_now`` fields through
``pre_save``), each prepared for the database by its field, into every concrete column.

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
    if _has_receivers(type(row)):
        row.save(force_insert=True)
        return
    sql, fields = _statement(type(row), connection.vendor, count=1, ignore_conflicts=False)
    with connection.cursor() as cursor:
        cursor.execute(sql, _values(row, fields))
        (row.pk,) = cursor.fetchone()
    _written(row)


def insert_rows_ignoring_conflicts(rows: Sequence[Model]) -> None:
    """Insert ``rows`` (all of one model) in one statement; a row that would break a unique
    constraint is skipped, as ``bulk_create(ignore_conflicts=True)`` does. The rows get no
    primary keys back (which were skipped is not known)."""
    if not rows:
        return
    model = type(rows[0])
    if any(type(row) is not model for row in rows):
        raise TypeError("insert_rows_ignoring_conflicts writes rows of one model")
    if _has_receivers(model):
        # bulk_create sends no signals either; its cost is only paid where it must be.
        model._default_manager.bulk_create(rows, ignore_conflicts=True)
        return
    sql, fields = _statement(model, connection.vendor, count=len(rows), ignore_conflicts=True)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in _values(row, fields)])


def _has_receivers(model: type[Model]) -> bool:
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


def _values(row: Model, fields: tuple[Field, ...]) -> list:
    return [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]


def _written(row: Model) -> None:
    row._state.adding = False
    row._state.db = connection.alias


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
    return f"{sql} RETURNING {quote(_column(meta.auto_field))}", fields


def _column(field: Field) -> str:
    # Every concrete field has a column; the stubs allow None for the others.
    return cast(str, field.column)
