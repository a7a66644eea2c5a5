"""Owners see each appointment's reminders, record attended / no-show, and read their
no-show rate."""

import pytest
import time_machine
from django.urls import reverse

from bookings.models import AppointmentStatus
from bookings.services import ClientDetails
from orchestration.appointment_changes import appointment_create
from reminders.models import Reminder, ReminderKind, ReminderStatus
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import owner_of

pytestmark = pytest.mark.usefixtures("frozen_now")


def book(haircut, wall, email):
    return appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, wall), client=ClientDetails("C", email)
    ).appointment


def test_the_appointment_page_lists_its_reminders_read_only(login, salon, haircut):
    appointment = book(haircut, "10:00", "a@example.com")

    page = login(owner_of(salon)).get(
        reverse("admin:bookings_appointment_change", args=[appointment.pk])
    )

    [reminders] = [
        f for f in page.context["inline_admin_formsets"] if f.formset.prefix == "reminders"
    ]
    assert {form.instance.kind for form in reminders.formset.forms} >= {ReminderKind.CONFIRMATION}
    assert reminders.has_change_permission is False


def test_marking_no_show_records_it_and_plans_the_follow_up(login, salon, haircut):
    owner = owner_of(salon)
    appointment = book(haircut, "10:00", "a@example.com")

    with time_machine.travel(lisbon(WEDNESDAY, "10:30"), tick=False):
        response = login(owner).post(
            reverse("admin:bookings_appointment_changelist"),
            {"action": "mark_no_show", "_selected_action": [appointment.pk]},
        )

    assert response.status_code == 302
    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.NO_SHOW
    follow_up = Reminder.objects.get(appointment=appointment, kind=ReminderKind.NO_SHOW)
    assert follow_up.status == ReminderStatus.PENDING


def test_an_outcome_before_the_visit_is_refused_with_a_reason(login, salon, haircut):
    appointment = book(haircut, "10:00", "a@example.com")

    response = login(owner_of(salon)).post(
        reverse("admin:bookings_appointment_changelist"),
        {"action": "mark_attended", "_selected_action": [appointment.pk]},
        follow=True,
    )

    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert "The visit has not started yet." in response.content.decode()


def test_the_business_list_shows_the_no_show_rate(login, salon, haircut):
    owner = owner_of(salon)
    came = book(haircut, "10:00", "a@example.com")
    missed = book(haircut, "12:00", "b@example.com")
    http = login(owner)
    with time_machine.travel(lisbon(WEDNESDAY, "16:00"), tick=False):
        for appointment, action in ((came, "mark_attended"), (missed, "mark_no_show")):
            http.post(
                reverse("admin:bookings_appointment_changelist"),
                {"action": action, "_selected_action": [appointment.pk]},
            )

    page = http.get(reverse("admin:bookings_business_changelist"))

    assert "50% of 2" in page.content.decode()
