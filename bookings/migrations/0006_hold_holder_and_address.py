"""Holds: a holder is never empty (the database refuses it), and each hold keeps a keyed hash
of its client's address so one address's live holds can be counted (bookings/addresses.py)."""

from django.db import migrations, models


def drop_holds_without_holder(apps, schema_editor):
    # Holds live minutes; one without a holder belongs to nobody and can only block a slot.
    apps.get_model("bookings", "SlotHold").objects.filter(holder="").delete()


class Migration(migrations.Migration):
    dependencies = [("bookings", "0005_calendar_feed_schemes")]

    operations = [
        migrations.RunPython(drop_holds_without_holder, migrations.RunPython.noop),
        migrations.AddField(
            model_name="slothold",
            name="address_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddIndex(
            model_name="slothold",
            index=models.Index(
                condition=models.Q(("address_hash", ""), _negated=True),
                fields=["business", "address_hash", "expires_at"],
                name="hold_by_address",
            ),
        ),
        migrations.AddConstraint(
            model_name="slothold",
            constraint=models.CheckConstraint(
                condition=models.Q(("holder", ""), _negated=True),
                name="hold_has_holder",
                violation_error_message="A hold needs a holder.",
            ),
        ),
    ]
