"""The operators group: Ordina's own staff, who browse audit data read-only across businesses."""

from django.db import migrations

OPERATORS = "Operators"


def create(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.get_or_create(name=OPERATORS)


def drop(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.filter(name=OPERATORS).delete()


class Migration(migrations.Migration):
    dependencies = [("bookings", "0002_appointment_history_append_only"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create, drop)]
