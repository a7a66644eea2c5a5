"""Reminder rows follow the appointment through the booking core's services."""

import datetime as dt

import pytest

from bookings.actors import Actor
from bookings.models import AppointmentStatus, Role
from bookings.services import ClientDetails
from orchestration.appointment_changes import (
    appointment_cancel,
    appointment_confirm_deposit,
    appointment_create,
    appointment_record_outcome,
    appointment_reschedule,
)
from reminders.models import Reminder, ReminderKind, ReminderSetting, ReminderStatus
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon
from tests.factories import owner_of

pytestmark = pytest.mark.usefixtures("frozen_now")
ANA = ClientDetails("Ana", "ana@example.com")


def rows(appointment) -> dict[str, tuple[str, dt.datetime]]:
    return {r.kind: (r.status, r.due_at) for r in Reminder.objects.filter(appointment=appointment)}


def book(haircut, wall="10:00", **kwargs):
    return appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, wall), client=ANA, **kwargs
    ).appointment


def test_a_confirmed_booking_plans_its_reminders(haircut):
    appointment = book(haircut)

    planned = rows(appointment)
    assert planned[ReminderKind.CONFIRMATION] == (ReminderStatus.PENDING, NOW)
    assert planned[ReminderKind.BEFORE_24H][1] == lisbon(WEDNESDAY, "10:00") - dt.timedelta(
        hours=24
    )
    assert ReminderKind.NO_SHOW not in planned


def test_moving_the_appointment_moves_its_pending_reminders(haircut):
    appointment = book(haircut)

    appointment_reschedule(appointment=appointment, new_start=lisbon(WEDNESDAY, "14:00"))

    planned = rows(appointment)
    assert planned[ReminderKind.BEFORE_2H][1] == lisbon(WEDNESDAY, "12:00")
    assert planned[ReminderKind.CONFIRMATION][1] == NOW  # already due: not re-planned
    assert Reminder.objects.filter(appointment=appointment).count() == len(planned)


def test_cancelling_drops_the_pending_reminders(haircut):
    appointment = book(haircut)

    appointment_cancel(appointment=appointment)

    assert {status for status, _ in rows(appointment).values()} == {ReminderStatus.CANCELLED}


def test_an_appointment_awaiting_its_deposit_gets_reminders_once_paid(haircut):
    appointment = book(haircut, status=AppointmentStatus.PENDING_PAYMENT)
    assert rows(appointment) == {}

    appointment_confirm_deposit(appointment=appointment, actor=Actor.payments())

    assert ReminderKind.CONFIRMATION in rows(appointment)


def test_a_no_show_gets_its_follow_up_and_the_rest_stop(haircut):
    appointment = book(haircut)

    after_start = lisbon(WEDNESDAY, "10:30")
    appointment_record_outcome(
        appointment=appointment,
        outcome=AppointmentStatus.NO_SHOW,
        actor=Actor.of_user(owner_of(haircut.business), Role.OWNER),
        now=after_start,
    )

    planned = rows(appointment)
    assert planned[ReminderKind.NO_SHOW] == (ReminderStatus.PENDING, after_start)
    assert planned[ReminderKind.POST_VISIT][0] == ReminderStatus.CANCELLED


def test_a_business_that_switched_a_kind_off_does_not_get_it(salon, haircut):
    ReminderSetting.objects.create(
        business=salon, kind=ReminderKind.BEFORE_2H, enabled=False, offset_minutes=120
    )

    assert ReminderKind.BEFORE_2H not in rows(book(haircut))


def test_planning_twice_never_duplicates_a_kind(haircut):
    appointment = book(haircut)
    from reminders.services import reminders_sync

    reminders_sync(appointment)
    reminders_sync(appointment)

    kinds = list(Reminder.objects.filter(appointment=appointment).values_list("kind", flat=True))
    assert len(kinds) == len(set(kinds))
