import datetime as dt
from decimal import Decimal

import pytest

from bookings.models import Appointment, AppointmentStatus, Client
from bookings.services import ClientDetails, appointment_create
from bookings.tokens import token_hash
from tests.factories import ClientFactory, ServiceFactory

from .salon import TUESDAY_9
from .widget import book, booking_body, open_starts


def test_booking_answers_201_with_the_appointment_and_its_management_link(api, salon):
    response = book(api, salon, TUESDAY_9)

    assert response.status_code == 201
    body = response.json()
    appointment = Appointment.objects.get()
    assert body == {
        "id": str(appointment.public_id),
        "business": salon.business.slug,
        "service": salon.service.pk,
        "service_name": "Haircut",
        "start": "2026-12-01T09:00:00+00:00",
        "end": "2026-12-01T09:45:00+00:00",
        "time_zone": "Europe/Lisbon",
        "status": "confirmed",
        "price": "60.00",
        "currency": "EUR",
        "manage_token": body["manage_token"],
        "manage_url": f"/api/v1/manage/{body['manage_token']}/",
        "payment": None,  # the salon asks no deposit
    }
    assert appointment.manage_token_hash == token_hash(body["manage_token"])
    assert appointment.client.email == "ana@example.com"


def test_the_client_never_sets_the_price(api, salon):
    response = book(api, salon, TUESDAY_9, price="0.01")

    assert response.status_code == 201
    assert response.json()["price"] == "60.00"
    assert Appointment.objects.get().price == Decimal("60.00")


def test_a_start_in_another_offset_books_the_same_instant(api, salon):
    # given 10:00 in Paris, which is 09:00 in Lisbon
    response = book(api, salon, "2026-12-01T10:00:00+01:00")

    assert response.status_code == 201
    assert response.json()["start"] == "2026-12-01T09:00:00+00:00"


def test_a_replay_with_the_same_key_returns_the_identical_body_and_one_appointment(api, salon):
    first = book(api, salon, TUESDAY_9, key="retry-me")

    replay = book(api, salon, TUESDAY_9, key="retry-me")

    assert first.status_code == 201
    assert replay.status_code == 200
    assert replay.json() == first.json()
    assert Appointment.objects.count() == 1


def test_the_same_key_with_a_different_request_is_409_and_books_nothing_more(api, salon):
    book(api, salon, TUESDAY_9, key="used")

    response = book(api, salon, TUESDAY_9 + dt.timedelta(hours=2), key="used")

    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_conflict"
    assert Appointment.objects.count() == 1


@pytest.mark.parametrize("headers", [{}, {"Idempotency-Key": ""}, {"Idempotency-Key": "k" * 256}])
def test_booking_needs_an_idempotency_key_of_1_to_255_characters(api, salon, headers):
    response = api.post(
        f"{salon.base}/appointments/",
        booking_body(salon, TUESDAY_9),
        content_type="application/json",
        headers=headers,
    )

    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["errors"]
    assert not Appointment.objects.exists()


def test_a_missing_key_and_a_bad_body_are_reported_together(api, salon):
    response = api.post(
        f"{salon.base}/appointments/",
        booking_body(salon, "2026-12-01T09:00:00", name=""),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"Idempotency-Key", "start", "name"}


def test_an_idempotency_key_of_255_characters_is_accepted(api, salon):
    response = book(api, salon, TUESDAY_9, key="k" * 255)

    assert response.status_code == 201


