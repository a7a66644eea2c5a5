# The state of a price negotiation on the conversation row, what the negotiation terms grant,
# and an answered price offer's money contained (issue 13).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0008_default_grants_for_businesses_without_any"),
        ("bookings", "0009_business_accent_and_embed_origins"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="auditentry",
            name="audit_result_consistent",
        ),
        migrations.AddField(
            model_name="conversation",
            name="agreed_price",
            field=models.DecimalField(
                blank=True, decimal_places=2, max_digits=10, null=True, verbose_name="agreed price"
            ),
        ),
        migrations.AddField(
            model_name="conversation",
            name="negotiation_ask",
            field=models.DecimalField(
                blank=True, decimal_places=2, max_digits=10, null=True, verbose_name="current ask"
            ),
        ),
        migrations.AddField(
            model_name="conversation",
            name="negotiation_rounds",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="conversation",
            name="negotiation_service",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="bookings.service",
            ),
        ),
        migrations.AddField(
            model_name="conversation",
            name="negotiation_slot",
            field=models.DateTimeField(blank=True, null=True),
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
                    ("cancel_appointment", "cancel appointment"),
                    ("reschedule_appointment", "reschedule appointment"),
                    ("refund", "refund"),
                    ("offer_price", "offer price"),
                    ("escalate_to_human", "escalate to human"),
                    ("send_message", "send message"),
                    ("change_price", "change price"),
                    ("issue_store_credit", "issue store credit"),
                    ("mark_paid", "mark paid"),
                    ("delete_client", "delete client"),
                ],
                max_length=40,
            ),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("money_contained", 0), ("result", "EXECUTE"), ("stage", "")),
                    models.Q(("action", "offer_price"), ("result", "EXECUTE"), ("stage", "")),
                    models.Q(("money_moved", 0), ("result", "BLOCK")),
                    _connector="OR",
                ),
                name="audit_result_consistent",
            ),
        ),
        migrations.AddConstraint(
            model_name="conversation",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("negotiation_ask__isnull", True),
                        ("negotiation_ask__gt", 0),
                        _connector="OR",
                    ),
                    models.Q(
                        ("agreed_price__isnull", True), ("agreed_price__gt", 0), _connector="OR"
                    ),
                ),
                name="conversation_negotiated_prices_positive",
                violation_error_message="A negotiated price is more than 0.",
            ),
        ),
    ]
