"""A business's read stamp (agent.models.BusinessStamp), moved by the database itself.

Triggers on every table whose rows a turn keeps in its process cache (agent.stable_reads) give
the row's business a new stamp on each insert, update (both businesses, when a row moves) and
delete, and every business a new one on a TRUNCATE (PostgreSQL): whoever writes — the admin,
a service, ``QuerySet.update``, ``bulk_create``, the knowledge refresher, raw SQL — the next turn
sees a stamp it has not cached under. Stamps are never reused: a sequence on PostgreSQL
(nextval is not rolled back), a random 63-bit number on SQLite. Businesses that exist now are
stamped here, so their first turns after the upgrade are cached too.
"""

from django.db import migrations, models

# Each table a turn caches, all keyed by their ``business_id`` column. tests/agent/
# test_stable_reads.py fails when agent.stable_reads caches a model whose table is not here.
STAMPED_TABLES = (
    "bookings_service",
    "bookings_openinghours",
    "agent_agentgrant",
    "knowledge_knowledgesource",
)
SEQUENCE = "agent_businessstamp_version_seq"

POSTGRES_FUNCTION = f"""
CREATE FUNCTION agent_businessstamp_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        UPDATE agent_businessstamp SET version = nextval('{SEQUENCE}');
        RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO agent_businessstamp (business_id, version)
        VALUES (OLD.business_id, nextval('{SEQUENCE}'))
        ON CONFLICT (business_id) DO UPDATE SET version = EXCLUDED.version;
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.business_id <> OLD.business_id) THEN
        INSERT INTO agent_businessstamp (business_id, version)
        VALUES (NEW.business_id, nextval('{SEQUENCE}'))
        ON CONFLICT (business_id) DO UPDATE SET version = EXCLUDED.version;
    END IF;
    RETURN NULL;
END;
$$
"""


def postgres_statements() -> list[str]:
    statements = [
        f"CREATE SEQUENCE {SEQUENCE}",
        POSTGRES_FUNCTION,
        "INSERT INTO agent_businessstamp (business_id, version) "
        f"SELECT id, nextval('{SEQUENCE}') FROM bookings_business",
    ]
    for table in STAMPED_TABLES:
        statements += [
            f"CREATE TRIGGER {table}_stamps_business AFTER INSERT OR UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION agent_businessstamp_bump()",
            f"CREATE TRIGGER {table}_truncate_stamps AFTER TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION agent_businessstamp_bump()",
        ]
    return statements


# SQLite has no sequences: a random stamp (63 bits, never negative) repeats with a chance of
# one in 2^63, and the demo database is one process.
SQLITE_RANDOM = "random() & 9223372036854775807"


def _sqlite_stamp(row: str) -> str:
    return (
        f"INSERT INTO agent_businessstamp (business_id, version) "
        f"VALUES ({row}.business_id, {SQLITE_RANDOM}) "
        "ON CONFLICT (business_id) DO UPDATE SET version = excluded.version;"
    )


def sqlite_statements() -> list[str]:
    statements = [
        "INSERT INTO agent_businessstamp (business_id, version) "
        f"SELECT id, {SQLITE_RANDOM} FROM bookings_business"
    ]
    for table in STAMPED_TABLES:
        statements += [
            f"CREATE TRIGGER {table}_stamps_business_insert AFTER INSERT ON {table} "
            f"BEGIN {_sqlite_stamp('NEW')} END",
            f"CREATE TRIGGER {table}_stamps_business_update AFTER UPDATE ON {table} "
            f"BEGIN {_sqlite_stamp('OLD')} {_sqlite_stamp('NEW')} END",
            f"CREATE TRIGGER {table}_stamps_business_delete AFTER DELETE ON {table} "
            f"BEGIN {_sqlite_stamp('OLD')} END",
        ]
    return statements


def create_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        statements = postgres_statements()
    elif vendor == "sqlite":
        statements = sqlite_statements()
    else:
        raise NotImplementedError(f"no stamp triggers for {vendor}")
    for statement in statements:
        schema_editor.execute(statement, params=None)


def drop_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table in STAMPED_TABLES:
        if vendor == "postgresql":
            names = [f"{table}_stamps_business", f"{table}_truncate_stamps"]
        else:
            names = [f"{table}_stamps_business_{kind}" for kind in ("insert", "update", "delete")]
        for name in names:
            on = f" ON {table}" if vendor == "postgresql" else ""
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}{on}", params=None)
    if vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS agent_businessstamp_bump()", params=None)
        schema_editor.execute(f"DROP SEQUENCE IF EXISTS {SEQUENCE}", params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0019_conversation_proven_appointment"),
        ("bookings", "0012_business_language_spoken"),
        ("knowledge", "0002_reading_in_a_worker"),
    ]

    operations = [
        migrations.CreateModel(
            name="BusinessStamp",
            fields=[
                ("business_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("version", models.BigIntegerField()),
            ],
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
