"""What every PostgreSQL connection of Ordina's is opened with."""

from django.db import connection


def test_just_in_time_compilation_is_off(db):
    """The server's default is on; a short dashboard query the planner thinks large spent
    ~0.4 s compiling (docs/decisions/0012)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)
