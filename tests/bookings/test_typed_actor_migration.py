"""The migration that typed the actors (bookings 0007, payments 0002) on real history: every old
string becomes the actor it meant — "owner:<id>" the role that user has at the row's business —
and the history table is append-only again afterwards."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ProtectedError
from django.utils import timezone

from bookings.actors import Actor, ActorKind
from bookings.legacy_actors import typed_legacy_actor
from bookings.models import AppointmentEvent, Role
from payments.models import Payment, PaymentStatus, Refund
from tests.factories import (
    AppointmentFactory,
    UserFactory,
    owner_of,
    staff_of,
)

BEFORE = [("bookings", "0006_hold_holder_and_address"), ("payments", "0001_initial")]


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def latest() -> list[tuple[str, str]]:
    """Every app's last migration (going back may have taken other apps' dependents along)."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def insert_old_event(appointment, actor: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO bookings_appointmentevent"
            " (business_id, appointment_id, kind, occurred_at, actor, data)"
            " VALUES (%s, %s, 'note', now(), %s, '{}') RETURNING id",
            [appointment.business_id, appointment.pk, actor],
        )
        return cursor.fetchone()[0]


def insert_old_refund(payment, actor: str, number: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO payments_refund (business_id, payment_id, amount, stripe_refund_id,"
            " idempotency_key, reason, actor, created_at, updated_at)"
            " VALUES (%s, %s, 1, %s, %s, '', %s, now(), now()) RETURNING id",
            [payment.business_id, payment.pk, f"re_old_{number}", f"old-{number}", actor],
        )
        return cursor.fetchone()[0]


# Migrations run outside a test transaction, as they do in a deployment.
@pytest.mark.django_db(transaction=True)
def test_old_actor_strings_become_the_actors_they_meant():
    # Given history written before actors were typed, by everyone who wrote it
    appointment = AppointmentFactory()
    business = appointment.business
    owner, staff = owner_of(business), staff_of(business)
    administrator = UserFactory(is_superuser=True)
    owner_elsewhere = owner_of(AppointmentFactory().business)  # no role at this business
    payment = Payment.objects.create(
        business=business,
        appointment=appointment,
        amount=10,
        currency=business.currency,
        status=PaymentStatus.PAID,
        paid_at=timezone.now(),
        amount_refunded=2,
        expires_at=timezone.now(),
    )
    # (and one typed row already, which going back turns into "owner:<id>" and forward again)
    typed = AppointmentEvent.objects.create(
        business=business, appointment=appointment, kind="note", actor=Actor.of_user(staff, "staff")
    )
    migrate(BEFORE)
    try:
        written = {
            text: insert_old_event(appointment, text)
            for text in [
                "client",
                f"owner:{owner.pk}",
                f"owner:{staff.pk}",
                f"owner:{administrator.pk}",
                f"owner:{owner_elsewhere.pk}",
                "owner:987654",
                "assistant",
                "agent",
                "stripe",
                "payments",
                "reconciliation",
                "sweep",
                "system",
                "capstone",
                "a string nobody wrote",
            ]
        }
        refunds = {
            text: insert_old_refund(payment, text, number)
            for number, text in enumerate([f"owner:{staff.pk}", "agent"])
        }
    finally:
        # When the migrations run
        migrate(latest())

    # Then each row names its actor typed
    def actor_of(text: str) -> Actor:
        return AppointmentEvent.objects.get(pk=written[text]).actor

    assert AppointmentEvent.objects.get(pk=typed.pk).actor == Actor(ActorKind.STAFF, staff.pk)
    assert actor_of("client") == Actor.client()
    assert actor_of(f"owner:{owner.pk}") == Actor(ActorKind.OWNER, owner.pk)
    assert actor_of(f"owner:{staff.pk}") == Actor(ActorKind.STAFF, staff.pk)
    assert actor_of(f"owner:{administrator.pk}") == Actor(ActorKind.OPERATOR, administrator.pk)
    assert actor_of(f"owner:{owner_elsewhere.pk}") == Actor(ActorKind.OWNER, owner_elsewhere.pk)
    assert actor_of("owner:987654") == Actor(ActorKind.OWNER)  # the account is gone...
    gone = AppointmentEvent.objects.get(pk=written["owner:987654"])
    assert gone.data == {"actor_was": "owner:987654"}  # ...but who it was is kept
    assert {actor_of(text) for text in ["assistant", "agent"]} == {Actor.assistant()}
    assert {actor_of(t) for t in ["stripe", "payments", "reconciliation"]} == {Actor.payments()}
    assert {actor_of(text) for text in ["sweep", "system", "capstone"]} == {Actor.system()}
    odd = AppointmentEvent.objects.get(pk=written["a string nobody wrote"])
    assert (odd.actor, odd.data) == (Actor.system(), {"actor_was": "a string nobody wrote"})
    assert Refund.objects.get(pk=refunds[f"owner:{staff.pk}"]).actor == Actor(
        ActorKind.STAFF, staff.pk
    )
    assert Refund.objects.get(pk=refunds["agent"]).actor == Actor.assistant()
    # And the history is append-only again
    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE bookings_appointmentevent SET actor_kind = 'client'")


def test_a_staff_member_recorded_as_owner_is_read_by_their_role_at_that_business():
    roles = {3: Role.STAFF, 4: Role.OWNER}

    assert typed_legacy_actor("owner:3", role_of=roles.get) == (ActorKind.STAFF, 3, True)
    assert typed_legacy_actor("owner:4", role_of=roles.get) == (ActorKind.OWNER, 4, True)
    assert typed_legacy_actor("owner:5", role_of=roles.get) == (ActorKind.OWNER, None, False)
    assert typed_legacy_actor("owner:x", role_of=roles.get) == (ActorKind.SYSTEM, None, False)


@pytest.mark.django_db
def test_a_person_s_account_that_acted_cannot_be_deleted_out_from_under_the_history():
    appointment = AppointmentFactory()
    staff = staff_of(appointment.business)
    AppointmentEvent.objects.create(
        business=appointment.business,
        appointment=appointment,
        kind="note",
        actor=Actor.of_user(staff, Role.STAFF),
    )

    with pytest.raises(ProtectedError, match=r"AppointmentEvent\.actor_user"):
        staff.delete()
    assert AppointmentEvent.objects.get().actor == Actor(ActorKind.STAFF, staff.pk)
