"""Rows written by one prepared INSERT hold exactly what Model.save() would have written."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine
from django.db.models import signals

from agent.models import ConversationReach
from bookings.models import Appointment, AppointmentEvent, AppointmentStatus, Client
from bookings.row_inserts import insert_row, insert_row_and_child, insert_rows_ignoring_conflicts
from reminders.models import Reminder, ReminderKind
from tests.factories import AppointmentFactory, ClientFactory, haircut_at, one_chair_salon

STARTS = dt.datetime(2026, 12, 2, 10, tzinfo=dt.UTC)

pytestmark = pytest.mark.django_db


def stored(row) -> dict:
    """Every column of ``row`` as the database holds it, but its key."""
    fresh = type(row).objects.get(pk=row.pk)
    values = {f.attname: getattr(fresh, f.attname) for f in type(row)._meta.concrete_fields}
    del values["id"]
    return values


def appointment(service, client, seat: int) -> Appointment:
    return Appointment(
        business=service.business,
        service=service,
        client=client,
        starts_at=STARTS,
        ends_at=STARTS + dt.timedelta(hours=1),
        occupied_from=STARTS,
        occupied_until=STARTS + dt.timedelta(hours=1),
        seat=seat,
        status=AppointmentStatus.CONFIRMED,
        price=Decimal("55.00"),
        list_price=Decimal("60.00"),
    )


@time_machine.travel(STARTS - dt.timedelta(days=1), tick=False)
def test_an_appointment_and_its_event_are_stored_as_save_would_store_them():
    business = one_chair_salon()
    business.capacity = 2
    business.save(update_fields=["capacity"])
    service = haircut_at(business)
    client = ClientFactory(business=service.business)
    saved, inserted = appointment(service, client, 1), appointment(service, client, 2)

    saved.save(force_insert=True)
    insert_row(inserted)

    assert inserted.pk is not None
    assert inserted.pk != saved.pk
    assert not inserted._state.adding
    expected, found = stored(saved), stored(inserted)
    assert {k: v for k, v in found.items() if k not in ("public_id", "seat")} == {
        k: v for k, v in expected.items() if k not in ("public_id", "seat")
    }
    assert found["public_id"] == inserted.public_id  # the constructor's default, written
    events = [
        AppointmentEvent(
            business=service.business,
            appointment=row,
            kind="created",
            actor_kind="client",
            data={"seat": row.seat},
        )
        for row in (saved, inserted)
    ]
    events[0].save()
    insert_row(events[1])
    first, second = stored(events[0]), stored(events[1])
    assert second["data"] == {"seat": 2}  # JSON written as JSON, not as a string
    assert {**first, "appointment_id": None, "data": None} == {
        **second,
        "appointment_id": None,
        "data": None,
    }


@time_machine.travel(STARTS - dt.timedelta(days=1), tick=False)
def test_a_row_and_its_child_are_one_statement_holding_what_save_would_store(
    django_assert_num_queries,
):
    service = haircut_at(one_chair_salon())
    client = ClientFactory(business=service.business)
    saved = appointment(service, client, 1)
    saved.save(force_insert=True)
    saved_history = AppointmentEvent(
        business=service.business, appointment=saved, kind="created", actor_kind="client"
    )
    saved_history.save()
    inserted = appointment(service, client, 1)
    inserted.starts_at = inserted.occupied_from = STARTS + dt.timedelta(hours=2)
    inserted.ends_at = inserted.occupied_until = STARTS + dt.timedelta(hours=3)
    history = AppointmentEvent(business=service.business, kind="created", actor_kind="client")

    with django_assert_num_queries(1):
        insert_row_and_child(inserted, history, link="appointment")

    assert history.appointment_id == inserted.pk
    assert history.appointment is inserted
    assert AppointmentEvent.objects.get(pk=history.pk).appointment_id == inserted.pk
    assert {**stored(history), "appointment_id": None} == {
        **stored(saved_history),
        "appointment_id": None,
    }
    moved = ("public_id", "starts_at", "ends_at", "occupied_from", "occupied_until")
    assert {k: v for k, v in stored(inserted).items() if k not in moved} == {
        k: v for k, v in stored(saved).items() if k not in moved
    }


def test_rows_that_would_break_a_unique_constraint_are_skipped_and_the_rest_written():
    booked = AppointmentFactory()
    Reminder.objects.create(
        business=booked.business, appointment=booked, kind=ReminderKind.CONFIRMATION, due_at=STARTS
    )

    insert_rows_ignoring_conflicts(
        [
            Reminder(business=booked.business, appointment=booked, kind=kind, due_at=STARTS)
            for kind in (ReminderKind.CONFIRMATION, ReminderKind.BEFORE_24H)
        ]
    )

    reminders = Reminder.objects.filter(appointment=booked).order_by("kind")
    assert [(r.kind, r.status, r.attempts) for r in reminders] == [
        (ReminderKind.BEFORE_24H, "pending", 0),
        (ReminderKind.CONFIRMATION, "pending", 0),
    ]


def test_a_model_with_save_receivers_is_written_through_save_so_none_is_skipped():
    business = one_chair_salon()
    heard = []

    def receiver(sender, instance, created, **kwargs):
        heard.append((instance.name, created))

    signals.post_save.connect(receiver, sender=Client, dispatch_uid="test-row-inserts")
    try:
        insert_row(Client(business=business, name="Ana", email="ana@example.com"))
    finally:
        signals.post_save.disconnect(sender=Client, dispatch_uid="test-row-inserts")

    assert heard == [("Ana", True)]


def test_a_model_without_an_automatic_key_is_refused():
    # A conversation's reach is keyed by its conversation: no key for the database to choose.
    with pytest.raises(TypeError, match=r"needs Model\.save"):
        insert_row(ConversationReach())


def test_rows_of_two_models_in_one_statement_are_refused():
    booked = AppointmentFactory()
    reminder = Reminder(business=booked.business, appointment=booked, kind="x", due_at=STARTS)
    with pytest.raises(TypeError, match="one model"):
        insert_rows_ignoring_conflicts([reminder, ClientFactory.build(business=booked.business)])
    assert not Reminder.objects.exists()
