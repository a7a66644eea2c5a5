"""How far each conversation got, and which services it was about, kept by the database from the
stage events: a trigger on every event inserted (whoever inserts it — the stage trigger of 0011,
a backfill, raw SQL) raises the conversation's furthest step, sets its start and its first
confirmation, and adds the event's service to the services it asked about. The funnel of a
period then reads one short row per conversation (analytics.queries) instead of grouping all
their events again.

What the events already hold is summarised here once, after the trigger is in place: on
PostgreSQL creating the trigger locks the events table against writers until this migration
commits, so no event falls between the two.

The cohort index of 0013 and the starts' index served only the grouping that these rows
replace; both are dropped.
"""

import django.db.models.deletion
from django.db import migrations, models

# Written out, not imported: a migration keeps the meaning it had when it was written. The
# funnel's steps in order (agent.conversation.stage_backfill.STEPS); -1 outside them.
POSTGRES_UP = """
CREATE FUNCTION agent_reach_rank(stage text) RETURNS smallint AS $$
    SELECT CASE stage
        WHEN 'greeting' THEN 0 WHEN 'service_chosen' THEN 1 WHEN 'slot_offered' THEN 2
        WHEN 'slot_held' THEN 3 WHEN 'details_collected' THEN 4 WHEN 'awaiting_payment' THEN 5
        WHEN 'confirmed' THEN 6 ELSE -1 END::smallint;
$$ LANGUAGE sql IMMUTABLE;

CREATE FUNCTION agent_reach_record() RETURNS trigger AS $$
BEGIN
    -- The event's part: its start (if it is one), its rank, its confirmation (if it is one),
    -- kept as the earliest start, the furthest rank and the first confirmation.
    INSERT INTO agent_conversationreach AS kept
        (conversation_id, business_id, started_at, furthest, confirmed_at)
    VALUES (
        NEW.conversation_id, NEW.business_id,
        CASE WHEN NEW.previous_stage = '' THEN NEW.occurred_at END,
        agent_reach_rank(NEW.stage),
        CASE WHEN NEW.stage = 'confirmed' THEN NEW.occurred_at END
    )
    ON CONFLICT (conversation_id) DO UPDATE SET
        started_at = LEAST(kept.started_at, EXCLUDED.started_at),
        furthest = GREATEST(kept.furthest, EXCLUDED.furthest),
        confirmed_at = LEAST(kept.confirmed_at, EXCLUDED.confirmed_at);
    -- The event's service, under the conversation's business and start as its reach holds
    -- them; a start recorded after other events (a backfill's order) moves theirs too.
    IF NEW.service_id IS NOT NULL THEN
        INSERT INTO agent_conversationserviceasked
            (conversation_id, service_id, business_id, started_at)
        SELECT conversation_id, NEW.service_id, business_id, started_at
        FROM agent_conversationreach WHERE conversation_id = NEW.conversation_id
        ON CONFLICT (conversation_id, service_id) DO NOTHING;
    END IF;
    IF NEW.previous_stage = '' THEN
        UPDATE agent_conversationserviceasked SET started_at = NEW.occurred_at
        WHERE conversation_id = NEW.conversation_id
          AND (started_at IS NULL OR started_at > NEW.occurred_at);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER agent_reach_kept
    AFTER INSERT ON agent_conversationstageevent
    FOR EACH ROW EXECUTE FUNCTION agent_reach_record();

-- Room in each page for a row's next versions: a conversation's few moves come minutes apart,
-- and each rewrites its reach where it lies, leaving the index untouched.
ALTER TABLE agent_conversationreach SET (fillfactor = 70);

DROP INDEX IF EXISTS stage_event_cohort;
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS agent_reach_kept ON agent_conversationstageevent;
DROP FUNCTION IF EXISTS agent_reach_record();
DROP FUNCTION IF EXISTS agent_reach_rank(text);
CREATE INDEX IF NOT EXISTS stage_event_cohort ON agent_conversationstageevent
    (business_id, occurred_at) INCLUDE (conversation_id, stage, previous_stage, service_id);
"""

# The same on SQLite, whose two-argument min() and max() are LEAST and GREATEST except that
# an empty argument makes them empty (hence the COALESCE), and whose triggers have no IF.
SQLITE_RANK = """CASE NEW.stage
        WHEN 'greeting' THEN 0 WHEN 'service_chosen' THEN 1 WHEN 'slot_offered' THEN 2
        WHEN 'slot_held' THEN 3 WHEN 'details_collected' THEN 4 WHEN 'awaiting_payment' THEN 5
        WHEN 'confirmed' THEN 6 ELSE -1 END"""
