"""Booking by hand in the dashboard's add form: a refused time names the rule it breaks, and an
owner (only an owner) may book a walk-in outside the calendar's rules with a reason that the
appointment's history keeps — never over a full time, never below the floor."""

import datetime as dt

import pytest
from django.urls import reverse

from bookings.actors import Actor
from bookings.errors import InvalidBooking, SlotUnavailable
from bookings.models import Appointment, AppointmentEvent
from bookings.refusal_reasons import RefusalCode
from bookings.services import ClientDetails, appointment_create, hold_slot
from bookings.services.booking import WalkInOverride
from tests.admin_forms import form_errors
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon
from tests.factories import (
    BusinessFactory,
    BusyBlockFactory,
    ClientFactory,
    DateOverrideFactory,
    owner_of,
    staff_of,
)

pytestmark = pytest.mark.usefixtures("frozen_now")

ADD = reverse("admin:bookings_appointment_add")
MONDAY = NOW.date()


def add_form(business, service, client, start: dt.datetime, **extra) -> dict:
    wall = start.astimezone(business.tzinfo)
    return {
        "business": business.pk,
        "service": service.pk,
        "client": client.pk,
        "starts_at_0": f"{wall:%Y-%m-%d}",
        "starts_at_1": f"{wall:%H:%M:%S}",
        "price": "",
        "notes": "",
        "events-TOTAL_FORMS": "0",
        "events-INITIAL_FORMS": "0",
        "reminders-TOTAL_FORMS": "0",
        "reminders-INITIAL_FORMS": "0",
        "_save": "Save",
    } | extra


def walk_in(reason: str = "Walked in; the chair was free") -> dict:
    return {"override": "on", "override_reason": reason}


@pytest.fixture
def owner(salon):
    return owner_of(salon)


@pytest.fixture
def client_row(salon):
    return ClientFactory(business=salon, name="Ana Lopes")


def refusal_on_start(response) -> str:
    assert response.status_code == 200
    [message] = response.context["adminform"].form.errors["starts_at"]
    return message


# --- the refused rule, named on the form ----------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "start", "named"),
    [
        (None, lisbon(WEDNESDAY, "18:00"), "outside opening hours (09:00–17:00 that day)"),
        ("closed", lisbon(WEDNESDAY, "10:00"), "the business is closed that day"),
        ("full", lisbon(WEDNESDAY, "10:00"), "full — the only place is taken"),
        ("notice", lisbon(MONDAY, "09:00"), "within the minimum notice of 2 hours"),
        (None, lisbon(NOW.date() + dt.timedelta(days=31), "10:00"), "beyond the booking horizon"),
        ("busy", lisbon(WEDNESDAY, "10:00"), "marked busy (an event in the connected calendar"),
        ("held", lisbon(WEDNESDAY, "10:00"), "held by a client right now"),
        (None, lisbon(WEDNESDAY, "10:10"), "not on the slot grid"),
    ],
    ids=["outside-hours", "closed", "full", "notice", "horizon", "busy", "held", "off-grid"],
)
def test_the_form_names_the_rule_a_refused_time_breaks_and_books_nothing(
    login, salon, haircut, client_row, setup, start, named
):
    # Given the calendar in the state the rule is about
    before = Appointment.objects.count()
    match setup:
        case "closed":
            DateOverrideFactory(business=salon, date=WEDNESDAY)
        case "full":
            appointment_create(service=haircut, start=start, client=ClientDetails("B", "b@x.pt"))
            before += 1
        case "notice":
            salon.min_notice_minutes = 120
            salon.save()
        case "busy":
            BusyBlockFactory(business=salon, starts_at=start, ends_at=start + dt.timedelta(hours=1))
        case "held":
            hold_slot(service=haircut, start=start, holder="someone-else")

    # When a staff member books that time in the dashboard
    response = login(staff_of(salon)).post(ADD, add_form(salon, haircut, client_row, start))

    # Then the form says which rule, with real alternatives, and nothing is written
    message = refusal_on_start(response)
    assert message.startswith(f"That time cannot be booked: {named}")
    assert "Open nearby:" in message or "No other time is open" in message
    assert Appointment.objects.count() == before


def test_the_named_rule_travels_on_the_core_s_refusal(salon, haircut):
    with pytest.raises(SlotUnavailable) as refusal:
        appointment_create(
            service=haircut, start=lisbon(WEDNESDAY, "18:00"), client=ClientDetails("A", "a@x.pt")
        )

    assert refusal.value.reason.code == RefusalCode.OUTSIDE_HOURS
    assert refusal.value.message == "That time was just taken."  # the API's detail, unchanged
    assert refusal.value.alternatives  # still computed after the refusal


def test_an_owner_is_told_a_walk_in_could_book_an_overridable_time(login, salon, haircut, owner):
    client = ClientFactory(business=salon)

    response = login(owner).post(ADD, add_form(salon, haircut, client, lisbon(WEDNESDAY, "18:00")))

    assert "tick “Walk-in: book outside the rules” and say why" in refusal_on_start(response)


# --- the walk-in override --------------------------------------------------------------------


