"""Owners book, move and cancel appointments in the dashboard through the core's services."""

import pytest
from django.urls import reverse

from bookings.models import Appointment, AppointmentEventKind, AppointmentStatus
from bookings.services import ClientDetails, appointment_create
from tests.admin_forms import form_errors
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import ClientFactory, owner_of

pytestmark = pytest.mark.usefixtures("frozen_now")


def add_form(business, service, client, wall: str, **extra) -> dict:
    return {
        "business": business.pk,
        "service": service.pk,
        "client": client.pk,
        "starts_at_0": f"{WEDNESDAY:%Y-%m-%d}",
        "starts_at_1": f"{wall}:00",
        "price": "",
        "notes": "",
        "events-TOTAL_FORMS": "0",
        "events-INITIAL_FORMS": "0",
        "reminders-TOTAL_FORMS": "0",
        "reminders-INITIAL_FORMS": "0",
        "_save": "Save",
    } | extra


def test_an_owner_books_through_the_dashboard_with_the_core_rules(login, salon, haircut):
    owner = owner_of(salon)
    client = ClientFactory(business=salon)

    response = login(owner).post(
        reverse("admin:bookings_appointment_add"), add_form(salon, haircut, client, "10:00")
    )

    assert response.status_code == 302
    appointment = Appointment.objects.get()
    assert appointment.starts_at == lisbon(WEDNESDAY, "10:00")
    assert appointment.price == haircut.list_price
    assert (appointment.occupied_from, appointment.seat) == (appointment.starts_at, 1)
    assert appointment.events.get().actor == f"owner:{owner.pk}"


def test_the_dashboard_refuses_a_taken_time_with_alternatives_and_writes_nothing(
    login, salon, haircut
):
    appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("A", "a@x.pt")
    )
    client = ClientFactory(business=salon)

    response = login(owner_of(salon)).post(
        reverse("admin:bookings_appointment_add"), add_form(salon, haircut, client, "10:00")
    )

    assert response.status_code == 200
    [message] = form_errors(response)
    assert "That time cannot be booked" in message
    assert "Open nearby: Wed 02 Dec 09:00, Wed 02 Dec 11:00" in message
    assert Appointment.objects.count() == 1


def test_the_dashboard_refuses_a_negative_price(login, salon, haircut):
    client = ClientFactory(business=salon)

    response = login(owner_of(salon)).post(
        reverse("admin:bookings_appointment_add"),
        add_form(salon, haircut, client, "10:00", price="-1.00"),
    )

    assert response.status_code == 200
    assert "The agreed price cannot be negative." in form_errors(response)
    assert not Appointment.objects.exists()


def test_changing_the_start_in_the_dashboard_reschedules_through_the_core(login, salon, haircut):
    appointment = appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("A", "a@x.pt")
    ).appointment
    url = reverse("admin:bookings_appointment_change", args=[appointment.pk])

    response = login(owner_of(salon)).post(
        url,
        {
            "starts_at_0": f"{WEDNESDAY:%Y-%m-%d}",
            "starts_at_1": "14:00:00",
            "notes": "moved by phone",
            "events-TOTAL_FORMS": "1",
            "events-INITIAL_FORMS": "1",
            "events-0-id": appointment.events.get().pk,
            "events-0-appointment": appointment.pk,
            "reminders-TOTAL_FORMS": "0",
            "reminders-INITIAL_FORMS": "0",
            "_save": "Save",
        },
    )

    assert response.status_code == 302
    appointment.refresh_from_db()
    assert appointment.starts_at == lisbon(WEDNESDAY, "14:00")
    assert appointment.ends_at == lisbon(WEDNESDAY, "15:00")
    assert appointment.notes == "moved by phone"
    assert appointment.events.filter(kind=AppointmentEventKind.RESCHEDULED).exists()


def test_the_cancel_action_cancels_through_the_core(login, salon, haircut):
    appointment = appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("A", "a@x.pt")
    ).appointment

    response = login(owner_of(salon)).post(
        reverse("admin:bookings_appointment_changelist"),
        {"action": "cancel_selected", "_selected_action": [appointment.pk]},
    )

    assert response.status_code == 302
    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.CANCELLED
    assert appointment.events.filter(kind=AppointmentEventKind.CANCELLED).exists()


def test_an_owner_of_one_business_finds_it_chosen_on_a_new_row(login, salon):
    page = login(owner_of(salon)).get(reverse("admin:bookings_service_add"))

    assert page.context["adminform"].form.initial["business"] == str(salon.pk)
