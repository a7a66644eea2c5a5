"""Append-only tables, held by the database itself: a trigger refuses UPDATE and DELETE from
any writer (raw SQL, another service), not only through the Django model. Used by the
migrations of appointment history and of the agent's audit log."""

from django.db import migrations


def append_only(table: str, *, name: str, message: str) -> migrations.RunPython:
    """A migration operation installing (and on reverse, removing) the refusing triggers on
    ``table`` for PostgreSQL and SQLite; ``name`` prefixes the database objects it creates."""
    postgres_up = f"""
CREATE FUNCTION {name}_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{message}' USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {name}_append_only
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {name}_refuse_change();
"""
    postgres_down = f"""
DROP TRIGGER IF EXISTS {name}_append_only ON {table};
DROP FUNCTION IF EXISTS {name}_refuse_change();
"""
    sqlite_up = [
        f"CREATE TRIGGER {name}_no_{verb} BEFORE {verb.upper()} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{message}'); END;"
        for verb in ("update", "delete")
    ]
    sqlite_down = [f"DROP TRIGGER IF EXISTS {name}_no_{verb};" for verb in ("update", "delete")]
    statements = {
        "postgresql": ([postgres_up], [postgres_down]),
        "sqlite": (sqlite_up, sqlite_down),
    }

    def run(schema_editor, direction: int) -> None:
        for statement in statements.get(schema_editor.connection.vendor, ([], []))[direction]:
            schema_editor.execute(statement)

    return migrations.RunPython(
        lambda apps, schema_editor: run(schema_editor, 0),
        lambda apps, schema_editor: run(schema_editor, 1),
    )