def test_a_taken_slot_is_409_with_real_alternatives_that_can_be_booked(api, salon):
    # given someone else booked 09:00
    appointment_create(
        service=salon.service, start=TUESDAY_9, client=ClientDetails("Rui", "rui@example.com")
    )

    # when Ana tries 09:00 too
    refused = book(api, salon, TUESDAY_9)

    # then she hears it was taken, with open alternatives
    assert refused.status_code == 409
    body = refused.json()
    assert body["detail"] == "That time was just taken."
    assert body["code"] == "slot_unavailable"
    alternatives = body["alternatives"]
    assert alternatives
    open_now = open_starts(api, salon)
    assert all(alternative["start"] in open_now for alternative in alternatives)
    assert Appointment.objects.count() == 1
    # and she can book the first of them
    rebooked = book(api, salon, alternatives[0]["start"], key="second-try")
    assert rebooked.status_code == 201
    assert rebooked.json()["start"] == alternatives[0]["start"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "   "}, "name"),
        ({"email": "not-an-email"}, "email"),
        ({"email": "", "phone": ""}, "email"),
        ({"email": "", "phone": "12"}, "phone"),
        ({"name": "x" * 121}, "name"),
        ({"name": "a\x00b"}, "name"),
        ({"phone": "9" * 10_000}, "phone"),
        ({"service": "haircut"}, "service"),
        ({"service": 10**30}, "service"),
        ({"service": None}, "service"),
        ({"start": 1764579600}, "start"),
        ({"start": "tomorrow at nine"}, "start"),
        ({"start": "9999-12-31T23:59:59-23:59"}, "start"),
        ({"start": "0001-01-01T00:00:00+14:00"}, "start"),
        ({"holder": "guessable"}, "holder"),
    ],
)
def test_bad_booking_fields_are_400_field_by_field(api, salon, fields, field):
    response = api.post(
        f"{salon.base}/appointments/",
        booking_body(salon, TUESDAY_9) | fields,
        content_type="application/json",
        headers={"Idempotency-Key": "k"},
    )

    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"]
    assert not Appointment.objects.exists()


def test_a_naive_start_is_400_asking_for_a_utc_offset(api, salon):
    response = book(api, salon, "2026-12-01T09:00:00")

    assert response.status_code == 400
    assert "needs a UTC offset" in response.json()["errors"]["start"][0]


def test_a_phone_in_the_business_country_is_enough(api, salon):
    response = book(api, salon, TUESDAY_9, email="", phone="912 345 678")

    assert response.status_code == 201
    assert Appointment.objects.get().client.phone == "+351912345678"


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[1, 2]",
        "null",
        '"text"',
        "{}",
        '{"service": NaN}',
        "\xff\xfe",
        "[" * 50_000,  # deep enough to exhaust the JSON decoder's stack
        '{"a":' * 10_000,
    ],
)
def test_a_body_that_is_not_a_booking_is_400(api, salon, body):
    response = api.post(
        f"{salon.base}/appointments/",
        body,
        content_type="application/json",
        headers={"Idempotency-Key": "k"},
    )

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_a_body_over_64_kb_is_refused_with_413(api, salon):
    response = book(api, salon, TUESDAY_9, notes="x" * 70_000)

    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert not Appointment.objects.exists()


def test_a_form_encoded_body_is_refused(api, salon):
    response = api.post(
        f"{salon.base}/appointments/",
        {"service": salon.service.pk, "start": TUESDAY_9.isoformat(), "name": "Ana"},
        headers={"Idempotency-Key": "k"},
    )

    assert response.status_code == 415
    assert response["Content-Type"] == "application/json"


def test_a_booking_of_another_business_service_is_404(api, salon):
    elsewhere = ServiceFactory(name="Elsewhere")

    response = book(api, salon, TUESDAY_9, service=elsewhere.pk)

    assert response.status_code == 404
    assert not Appointment.objects.exists()


def test_a_booking_at_an_unknown_business_is_404(api, salon):
    response = api.post(
        "/api/v1/businesses/nobody/appointments/",
        booking_body(salon, TUESDAY_9),
        content_type="application/json",
        headers={"Idempotency-Key": "k"},
    )

    assert response.status_code == 404


def test_a_booked_appointment_is_confirmed(api, salon):
    book(api, salon, TUESDAY_9)

    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED


def test_an_email_and_a_phone_of_two_different_clients_do_not_refuse_an_open_slot(api, salon):
    # given Ana is known by her email, and her phone number belongs to another client's row
    ClientFactory(business=salon.business, name="Ana", email="ana@example.com", phone="")
    ClientFactory(business=salon.business, name="Bo", email="bo@example.com", phone="+351912345678")

    response = book(api, salon, TUESDAY_9, email="ana@example.com", phone="+351912345678")

    # then the open slot is booked for the client found by email, whose phone stays empty
    assert response.status_code == 201, response.json()
    assert Client.objects.get(email="ana@example.com").phone == ""
