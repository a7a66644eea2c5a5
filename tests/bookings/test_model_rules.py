"""The rules no single-row constraint can hold, kept by the models' ``clean()`` (so by
``full_clean()`` and every model form) and, for appointment history, by a database trigger."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from bookings.actors import Actor, ActorKind
from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    Client,
    DateOverride,
    OpeningHours,
    Role,
)
from tests.admin_forms import add_inline_rows, datetime_fields, form_errors, page_data
from tests.factories import (
    AppointmentEventFactory,
    AppointmentFactory,
    BusinessFactory,
    ClientFactory,
    DateOverrideFactory,
    MembershipFactory,
    OpeningHoursFactory,
    ServiceFactory,
    owner_of,
)

pytestmark = pytest.mark.django_db

T = dt.time
CHRISTMAS = dt.date(2026, 12, 25)
OVERLAP = "These hours overlap other hours on the same day."


def refusal_messages(excinfo) -> list[str]:
    return excinfo.value.messages


def business_change_page(http, business):
    url = reverse("admin:bookings_business_change", args=[business.pk])
    return url, http.get(url)


# --- opening hours do not overlap -------------------------------------------------------------


@pytest.mark.parametrize(
    ("opens_at", "closes_at"),
    [
        pytest.param(T(12), T(14), id="starting inside"),
        pytest.param(T(8), T(10), id="ending inside"),
        pytest.param(T(10), T(11), id="inside"),
        pytest.param(T(8), T(14), id="around"),
        pytest.param(T(9), T(13), id="the same"),
    ],
)
def test_overlapping_opening_hours_are_refused(opens_at, closes_at):
    # Given Monday 09:00-13:00
    existing = OpeningHoursFactory(weekday=0, opens_at=T(9), closes_at=T(13))

    # When more Monday hours overlapping it are validated
    hours = OpeningHours(
        business=existing.business, weekday=0, opens_at=opens_at, closes_at=closes_at
    )

    # Then they are refused
    with pytest.raises(ValidationError) as refused:
        hours.full_clean()
    assert OVERLAP in refusal_messages(refused)


@pytest.mark.parametrize(
    ("opens_at", "closes_at"),
    [
        pytest.param(T(13), T(19), id="starting at its close"),
        pytest.param(T(7), T(9), id="ending at its open"),
    ],
)
def test_adjacent_opening_hours_are_accepted(opens_at, closes_at):
    existing = OpeningHoursFactory(weekday=0, opens_at=T(9), closes_at=T(13))
    hours = OpeningHours(
        business=existing.business, weekday=0, opens_at=opens_at, closes_at=closes_at
    )

    hours.full_clean()


def test_same_opening_hours_on_another_day_or_business_are_accepted():
    existing = OpeningHoursFactory(weekday=0, opens_at=T(9), closes_at=T(13))

    OpeningHours(business=existing.business, weekday=1, opens_at=T(9), closes_at=T(13)).full_clean()
    OpeningHours(business=BusinessFactory(), weekday=0, opens_at=T(9), closes_at=T(13)).full_clean()


def test_opening_hours_do_not_overlap_themselves_when_edited():
    hours = OpeningHoursFactory(weekday=0, opens_at=T(9), closes_at=T(13))
    hours.closes_at = T(14)

    hours.full_clean()


# Hours added together from the dashboard are compared with each other on the week's own page,
# which replaces the saved week: tests/bookings/dashboard/test_hours_grid.py.


# --- a date is either closed or has special hours ---------------------------------------------


def test_special_hours_on_a_closed_date_are_refused():
    closure = DateOverrideFactory(date=CHRISTMAS)
    special = DateOverride(
        business=closure.business, date=CHRISTMAS, opens_at=T(10), closes_at=T(13)
    )

    with pytest.raises(ValidationError) as refused:
        special.full_clean()
    assert "This date is marked closed; remove the closure first." in refusal_messages(refused)


def test_closing_a_date_with_special_hours_is_refused():
    special = DateOverrideFactory(date=CHRISTMAS, opens_at=T(10), closes_at=T(13))
    closure = DateOverride(business=special.business, date=CHRISTMAS)

    with pytest.raises(ValidationError) as refused:
        closure.full_clean()
    assert (
        "This date already has special hours; remove them to close the whole day."
        in refusal_messages(refused)
    )


def test_overlapping_special_hours_on_a_date_are_refused():
    special = DateOverrideFactory(date=CHRISTMAS, opens_at=T(10), closes_at=T(13))
    other = DateOverride(business=special.business, date=CHRISTMAS, opens_at=T(12), closes_at=T(15))

    with pytest.raises(ValidationError) as refused:
        other.full_clean()
    assert "These hours overlap other special hours on the same date." in refusal_messages(refused)


def test_adjacent_special_hours_and_other_dates_are_accepted():
    special = DateOverrideFactory(date=CHRISTMAS, opens_at=T(10), closes_at=T(13))
    business = special.business

    DateOverride(business=business, date=CHRISTMAS, opens_at=T(13), closes_at=T(15)).full_clean()
    DateOverride(business=business, date=CHRISTMAS + dt.timedelta(days=1)).full_clean()
    DateOverride(business=BusinessFactory(), date=CHRISTMAS).full_clean()


def date_override_row(opens_at="", closes_at="", date="2026-12-25"):
    return {"date": date, "opens_at": opens_at, "closes_at": closes_at, "note": ""}


@pytest.mark.parametrize(
    ("saved", "added", "message"),
    [
        pytest.param(
            {},
            date_override_row("10:00", "13:00"),
            "This date is marked closed; remove the closure first.",
            id="special hours on a closed date",
        ),
        pytest.param(
            {"opens_at": T(10), "closes_at": T(13)},
            date_override_row(),
            "This date already has special hours; remove them to close the whole day.",
            id="closing a date with special hours",
        ),
    ],
)
def test_business_form_refuses_mixing_closed_and_special_hours(login, saved, added, message):
    business = BusinessFactory()
    DateOverrideFactory(business=business, date=CHRISTMAS, **saved)
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    response = http.post(url, add_inline_rows(page_data(page), "date_overrides", added))

    assert response.status_code == 200
    assert message in form_errors(response)
    assert DateOverride.objects.count() == 1


def test_business_form_refuses_closed_and_special_hours_added_together(login):
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    data = add_inline_rows(
        page_data(page), "date_overrides", date_override_row(), date_override_row("10:00", "13:00")
    )
    response = http.post(url, data)

    assert response.status_code == 200
    assert not DateOverride.objects.exists()


# --- an appointment stays inside its business -------------------------------------------------


def test_appointment_with_another_business_service_is_refused():
    appointment = AppointmentFactory.build(business=BusinessFactory())
    appointment.service = ServiceFactory()  # of another business
    appointment.client = ClientFactory(business=appointment.business)

    with pytest.raises(ValidationError) as refused:
        appointment.full_clean()
    assert refused.value.message_dict["service"] == ["This service belongs to another business."]
    assert "client" not in refused.value.message_dict


def test_appointment_with_another_business_client_is_refused():
    business = BusinessFactory()
    appointment = AppointmentFactory.build(
        business=business, service=ServiceFactory(business=business), client=ClientFactory()
    )

    with pytest.raises(ValidationError) as refused:
        appointment.full_clean()
    assert refused.value.message_dict["client"] == ["This client belongs to another business."]
    assert "service" not in refused.value.message_dict


def test_appointment_within_its_business_is_accepted():
    business = BusinessFactory()
    appointment = AppointmentFactory.build(
        business=business,
        service=ServiceFactory(business=business),
        client=ClientFactory(business=business),
    )

    appointment.full_clean()


@pytest.mark.parametrize(
    ("foreign", "message"),
    [
        pytest.param("service", "This service belongs to another business.", id="service"),
        pytest.param("client", "This client belongs to another business.", id="client"),
    ],
)
def test_appointment_form_refuses_another_business_service_or_client(login, foreign, message):
    # Given an owner of two businesses, who is offered both businesses' services and clients
    home, other = BusinessFactory(), BusinessFactory()
    user = owner_of(home)
    MembershipFactory(user=user, business=other, role=Role.OWNER)
    http = login(user)
    chosen = {
        "service": ServiceFactory(business=home),
        "client": ClientFactory(business=home),
    }
    chosen[foreign] = (ServiceFactory if foreign == "service" else ClientFactory)(business=other)

    # When they book at one business with the other's service (or client)
    add_url = reverse("admin:bookings_appointment_add")
    data = page_data(http.get(add_url))
    starts_at = dt.datetime(2026, 12, 2, 10)  # noqa: DTZ001 - wall-clock time, as typed
    data.update(
        business=str(home.pk),
        service=str(chosen["service"].pk),
        client=str(chosen["client"].pk),
        status="confirmed",
        price="60.00",
        **datetime_fields("starts_at", starts_at),
        **datetime_fields("ends_at", starts_at + dt.timedelta(minutes=45)),
    )
    response = http.post(add_url, data)

    # Then the form refuses it on that field and nothing is booked
    assert response.status_code == 200
    assert response.context["adminform"].form.errors[foreign] == [message]
    assert not Appointment.objects.exists()


# --- clients: phone in E.164, email in lower case ---------------------------------------------


# The field's max_length (16, the size of an E.164 number) is checked on what was typed, before
# clean() normalises it: a valid number typed with spaces or brackets past 16 characters is refused.


@pytest.mark.parametrize(
    ("country", "typed", "stored"),
    [
        pytest.param("PT", "912 345 678", "+351912345678", id="PT national"),
        pytest.param("PT", "+351 912-345-678", "+351912345678", id="PT international"),
        pytest.param("PT", "00351912345678", "+351912345678", id="PT 00 prefix"),
        pytest.param("US", "(415) 555-2671", "+14155552671", id="US national"),
        pytest.param("PT", "+44 20 7946 0958", "+442079460958", id="foreign in a PT business"),
        pytest.param("PT", "00351 912 345 678", "+351912345678", id="PT 00 prefix spaced"),
        pytest.param("US", "+1 (415) 555-2671", "+14155552671", id="US formatted"),
    ],
)
def test_client_phone_is_stored_in_e164_read_in_the_business_country(country, typed, stored):
    client = Client(business=BusinessFactory(country=country), name="Ana", phone=typed)

    client.full_clean()

    assert client.phone == stored


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param("12345", id="too short"),
        pytest.param("call me", id="not a number"),
        pytest.param("+351 123", id="invalid for its country"),
    ],
)
def test_invalid_client_phone_is_refused_on_the_phone_field(typed):
    client = Client(business=BusinessFactory(country="PT"), name="Ana", phone=typed)

    with pytest.raises(ValidationError) as refused:
        client.full_clean()
    assert "phone" in refused.value.message_dict
    assert typed in refused.value.message_dict["phone"][0]


def test_client_email_is_stored_lowercased():
    client = Client(business=BusinessFactory(), name="Ana", email="Ana.Silva@Example.COM")

    client.full_clean()
    client.save()

    client.refresh_from_db()
    assert client.email == "ana.silva@example.com"


def post_new_client(http, business, **fields):
    add_url = reverse("admin:bookings_client_add")
    data = page_data(http.get(add_url))
    data.update(business=str(business.pk), name="Ana", email="", phone="")
    data.update(fields)
    return http.post(add_url, data)


def test_client_form_stores_the_phone_in_e164(login):
    # Given a Portuguese business
    business = BusinessFactory(country="PT")
    http = login(owner_of(business))

    # When the owner types a national number
    response = post_new_client(http, business, phone="912 345 678")

    # Then the client is saved with the E.164 form
    assert response.status_code == 302
    assert Client.objects.get().phone == "+351912345678"


def test_client_form_stores_a_formatted_phone_longer_than_e164_in_e164(login):
    business = BusinessFactory(country="US")
    http = login(owner_of(business))

    response = post_new_client(http, business, phone="+1 (415) 555-2671")

    assert response.status_code == 302
    assert Client.objects.get().phone == "+14155552671"


def test_client_form_refuses_an_invalid_phone_on_the_phone_field(login):
    business = BusinessFactory(country="PT")
    http = login(owner_of(business))

    response = post_new_client(http, business, phone="12345")

    assert response.status_code == 200
    phone_errors = response.context["adminform"].form.errors["phone"]
    assert phone_errors == ["'12345' is not a valid phone number for PT."]
    assert not Client.objects.exists()


def test_client_form_stores_the_email_lowercased(login):
    business = BusinessFactory()
    http = login(owner_of(business))

    response = post_new_client(http, business, email=" Ana@Example.COM ")

    assert response.status_code == 302
    assert Client.objects.get().email == "ana@example.com"


# --- appointment history is append-only -------------------------------------------------------

APPEND_ONLY = "appointment history is append-only"


def test_changing_a_saved_history_event_is_refused():
    event = AppointmentEventFactory(actor_kind=ActorKind.SYSTEM)
    event.actor = Actor.client()

    with pytest.raises(ValidationError, match="append-only"):
        event.save()
    event.refresh_from_db()
    assert event.actor == Actor.system()


def test_deleting_a_history_event_is_refused():
    event = AppointmentEventFactory()

    with pytest.raises(ValidationError, match="append-only"):
        event.delete()
    assert AppointmentEvent.objects.filter(pk=event.pk).exists()


def test_adding_history_events_is_allowed():
    event = AppointmentEventFactory()

    AppointmentEventFactory(
        appointment=event.appointment, kind=AppointmentEventKind.NOTE, actor=Actor.assistant()
    )

    assert event.appointment.events.count() == 2


@pytest.mark.parametrize(
    "statement",
    [
        pytest.param("UPDATE bookings_appointmentevent SET actor_kind = 'client'", id="update"),
        pytest.param("DELETE FROM bookings_appointmentevent", id="delete"),
    ],
)
def test_raw_sql_changing_history_is_refused_by_the_database(statement):
    # Given a recorded event
    event = AppointmentEventFactory(actor_kind=ActorKind.SYSTEM)

    # When another writer changes the table with plain SQL, past the model
    # Then the database trigger refuses it and the event is intact
    with (
        pytest.raises(IntegrityError, match=APPEND_ONLY),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)
    event.refresh_from_db()
    assert event.actor == Actor.system()


def test_queryset_update_of_history_is_refused_by_the_database():
    event = AppointmentEventFactory(actor_kind=ActorKind.SYSTEM)

    with pytest.raises(IntegrityError, match=APPEND_ONLY), transaction.atomic():
        AppointmentEvent.objects.filter(pk=event.pk).update(actor_kind=ActorKind.CLIENT)
    event.refresh_from_db()
    assert event.actor == Actor.system()


def test_queryset_delete_of_history_is_refused_by_the_database():
    event = AppointmentEventFactory()

    with pytest.raises(IntegrityError, match=APPEND_ONLY), transaction.atomic():
        AppointmentEvent.objects.filter(pk=event.pk).delete()
    assert AppointmentEvent.objects.filter(pk=event.pk).exists()
