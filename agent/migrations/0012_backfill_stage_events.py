"""Stage events for the conversations that began before their moves were recorded (0011): what
their rows, the audit log and their appointment's history still show
(agent/conversation/stage_backfill.py), marked ``backfilled``.

Idempotent: only conversations without any event are derived, so running it again (or after a
partial run) adds nothing twice. In batches, so a large history is never read at once.
"""

from django.db import migrations
from django.db.models import Exists, OuterRef

from agent.conversation.stage_backfill import Kept, derived_moves

BATCH = 1000
# The appointment history kinds that say when a deposit booking became confirmed.
CONFIRMING_KINDS = ("paid", "confirmed")


def backfill(apps, schema_editor) -> None:
    Conversation = apps.get_model("agent", "Conversation")
    Event = apps.get_model("agent", "ConversationStageEvent")
    AuditEntry = apps.get_model("agent", "AuditEntry")
    AppointmentEvent = apps.get_model("bookings", "AppointmentEvent")
    alias = schema_editor.connection.alias
    unrecorded = Conversation.objects.using(alias).filter(
        ~Exists(Event.objects.using(alias).filter(conversation=OuterRef("pk")))
    )
    last = 0
    while True:
        batch = list(
            unrecorded.filter(pk__gt=last)
            .order_by("pk")
            .values(
                "pk",
                "public_id",
                "business_id",
                "service_id",
                "state",
                "created_at",
                "updated_at",
                "appointment_id",
            )[:BATCH]
        )
        if not batch:
            return
        last = batch[-1]["pk"]
        executed = _executed(AuditEntry, alias, [str(row["public_id"]) for row in batch])
        booked = _booked(AppointmentEvent, alias, [row["appointment_id"] for row in batch])
        events = []
        for row in batch:
            kept = Kept(
                created_at=row["created_at"],
                updated_at=row["updated_at"],
                state=row["state"],
                executed=tuple(executed.get(str(row["public_id"]), ())),
                **booked.get(row["appointment_id"], {}),
            )
            events.extend(
                Event(
                    conversation_id=row["pk"],
                    business_id=row["business_id"],
                    service_id=row["service_id"],
                    stage=move.stage,
                    previous_stage=move.previous,
                    occurred_at=move.at,
                    backfilled=True,
                )
                for move in derived_moves(kept)
            )
        Event.objects.using(alias).bulk_create(events)


def _executed(AuditEntry, alias: str, public_ids: list[str]) -> dict[str, list]:
    found: dict[str, list] = {}
    rows = (
        AuditEntry.objects.using(alias)
        .filter(conversation__in=public_ids, result="EXECUTE")
        .order_by("created_at", "pk")
        .values_list("conversation", "action", "created_at")
    )
    for conversation, action, at in rows:
        found.setdefault(conversation, []).append((action, at))
    return found


def _booked(AppointmentEvent, alias: str, appointment_ids: list) -> dict[int, dict]:
    rows = (
        AppointmentEvent.objects.using(alias)
        .filter(
            appointment_id__in=[pk for pk in appointment_ids if pk is not None],
            kind__in=("created", *CONFIRMING_KINDS),
        )
        .order_by("occurred_at", "pk")
        .values_list("appointment_id", "kind", "occurred_at", "data")
    )
    found: dict[int, dict] = {}
    for appointment_id, kind, at, data in rows:
        facts = found.setdefault(appointment_id, {})
        if kind == "created":
            facts["booked_at"] = at
            facts["booked_pending"] = (data or {}).get("status") == "pending_payment"
        else:
            facts.setdefault("confirmed_at", at)
    return {pk: facts for pk, facts in found.items() if "booked_at" in facts}


class Migration(migrations.Migration):
    dependencies = [("agent", "0011_conversation_stage_events")]

    # Events are append-only: going back keeps them (0011 going back drops the table).
    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
