"""Past visits are marked attended or no-show with a button on the calendar and on the
appointment's page: only once the visit has started, through the core's service with the
dashboard user as the actor, refusals shown as messages, another business's visit a 404."""

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from bookings.actors import Actor, ActorKind
from bookings.models import AppointmentEventKind, AppointmentStatus
from dashboard.admin.calendar import outcomes_to_offer
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon
from tests.factories import AppointmentFactory, BusinessFactory, owner_of

pytestmark = pytest.mark.usefixtures("frozen_now")

CALENDAR = reverse("admin:bookings_appointment_calendar")
SUNDAY = dt.date(2026, 11, 29)


def outcome_url(appointment) -> str:
    return reverse("admin:bookings_appointment_outcome", args=[appointment.pk])


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def past_visit(salon):
    return AppointmentFactory(business=salon, starts_at=lisbon(SUNDAY, "10:00"))


@pytest.fixture
def future_visit(salon):
    return AppointmentFactory(business=salon, starts_at=lisbon(WEDNESDAY, "10:00"))


def test_buttons_are_offered_once_a_confirmed_visit_has_started():
    started, later = NOW - dt.timedelta(minutes=1), NOW + dt.timedelta(minutes=1)

    assert [v for v, _ in outcomes_to_offer("confirmed", started, NOW)] == ["attended", "no_show"]
    assert outcomes_to_offer("confirmed", later, NOW) == []
    assert [v for v, _ in outcomes_to_offer("attended", started, NOW)] == ["no_show"]
    assert outcomes_to_offer("pending_payment", started, NOW) == []
    assert outcomes_to_offer("cancelled", started, NOW) == []


def test_the_calendar_shows_the_buttons_on_past_visits_only(login, salon, past_visit, future_visit):
    http = login(owner_of(salon))

    past_day = http.get(CALENDAR, {"date": SUNDAY.isoformat()}).content.decode()
    future_day = http.get(CALENDAR, {"date": WEDNESDAY.isoformat()}).content.decode()

    assert f'action="{outcome_url(past_visit)}"' in past_day
    assert 'value="no_show"' in past_day
    assert outcome_url(future_visit) not in future_day
    assert 'name="outcome"' not in future_day


def test_marking_attended_records_it_through_the_service_and_returns_to_the_calendar(
    login, salon, past_visit
):
    owner = owner_of(salon)
    back = f"{CALENDAR}?date={SUNDAY.isoformat()}"

    response = login(owner).post(outcome_url(past_visit), {"outcome": "attended", "next": back})

    assert response.status_code == 302
    assert response["Location"] == back
    past_visit.refresh_from_db()
    assert past_visit.status == AppointmentStatus.ATTENDED
    event = past_visit.events.get(kind=AppointmentEventKind.ATTENDED)
    assert event.actor == Actor(ActorKind.OWNER, owner.pk)
    assert any("marked attended" in m for m in messages_of(response))


def test_a_visit_still_to_come_is_refused_with_a_message(login, salon, future_visit):
    response = login(owner_of(salon)).post(outcome_url(future_visit), {"outcome": "no_show"})

    future_visit.refresh_from_db()
    assert future_visit.status == AppointmentStatus.CONFIRMED
    assert response["Location"] == reverse(
        "admin:bookings_appointment_change", args=[future_visit.pk]
    )
    assert any("The visit has not started yet." in m for m in messages_of(response))


def test_an_unknown_outcome_is_named_and_changes_nothing(login, salon, past_visit):
    response = login(owner_of(salon)).post(outcome_url(past_visit), {"outcome": "teleported"})

    past_visit.refresh_from_db()
    assert past_visit.status == AppointmentStatus.CONFIRMED
    assert "Choose “Attended” or “No-show”." in messages_of(response)


def test_another_businesss_visit_is_a_404_and_stays_as_it_was(login, salon, past_visit):
    stranger = owner_of(BusinessFactory())

    response = login(stranger).post(outcome_url(past_visit), {"outcome": "no_show"})

    assert response.status_code == 404
    past_visit.refresh_from_db()
    assert past_visit.status == AppointmentStatus.CONFIRMED


def test_the_button_only_posts(login, salon, past_visit):
    assert login(owner_of(salon)).get(outcome_url(past_visit)).status_code == 405


def test_a_return_address_on_another_site_is_not_followed(login, salon, past_visit):
    response = login(owner_of(salon)).post(
        outcome_url(past_visit), {"outcome": "attended", "next": "https://evil.example/"}
    )

    assert response["Location"] == reverse(
        "admin:bookings_appointment_change", args=[past_visit.pk]
    )


def test_the_appointment_page_offers_the_buttons_once_the_visit_has_started(
    login, salon, past_visit, future_visit
):
    http = login(owner_of(salon))

    past_page = http.get(reverse("admin:bookings_appointment_change", args=[past_visit.pk]))
    future_page = http.get(reverse("admin:bookings_appointment_change", args=[future_visit.pk]))

    assert f'action="{outcome_url(past_visit)}"' in past_page.content.decode()
    assert 'name="outcome"' not in future_page.content.decode()
    calendar_link = f"{CALENDAR}?business={salon.pk}&amp;date={WEDNESDAY.isoformat()}"
    assert calendar_link in future_page.content.decode()
