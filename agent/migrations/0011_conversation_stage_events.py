"""Every move of a conversation's stage, recorded by the database in the same statement as the
row's change: an insert records the start, an update that changes ``state`` records the move —
whichever code (a turn, a Confirm, a hand-back, a poll that restages) or raw SQL wrote it. The
events are append-only (ordina/append_only.py).

The time of a move is the row's own ``updated_at`` when the writer stamped it (Django's
``auto_now``: the application's clock, the one every other timestamp of the conversation
uses), else the statement's time.
"""

import django.db.models.deletion
from django.db import migrations, models

from ordina.append_only import append_only

STATES = [
    ("greeting", "greeting"),
    ("service_chosen", "service chosen"),
    ("slot_offered", "slot offered"),
    ("slot_held", "slot held"),
    ("details_collected", "details collected"),
    ("awaiting_payment", "awaiting payment"),
    ("confirmed", "confirmed"),
    ("escalated", "escalated"),
    ("cancelled", "cancelled"),
    ("expired", "expired"),
]

COLUMNS = "conversation_id, business_id, service_id, stage, previous_stage, occurred_at, backfilled"

POSTGRES_UP = f"""
CREATE FUNCTION agent_stage_record() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO agent_conversationstageevent ({COLUMNS})
        VALUES (NEW.id, NEW.business_id, NEW.service_id, NEW.state, '', NEW.created_at, false);
    ELSE
        INSERT INTO agent_conversationstageevent ({COLUMNS})
        VALUES (
            NEW.id, NEW.business_id, NEW.service_id, NEW.state, OLD.state,
            CASE WHEN NEW.updated_at IS DISTINCT FROM OLD.updated_at
                 THEN NEW.updated_at ELSE statement_timestamp() END,
            false
        );
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER agent_stage_started
    AFTER INSERT ON agent_conversation
    FOR EACH ROW EXECUTE FUNCTION agent_stage_record();
CREATE TRIGGER agent_stage_moved
    AFTER UPDATE OF state ON agent_conversation
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state)
    EXECUTE FUNCTION agent_stage_record();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS agent_stage_moved ON agent_conversation;
DROP TRIGGER IF EXISTS agent_stage_started ON agent_conversation;
DROP FUNCTION IF EXISTS agent_stage_record();
"""
# Django stores SQLite datetimes as 'YYYY-MM-DD HH:MM:SS.ffffff' in UTC; the fallback matches.
SQLITE_UP = [
    f"""CREATE TRIGGER agent_stage_started AFTER INSERT ON agent_conversation
BEGIN
    INSERT INTO agent_conversationstageevent ({COLUMNS})
    VALUES (NEW.id, NEW.business_id, NEW.service_id, NEW.state, '', NEW.created_at, 0);
END;""",
    f"""CREATE TRIGGER agent_stage_moved AFTER UPDATE OF state ON agent_conversation
WHEN OLD.state IS NOT NEW.state
BEGIN
    INSERT INTO agent_conversationstageevent ({COLUMNS})
    VALUES (
        NEW.id, NEW.business_id, NEW.service_id, NEW.state, OLD.state,
        CASE WHEN NEW.updated_at IS NOT OLD.updated_at
             THEN NEW.updated_at ELSE strftime('%Y-%m-%d %H:%M:%f', 'now') END,
        0
    );
END;""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS agent_stage_moved;",
    "DROP TRIGGER IF EXISTS agent_stage_started;",
]
STATEMENTS = {"postgresql": ([POSTGRES_UP], [POSTGRES_DOWN]), "sqlite": (SQLITE_UP, SQLITE_DOWN)}


def recording(direction: int):
    def run(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        for statement in STATEMENTS.get(vendor, ([], []))[direction]:
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0010_conversation_escalation_alerted_at"),
        ("bookings", "0010_negotiation_terms"),
    ]

    operations = [
        migrations.CreateModel(
            name="ConversationStageEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("stage", models.CharField(choices=STATES, max_length=20)),
                (
                    "previous_stage",
                    models.CharField(
                        blank=True, choices=STATES, help_text="Blank: the start.", max_length=20
                    ),
                ),
                ("occurred_at", models.DateTimeField()),
                (
                    "backfilled",
                    models.BooleanField(
                        default=False,
                        help_text="Derived later from what the conversation kept, not recorded.",
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
                    "conversation",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="stage_events",
                        to="agent.conversation",
                    ),
                ),
                (
                    "service",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="bookings.service",
                    ),
                ),
            ],
            options={
                "ordering": ["occurred_at", "id"],
                "indexes": [
                    models.Index(
                        fields=["business", "occurred_at"], name="stage_event_by_business"
                    ),
                    models.Index(
                        fields=["conversation", "occurred_at"], name="stage_event_by_conv"
                    ),
                    models.Index(
                        condition=models.Q(("previous_stage", "")),
                        fields=["business", "occurred_at"],
                        name="stage_event_started",
                    ),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("stage", models.F("previous_stage")), _negated=True),
                        name="stage_event_is_a_move",
                        violation_error_message="A stage event moves to another stage.",
                    )
                ],
            },
        ),
        append_only(
            "agent_conversationstageevent",
            name="agent_stage_event",
            message="conversation stage events are append-only",
        ),
        migrations.RunPython(recording(0), recording(1)),
    ]