def test_an_owner_books_a_walk_in_outside_hours_and_the_history_keeps_the_reason(
    login, salon, haircut, owner, client_row
):
    start = lisbon(WEDNESDAY, "18:00")

    response = login(owner).post(
        ADD, add_form(salon, haircut, client_row, start) | walk_in("Came in after closing")
    )

    assert response.status_code == 302
    appointment = Appointment.objects.get()
    assert appointment.starts_at == start
    created = appointment.events.get()
    assert created.actor == Actor.of_user(owner, "owner")
    assert created.data["override"] == "Came in after closing"
    assert created.data["rules_overridden"] == ["outside_hours"]


def test_a_walk_in_may_override_a_busy_block_and_the_minimum_notice(login, salon, haircut, owner):
    start = lisbon(MONDAY, "08:30")  # before opening, inside the hour of notice
    BusyBlockFactory(business=salon, starts_at=start, ends_at=start + dt.timedelta(hours=2))
    client = ClientFactory(business=salon)

    response = login(owner).post(ADD, add_form(salon, haircut, client, start) | walk_in())

    assert response.status_code == 302
    assert AppointmentEvent.objects.get().data["rules_overridden"] == [
        "min_notice",
        "outside_hours",
        "busy",
    ]


def test_a_walk_in_without_a_reason_is_refused_on_the_reason_and_writes_nothing(
    login, salon, haircut, owner, client_row
):
    response = login(owner).post(
        ADD, add_form(salon, haircut, client_row, lisbon(WEDNESDAY, "18:00")) | walk_in("   ")
    )

    assert response.status_code == 200
    form = response.context["adminform"].form
    assert form.errors["override_reason"] == ["Say why this walk-in is booked outside the rules."]
    assert not Appointment.objects.exists()
    assert not AppointmentEvent.objects.exists()


def test_a_walk_in_reason_is_bounded(login, salon, haircut, owner, client_row):
    response = login(owner).post(
        ADD, add_form(salon, haircut, client_row, lisbon(WEDNESDAY, "18:00")) | walk_in("x" * 201)
    )

    assert response.status_code == 200
    assert "at most 200 characters" in " ".join(form_errors(response))
    assert not Appointment.objects.exists()


def test_staff_see_no_walk_in_and_a_forged_one_is_refused_with_nothing_written(
    login, salon, haircut, client_row
):
    staff = login(staff_of(salon))

    page = staff.get(ADD)
    response = staff.post(
        ADD, add_form(salon, haircut, client_row, lisbon(WEDNESDAY, "18:00")) | walk_in()
    )

    assert "override" not in page.context["adminform"].form.fields
    assert "Walk-in" not in page.content.decode()
    assert refusal_on_start(response).startswith(
        "That time cannot be booked: outside opening hours"
    )
    assert not Appointment.objects.exists()


def test_a_walk_in_never_books_over_a_full_time(login, salon, haircut, owner, client_row):
    start = lisbon(WEDNESDAY, "10:00")
    appointment_create(service=haircut, start=start, client=ClientDetails("B", "b@x.pt"))

    response = login(owner).post(ADD, add_form(salon, haircut, client_row, start) | walk_in())

    assert refusal_on_start(response).startswith(
        "That time cannot be booked: full — the only place is taken."
    )
    assert Appointment.objects.count() == 1


def test_a_walk_in_outside_hours_over_a_full_time_names_full(salon, haircut, owner):
    start = lisbon(WEDNESDAY, "18:00")
    appointment_create(
        service=haircut,
        start=start,
        client=ClientDetails("B", "b@x.pt"),
        actor=Actor.of_user(owner, "owner"),
        override=WalkInOverride("first walk-in"),
    )

    with pytest.raises(SlotUnavailable) as refusal:
        appointment_create(
            service=haircut,
            start=start,
            client=ClientDetails("C", "c@x.pt"),
            actor=Actor.of_user(owner, "owner"),
            override=WalkInOverride("second walk-in"),
        )

    assert refusal.value.reason.code == RefusalCode.FULL
    assert Appointment.objects.count() == 1


def test_a_walk_in_never_goes_below_the_price_floor(login, salon, haircut, owner, client_row):
    response = login(owner).post(
        ADD,
        add_form(salon, haircut, client_row, lisbon(WEDNESDAY, "18:00"), price="49.99") | walk_in(),
    )

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["price"] == [
        "49.99 EUR is below the floor of 50.00 EUR for Haircut."
    ]
    assert not Appointment.objects.exists()


@pytest.mark.parametrize("who", ["staff", "owner elsewhere", "assistant", "client"])
def test_the_core_refuses_a_walk_in_from_anyone_but_an_owner_of_the_business(salon, haircut, who):
    actor = {
        "staff": lambda: Actor.of_user(staff_of(salon), "staff"),
        "owner elsewhere": lambda: Actor.of_user(owner_of(BusinessFactory()), "owner"),
        "assistant": Actor.assistant,
        "client": Actor.client,
    }[who]()

    with pytest.raises(InvalidBooking) as refusal:
        appointment_create(
            service=haircut,
            start=lisbon(WEDNESDAY, "18:00"),
            client=ClientDetails("A", "a@x.pt"),
            actor=actor,
            override=WalkInOverride("walked in"),
        )

    assert refusal.value.errors == {
        "override": "Only an owner of this business may book outside the rules."
    }
    assert not Appointment.objects.exists()
