"""Start-up checks for what the booking guarantees depend on."""

from django.conf import settings
from django.core import checks

# psycopg's IsolationLevel.READ_COMMITTED is 1; Django passes the option through.
READ_COMMITTED = {None, 1, "read committed"}


@checks.register(checks.Tags.database)
def booking_lock_needs_read_committed(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """The advisory-lock design double-books at REPEATABLE READ or above: a transaction's
    snapshot would predate the lock, so it would not see the booking made just before it."""
    errors: list[checks.CheckMessage] = []
    for alias, database in settings.DATABASES.items():
        if database["ENGINE"] != "django.db.backends.postgresql":
            continue
        level = database.get("OPTIONS", {}).get("isolation_level")
        level = getattr(level, "value", level)
        if level not in READ_COMMITTED:
            errors.append(
                checks.Error(
                    f"Database {alias!r} runs at isolation level {level!r}; bookings need "
                    "READ COMMITTED (the booking lock relies on seeing earlier commits).",
                    id="bookings.E001",
                )
            )
    return errors
