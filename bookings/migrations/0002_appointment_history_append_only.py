"""Make appointment history append-only in the database itself (ordina/append_only.py)."""

from django.db import migrations

from ordina.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("bookings", "0001_initial")]
    operations = [
        append_only(
            "bookings_appointmentevent",
            name="appointment_history",
            message="appointment history is append-only",
        )
    ]
