"""Appointment history names its actor typed: ``actor_kind`` and, for people, ``actor_user``,
instead of the free ``actor`` string (bookings/actors.py, bookings/legacy_actors.py).

The history table is append-only: a trigger refuses every UPDATE (migration 0002). Converting
the existing rows needs UPDATEs, so the trigger is dropped first and installed again last, all
inside this migration's one transaction — on PostgreSQL no other writer ever sees the table
without it. (On SQLite, changing the table's columns rebuilds the table, which drops its
triggers anyway; installing them last restores them.)

A row written by "owner:<id>" becomes an owner, staff member or operator from that user's
membership at the row's business now (staff were written as "owner:" before); a row whose
account is gone, or whose string no writer used, keeps that string in ``data["actor_was"]``.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from bookings.legacy_actors import convert_rows, legacy_actor_text
from ordina.append_only import append_only

KINDS = [
    ("client", "The client"),
    ("owner", "Owner"),
    ("staff", "Staff"),
    ("operator", "Ordina"),
    ("assistant", "The assistant"),
    ("payments", "Stripe"),
    ("system", "Ordina (scheduled)"),
]

installed = append_only(
    "bookings_appointmentevent",
    name="appointment_history",
    message="appointment history is append-only",
)
# The same operation run the other way: forwards it lifts the trigger, backwards it restores it.
lifted = migrations.RunPython(installed.reverse_code, installed.code)


def typed_from_strings(apps, schema_editor):
    convert_rows(apps.get_model("bookings", "AppointmentEvent"), apps)


def strings_from_typed(apps, schema_editor):
    AppointmentEvent = apps.get_model("bookings", "AppointmentEvent")
    for row in AppointmentEvent.objects.all():
        data = dict(row.data)
        row.actor = data.pop("actor_was", None) or legacy_actor_text(
            row.actor_kind, row.actor_user_id
        )
        row.data = data
        row.save(update_fields=["actor", "data"])


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0006_hold_holder_and_address"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        lifted,
        migrations.AddField(
            model_name="appointmentevent",
            name="actor_kind",
            field=models.CharField(
                choices=KINDS, default="system", max_length=20, verbose_name="actor"
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="appointmentevent",
            name="actor_user",
            field=models.ForeignKey(
                blank=True,
                help_text="The person who acted, for an owner, staff member or Ordina operator.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(typed_from_strings, strings_from_typed),
        # Given a default first, so that undoing the removal can add the column back to a
        # table that has rows.
        migrations.AlterField(
            model_name="appointmentevent",
            name="actor",
            field=models.CharField(default="", max_length=64),
        ),
        migrations.RemoveField(model_name="appointmentevent", name="actor"),
        migrations.AddConstraint(
            model_name="appointmentevent",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "actor_kind__in",
                        ["client", "owner", "staff", "operator", "assistant", "payments", "system"],
                    )
                ),
                name="bookings_appointmentevent_actor_kind_known",
                violation_error_message="Unknown kind of actor.",
            ),
        ),
        migrations.AddConstraint(
            model_name="appointmentevent",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("actor_user__isnull", True),
                    ("actor_kind__in", ["operator", "owner", "staff"]),
                    _connector="OR",
                ),
                name="bookings_appointmentevent_actor_user_only_for_people",
                violation_error_message="Only a person (owner, staff, operator) has a user.",
            ),
        ),
        installed,
    ]
