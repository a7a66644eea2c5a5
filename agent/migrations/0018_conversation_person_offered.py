"""The assistant may offer a person when it cannot read a message (``offer_person``); the turn
whose reply offered one is kept on the conversation, so a plain "yes" to it hands over. Offering
a person is granted wherever the assistant may already hand over to one: a business that took
``escalate_to_human`` away from its assistant does not get an offer it could not keep."""

from django.db import migrations, models


def grant_offering(apps, schema_editor) -> None:
    AgentGrant = apps.get_model("agent", "AgentGrant")
    businesses = set(
        AgentGrant.objects.filter(action="escalate_to_human").values_list("business_id", flat=True)
    )
    AgentGrant.objects.bulk_create(
        [AgentGrant(business_id=pk, action="offer_person") for pk in sorted(businesses)],
        ignore_conflicts=True,
    )


def ungrant_offering(apps, schema_editor) -> None:
    AgentGrant = apps.get_model("agent", "AgentGrant")
    AgentGrant.objects.filter(action="offer_person").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0017_conversation_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="conversation",
            name="person_offered_turn",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="agentgrant",
            name="action",
            field=models.CharField(
                choices=[
                    ("offer_slots", "offer slots"),
                    ("choose_service", "choose service"),
                    ("hold_slot", "hold slot"),
                    ("collect_contact", "collect contact"),
                    ("request_confirmation", "request confirmation"),
                    ("confirm_booking", "confirm booking"),
                    ("request_payment", "request payment"),
                    ("choose_appointment", "choose appointment"),
                    ("cancel_appointment", "cancel appointment"),
                    ("reschedule_appointment", "reschedule appointment"),
                    ("refund", "refund"),
                    ("offer_price", "offer price"),
                    ("escalate_to_human", "escalate to human"),
                    ("offer_person", "offer person"),
                    ("send_message", "send message"),
                    ("change_price", "change price"),
                    ("issue_store_credit", "issue store credit"),
                    ("mark_paid", "mark paid"),
                    ("delete_client", "delete client"),
                ],
                max_length=40,
            ),
        ),
        migrations.RunPython(grant_offering, ungrant_offering),
    ]
