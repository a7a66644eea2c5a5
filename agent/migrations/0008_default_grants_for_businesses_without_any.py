"""Businesses created before new businesses got their assistant's default grants, and still
without any grant at all, get them now: such a business's assistant could do nothing."""

from django.db import migrations

# The defaults as they stood when this migration was written (agent.actions.DEFAULT_GRANTS):
# a migration never imports code that may change after it.
DEFAULT_GRANTS = (
    "cancel_appointment",
    "choose_service",
    "collect_contact",
    "confirm_booking",
    "escalate_to_human",
    "hold_slot",
    "offer_slots",
    "request_confirmation",
    "request_payment",
    "reschedule_appointment",
    "send_message",
)


def grant_defaults(apps, schema_editor):
    Business = apps.get_model("bookings", "Business")
    AgentGrant = apps.get_model("agent", "AgentGrant")
    without = Business.objects.exclude(agent_grants__isnull=False)
    AgentGrant.objects.bulk_create(
        [
            AgentGrant(business=business, action=action)
            for business in without
            for action in DEFAULT_GRANTS
        ]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0007_conversation_effects_and_lapses"),
    ]

    operations = [migrations.RunPython(grant_defaults, migrations.RunPython.noop)]
