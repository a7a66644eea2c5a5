"""Make the agent's audit log append-only in the database itself, for every writer (raw SQL,
other services), not only for the Django model. PostgreSQL and SQLite each get their own
trigger, as bookings/migrations/0002 does for appointment history."""

from django.db import migrations

TABLE = "agent_auditentry"
MESSAGE = "agent audit log is append-only"

POSTGRES_UP = f"""
CREATE FUNCTION agent_refuse_audit_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER agent_audit_append_only
    BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION agent_refuse_audit_change();
"""
POSTGRES_DOWN = f"""
DROP TRIGGER IF EXISTS agent_audit_append_only ON {TABLE};
DROP FUNCTION IF EXISTS agent_refuse_audit_change();
"""
SQLITE_UP = [
    f"""CREATE TRIGGER agent_audit_no_update BEFORE UPDATE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;""",
    f"""CREATE TRIGGER agent_audit_no_delete BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS agent_audit_no_update;",
    "DROP TRIGGER IF EXISTS agent_audit_no_delete;",
]


def _run(schema_editor, statements) -> None:
    for statement in statements:
        schema_editor.execute(statement)


def install(apps, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, [POSTGRES_UP])
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_UP)


def remove(apps, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, [POSTGRES_DOWN])
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_DOWN)


class Migration(migrations.Migration):
    dependencies = [("agent", "0001_initial")]
    operations = [migrations.RunPython(install, remove)]
