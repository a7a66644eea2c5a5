"""New rows of one model written by one INSERT whose text is built once per model and row
count, giving each row the primary key the database chose.

A turn writes its messages and its audit entries with ``bulk_create``, which builds and
compiles its INSERT anew on every call: about a millisecond of Python a turn, more than the
statements take. This writes exactly what ``bulk_create`` would (which sends no signals and
calls no ``save()`` either): each instance's own values (``auto_now_add`` through ``pre_save``),
prepared by its field, into every concrete column but the automatic key, and the keys read
back in the rows' order (``RETURNING``, as ``bulk_create`` reads them on PostgreSQL).

On another database (SQLite: the demo) the rows go through ``bulk_create`` itself.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import cast

from django.db import connection
from django.db.models import Field, Model


def insert_rows(rows: Sequence[Model]) -> None:
    """Insert ``rows`` (new, all of one model) in one statement; each gets its primary key."""
    if not rows:
        return
    model = type(rows[0])
    if any(type(row) is not model for row in rows):
        raise TypeError("insert_rows writes rows of one model")
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(rows)
        return
    for row in rows:
        # As bulk_create does: a related object saved since it was assigned gives its key.
        row._prepare_related_fields_for_save(operation_name="insert_rows")  # type: ignore[attr-defined]
    sql, fields = _statement(model, len(rows))
    values = [
        field.get_db_prep_save(field.pre_save(row, True), connection)
        for row in rows
        for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        keys = cursor.fetchall()
    for row, (key,) in zip(rows, keys, strict=True):
        row.pk = key
        row._state.adding = False
        row._state.db = connection.alias


@functools.cache
def _statement(model: type[Model], count: int) -> tuple[str, tuple[Field, ...]]:
    meta = model._meta
    if meta.auto_field is None or meta.parents:
        raise TypeError(f"{meta.label}: insert_rows needs an automatic key and no parent model")
    fields = tuple(field for field in meta.concrete_fields if not field.primary_key)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(field)) for field in fields)
    one_row = f"({', '.join(['%s'] * len(fields))})"
    rows = ", ".join([one_row] * count)
    key = quote(_column(meta.auto_field))
    # Names from the model's metadata, quoted; every value is a parameter.
    return (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {rows} RETURNING {key}",  # noqa: S608
        fields,
    )


def _column(field: Field) -> str:
    return cast(str, field.column)  # every concrete field has one; the stubs allow None