SQLITE_UP = [
    """CREATE TRIGGER agent_reach_kept AFTER INSERT ON agent_conversationstageevent
BEGIN
    INSERT INTO agent_conversationreach
        (conversation_id, business_id, started_at, furthest, confirmed_at)
    VALUES (
        NEW.conversation_id, NEW.business_id,
        CASE WHEN NEW.previous_stage = '' THEN NEW.occurred_at END,
        """
    + SQLITE_RANK
    + """,
        CASE WHEN NEW.stage = 'confirmed' THEN NEW.occurred_at END
    )
    ON CONFLICT (conversation_id) DO UPDATE SET
        started_at = COALESCE(
            min(agent_conversationreach.started_at, excluded.started_at),
            agent_conversationreach.started_at, excluded.started_at),
        furthest = max(agent_conversationreach.furthest, excluded.furthest),
        confirmed_at = COALESCE(
            min(agent_conversationreach.confirmed_at, excluded.confirmed_at),
            agent_conversationreach.confirmed_at, excluded.confirmed_at);
    INSERT INTO agent_conversationserviceasked
        (conversation_id, service_id, business_id, started_at)
    SELECT conversation_id, NEW.service_id, business_id, started_at
    FROM agent_conversationreach
    WHERE conversation_id = NEW.conversation_id AND NEW.service_id IS NOT NULL
    ON CONFLICT (conversation_id, service_id) DO NOTHING;
    UPDATE agent_conversationserviceasked SET started_at = NEW.occurred_at
    WHERE conversation_id = NEW.conversation_id AND NEW.previous_stage = ''
      AND (started_at IS NULL OR started_at > NEW.occurred_at);
END;"""
]
SQLITE_DOWN = ["DROP TRIGGER IF EXISTS agent_reach_kept;"]

# What the events already hold, summarised once the trigger is in place.
SQL_RANK = SQLITE_RANK.replace("NEW.stage", "stage")
SUMMARISE = [
    """
INSERT INTO agent_conversationreach
    (conversation_id, business_id, started_at, furthest, confirmed_at)
SELECT conversation_id, MIN(business_id),
       MIN(CASE WHEN previous_stage = '' THEN occurred_at END),
       MAX("""
    + SQL_RANK
    + """),
       MIN(CASE WHEN stage = 'confirmed' THEN occurred_at END)
FROM agent_conversationstageevent GROUP BY conversation_id;
""",
    """
INSERT INTO agent_conversationserviceasked
    (conversation_id, service_id, business_id, started_at)
SELECT DISTINCT e.conversation_id, e.service_id, r.business_id, r.started_at
FROM agent_conversationstageevent AS e
JOIN agent_conversationreach AS r ON r.conversation_id = e.conversation_id
WHERE e.service_id IS NOT NULL;
""",
]
STATEMENTS = {
    "postgresql": ([POSTGRES_UP, *SUMMARISE], [POSTGRES_DOWN]),
    "sqlite": ([*SQLITE_UP, *SUMMARISE], SQLITE_DOWN),
}


def keeping(direction: int):
    def run(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        for statement in STATEMENTS.get(vendor, ([], []))[direction]:
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0013_stage_event_cohort_index"),
        ("bookings", "0011_appointment_by_booked_at"),
    ]

    operations = [
        migrations.CreateModel(
            name="ConversationReach",
            fields=[
                (
                    "conversation",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="reach",
                        serialize=False,
                        to="agent.conversation",
                    ),
                ),
                (
                    "started_at",
                    models.DateTimeField(
                        help_text="Empty: its start was never recorded.", null=True
                    ),
                ),
                ("furthest", models.SmallIntegerField()),
                (
                    "confirmed_at",
                    models.DateTimeField(help_text="Its first confirmation.", null=True),
                ),
                (
                    "business",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="bookings.business",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["business", "started_at"], name="reach_by_start")],
            },
        ),
        migrations.CreateModel(
            name="ConversationServiceAsked",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "reach",
                    models.ForeignKey(
                        db_column="conversation_id",
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="services_asked",
                        to="agent.conversationreach",
                    ),
                ),
                (
                    "service",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="bookings.service",
                    ),
                ),
                (
                    "business",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="bookings.business",
                    ),
                ),
                (
                    "started_at",
                    models.DateTimeField(help_text="The conversation's start.", null=True),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("reach", "service"), name="service_asked_once")
                ],
                "indexes": [
                    models.Index(
                        fields=["business", "started_at", "service"],
                        name="service_asked_by_start",
                    )
                ],
            },
        ),
        migrations.RemoveIndex(model_name="conversationstageevent", name="stage_event_started"),
        migrations.RunPython(keeping(0), keeping(1)),
    ]
