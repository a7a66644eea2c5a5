"""The staff's notes on an appointment are written through the core's door, like every other
change: the history records who changed them, and a save that leaves them as they were records
nothing."""

import pytest
from django.urls import reverse

from bookings.actors import Actor, ActorKind
from bookings.models import AppointmentEventKind
from bookings.services import ClientDetails, appointment_create
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import owner_of

pytestmark = pytest.mark.usefixtures("frozen_now")


def change_form(notes: str) -> dict:
    """The dashboard's change form as saved with ``notes``, its start left as it is."""
    return {
        "starts_at_0": f"{WEDNESDAY:%Y-%m-%d}",
        "starts_at_1": "10:00:00",
        "notes": notes,
        "events-TOTAL_FORMS": "0",
        "events-INITIAL_FORMS": "0",
        "reminders-TOTAL_FORMS": "0",
        "reminders-INITIAL_FORMS": "0",
        "_save": "Save",
    }


@pytest.fixture
def booked(salon, haircut):
    return appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("A", "a@x.pt")
    ).appointment


def test_changing_the_notes_in_the_dashboard_records_who_changed_them(login, salon, booked):
    owner = owner_of(salon)
    url = reverse("admin:bookings_appointment_change", args=[booked.pk])

    response = login(owner).post(url, change_form("prefers the window chair"))

    assert response.status_code == 302
    booked.refresh_from_db()
    assert booked.notes == "prefers the window chair"
    note = booked.events.get(kind=AppointmentEventKind.NOTE)
    assert note.actor == Actor(ActorKind.OWNER, owner.pk)


def test_saving_the_notes_unchanged_records_nothing(login, salon, booked):
    url = reverse("admin:bookings_appointment_change", args=[booked.pk])

    response = login(owner_of(salon)).post(url, change_form(""))

    assert response.status_code == 302
    assert list(booked.events.values_list("kind", flat=True)) == [AppointmentEventKind.CREATED]
