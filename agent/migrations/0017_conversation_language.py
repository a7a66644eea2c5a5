"""A conversation keeps the language its assistant writes in. Existing conversations take their
business's language, as a new one does when it starts."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def business_language(apps, schema_editor) -> None:
    Conversation = apps.get_model("agent", "Conversation")
    Business = apps.get_model("bookings", "Business")
    languages = Business.objects.filter(pk=OuterRef("business_id")).values("language")[:1]
    Conversation.objects.update(language=Subquery(languages))


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0016_conversation_subject"),
        ("bookings", "0011_appointment_by_booked_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="conversation",
            name="language",
            field=models.CharField(default="en", max_length=8),
        ),
        migrations.RunPython(business_language, migrations.RunPython.noop, elidable=True),
    ]
