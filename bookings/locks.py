"""The booking lock: one transaction-scoped PostgreSQL advisory lock per (business, day).

Taken at READ COMMITTED, so that after the lock is granted every later statement sees what the
previous holder committed (at REPEATABLE READ the snapshot predates the lock and two writers
both see room). On SQLite the IMMEDIATE write transaction already serialises writers.
"""

import datetime as dt
from collections.abc import Iterable

from django.db import connection

DAY_BITS = 24  # date ordinals stay below 2**24 until the year 45,000


def lock_key(business_id: int, day: dt.date) -> int:
    """One signed 64-bit key per (business, day)."""
    return (business_id << DAY_BITS) | day.toordinal()


def lock_booking_days(business_id: int, days: Iterable[dt.date]) -> None:
    """Block until this transaction holds the lock of every day, taken in date order so two
    bookings that span the same two days cannot deadlock."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for day in sorted(set(days)):
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_key(business_id, day)])
