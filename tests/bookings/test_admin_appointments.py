"""Owners and staff book, move and cancel appointments in the dashboard through the core's
services, and the history names each of them as who they are at the business."""

import pytest
from django.urls import reverse

from bookings.actors import Actor, ActorKind
from bookings.models import Appointment, AppointmentEventKind, AppointmentStatus, Role
from bookings.services import ClientDetails, appointment_cancel, appointment_create
from tests.admin_forms import form_errors
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import (
    BusinessFactory,
    ClientFactory,
    MembershipFactory,
    UserFactory,
    owner_of,
    staff_of,
)

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
    assert appointment.events.get().actor == Actor(ActorKind.OWNER, owner.pk)


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


# --- the price floor, and who the history says acted ----------------------------------------


def test_staff_booking_below_the_floor_gets_the_error_on_the_price_and_books_nothing(
    login, salon, haircut
):
    # Given a staff member, and the haircut's floor of 50.00 (list price 60.00)
    staff = staff_of(salon)
    client = ClientFactory(business=salon)

    # When they book it at 49.99 in the dashboard's form
    response = login(staff).post(
        reverse("admin:bookings_appointment_add"),
        add_form(salon, haircut, client, "10:00", price="49.99"),
    )

    # Then the form comes back with the floor's reason on the price field, and nothing is booked
    assert response.status_code == 200
    price_errors = response.context["adminform"].form.errors["price"]
    assert price_errors == ["49.99 EUR is below the floor of 50.00 EUR for Haircut."]
    assert not Appointment.objects.exists()


def test_a_staff_booking_is_recorded_as_staff_with_that_user(login, salon, haircut):
    staff = staff_of(salon, user__username="maria")
    client = ClientFactory(business=salon)

    response = login(staff).post(
        reverse("admin:bookings_appointment_add"),
        add_form(salon, haircut, client, "10:00", price="50.00"),  # at the floor: allowed
    )

    assert response.status_code == 302
    appointment = Appointment.objects.get()
    assert appointment.price == haircut.price_floor
    event = appointment.events.get()
    assert event.actor == Actor(ActorKind.STAFF, staff.pk)
    page = login(staff).get(reverse("admin:bookings_appointment_change", args=[appointment.pk]))
    assert "Staff: maria" in page.content.decode()


def test_the_role_is_the_one_held_at_the_appointment_s_business(login, salon, haircut):
    # Given someone who owns another business and works as staff at this one
    person = owner_of(BusinessFactory())
    MembershipFactory(user=person, business=salon, role=Role.STAFF)
    appointment = appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("A", "a@x.pt")
    ).appointment

    # When they cancel this business's appointment from the list
    login(person).post(
        reverse("admin:bookings_appointment_changelist"),
        {"action": "cancel_selected", "_selected_action": [appointment.pk]},
    )

    # Then the history says staff, not owner
    cancelled = appointment.events.get(kind=AppointmentEventKind.CANCELLED)
    assert cancelled.actor == Actor(ActorKind.STAFF, person.pk)


def test_an_ordina_administrator_without_a_membership_is_recorded_as_operator(
    login, salon, haircut
):
    admin_user = UserFactory(is_superuser=True, username="root")
    client = ClientFactory(business=salon)

    login(admin_user).post(
        reverse("admin:bookings_appointment_add"), add_form(salon, haircut, client, "10:00")
    )

    assert Appointment.objects.get().events.get().actor == Actor(ActorKind.OPERATOR, admin_user.pk)


def test_the_history_reads_as_who_acted(login, salon, haircut):
    # Given an appointment booked by the client, cancelled by the assistant
    appointment = appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("A", "a@x.pt")
    ).appointment
    appointment_cancel(appointment=appointment, actor=Actor.assistant())

    # When an owner opens it
    page = login(owner_of(salon)).get(
        reverse("admin:bookings_appointment_change", args=[appointment.pk])
    )

    # Then each history row says who, in words
    text = page.content.decode()
    assert "The client" in text
    assert "The assistant" in text
