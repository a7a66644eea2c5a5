"""The database's own backstop against double-booking (PostgreSQL).

The booking service decides capacity under an advisory lock and gives each occupying
appointment a seat (1..capacity). This constraint refuses two occupying appointments of one
business in the same seat whose occupied times overlap, whatever wrote them. SQLite, the demo
database, has no exclusion constraints; there the IMMEDIATE write transaction is the guarantee.
"""

from django.db import migrations

OCCUPYING = "('pending_payment', 'confirmed', 'attended', 'no_show')"

UP = [
    "CREATE EXTENSION IF NOT EXISTS btree_gist",
    f"""ALTER TABLE bookings_appointment ADD CONSTRAINT appointment_no_overlap_per_seat
        EXCLUDE USING gist (
            business_id WITH =,
            seat WITH =,
            tstzrange(occupied_from, occupied_until, '[)') WITH &&
        ) WHERE (status IN {OCCUPYING})""",
]
DOWN = ["ALTER TABLE bookings_appointment DROP CONSTRAINT appointment_no_overlap_per_seat"]


def install(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in UP:
            schema_editor.execute(statement)


def remove(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in DOWN:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("bookings", "0003_operators_group")]
    operations = [migrations.RunPython(install, remove)]
