"""An index that answers the analytics page's reads of the stage events by itself: the events of
a business from a date on, carrying every column the funnel and the services' counts read
(conversation, stage, previous stage, service). PostgreSQL then reads the index alone — an
index-only scan — instead of visiting a table page per event; the events are append-only, so
their pages stay all-visible once vacuumed (autovacuum does so after inserts).

PostgreSQL only; SQLite (the demo's database) keeps the plain (business, occurred_at) index. Not
a model index: Django warns on SQLite of every model index with ``include`` columns (W040).
"""

from django.db import migrations

INDEX = "stage_event_cohort"

CREATE = f"""
CREATE INDEX IF NOT EXISTS {INDEX} ON agent_conversationstageevent (business_id, occurred_at)
INCLUDE (conversation_id, stage, previous_stage, service_id);
"""
DROP = f"DROP INDEX IF EXISTS {INDEX};"


def on_postgresql(statement: str):
    def run(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("agent", "0012_backfill_stage_events")]

    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP))]
