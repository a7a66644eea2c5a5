"""A conversation keeps the language its assistant writes in. Existing conversations take their
business's language, as a new one does when it starts."""

from django.db import migrations, models
from django.db.models import Q, Subquery

# The languages spoken when this migration was written; a business's code the product does not
# speak ("pt", "fr") starts its conversations in English, as ``starting_language`` does.
SPOKEN = ("en", "es")


def business_language(apps, schema_editor) -> None:
    Conversation = apps.get_model("agent", "Conversation")
    Business = apps.get_model("bookings", "Business")
    Conversation.objects.exclude(language="en").update(language="en")
    for code in SPOKEN:
        businesses = Business.objects.filter(
            Q(language__iexact=code) | Q(language__istartswith=f"{code}-")
        ).values("pk")
        Conversation.objects.filter(business__in=Subquery(businesses)).update(language=code)


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
