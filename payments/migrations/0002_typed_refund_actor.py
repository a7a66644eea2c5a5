"""A refund names who asked for it typed, as appointment history does (bookings 0007):
``actor_kind`` and, for people, ``actor_user``, instead of the free ``actor`` string. "owner:<id>"
becomes an owner, staff member or operator from that user's membership at the refund's
business; "agent" is the assistant."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from bookings.legacy_actors import convert_rows, legacy_actor_text

KINDS = [
    ("client", "The client"),
    ("owner", "Owner"),
    ("staff", "Staff"),
    ("operator", "Ordina"),
    ("assistant", "The assistant"),
    ("payments", "Stripe"),
    ("system", "Ordina (scheduled)"),
]


def typed_from_strings(apps, schema_editor):
    convert_rows(apps.get_model("payments", "Refund"), apps)


def strings_from_typed(apps, schema_editor):
    Refund = apps.get_model("payments", "Refund")
    for refund in Refund.objects.all():
        refund.actor = legacy_actor_text(refund.actor_kind, refund.actor_user_id)
        refund.save(update_fields=["actor"])


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0007_typed_actors"),
        ("payments", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="refund",
            name="actor_kind",
            field=models.CharField(
                choices=KINDS, default="system", max_length=20, verbose_name="actor"
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="refund",
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
            model_name="refund",
            name="actor",
            field=models.CharField(default="", max_length=64),
        ),
        migrations.RemoveField(model_name="refund", name="actor"),
        migrations.AddConstraint(
            model_name="refund",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "actor_kind__in",
                        ["client", "owner", "staff", "operator", "assistant", "payments", "system"],
                    )
                ),
                name="payments_refund_actor_kind_known",
                violation_error_message="Unknown kind of actor.",
            ),
        ),
        migrations.AddConstraint(
            model_name="refund",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("actor_user__isnull", True),
                    ("actor_kind__in", ["operator", "owner", "staff"]),
                    _connector="OR",
                ),
                name="payments_refund_actor_user_only_for_people",
                violation_error_message="Only a person (owner, staff, operator) has a user.",
            ),
        ),
    ]
