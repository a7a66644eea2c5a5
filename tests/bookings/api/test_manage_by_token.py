import datetime as dt

import pytest
import time_machine

from bookings.models import Appointment, AppointmentStatus
from bookings.services import ClientDetails, appointment_create

from .salon import TUESDAY_9
from .widget import book, open_starts

NOT_FOUND = {"detail": "Not found.", "code": "not_found"}


@pytest.fixture
def booked(api, salon) -> dict:
    """Ana's 09:00 appointment, as the booking answered it."""
    response = book(api, salon, TUESDAY_9)
    assert response.status_code == 201
    return response.json()


def test_the_management_link_shows_the_appointment_without_internals(api, booked):
    response = api.get(booked["manage_url"])

    assert response.status_code == 200
    body = response.json()
    assert body == {
        key: value
        for key, value in booked.items()
        if key not in {"manage_token", "manage_url", "payment"}
    }
    # the public id, never the row's primary key or the token's hash
    assert set(body) == {
        "id", "business", "service", "service_name", "start", "end",
        "time_zone", "status", "price", "currency",
    }  # fmt: skip
    assert body["id"] == str(Appointment.objects.get().public_id)


def test_cancelling_frees_the_time_and_a_second_cancel_is_409(api, salon, booked):
    cancelled = api.post(f"{booked['manage_url']}cancel/")
    again = api.post(f"{booked['manage_url']}cancel/")

    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    assert Appointment.objects.get().status == AppointmentStatus.CANCELLED
    assert booked["start"] in open_starts(api, salon)
    assert again.status_code == 409
    assert again.json()["code"] == "not_changeable"


def test_rescheduling_moves_the_appointment_and_frees_the_old_time(api, salon, booked):
    response = api.post(
        f"{booked['manage_url']}reschedule/",
        {"start": "2026-12-02T14:00:00+00:00"},
        content_type="application/json",
    )

    assert response.status_code == 200
    assert response.json()["start"] == "2026-12-02T14:00:00+00:00"
    assert response.json()["end"] == "2026-12-02T14:45:00+00:00"
    assert booked["start"] in open_starts(api, salon)
    # and the same link keeps working for the moved appointment
    assert api.get(booked["manage_url"]).json()["start"] == "2026-12-02T14:00:00+00:00"


def test_rescheduling_to_a_taken_time_is_409_with_alternatives(api, salon, booked):
    taken = TUESDAY_9 + dt.timedelta(hours=3)
    appointment_create(
        service=salon.service, start=taken, client=ClientDetails("Rui", "rui@example.com")
    )

    response = api.post(
        f"{booked['manage_url']}reschedule/",
        {"start": taken.isoformat()},
        content_type="application/json",
    )

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "slot_unavailable"
    assert body["alternatives"]
    assert Appointment.objects.get(client__email="ana@example.com").starts_at == TUESDAY_9


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "start"), ({"start": "2026-12-02T14:00:00"}, "start"), ({"start": ["x"]}, "start")],
)
def test_rescheduling_with_a_bad_start_is_400(api, booked, body, field):
    response = api.post(f"{booked['manage_url']}reschedule/", body, content_type="application/json")

    assert response.status_code == 400
    assert field in response.json()["errors"]


@pytest.mark.parametrize(
    "token",
    [
        "A" * 43,  # the shape of a real token
        "not-a-token",
        "x" * 5000,
        "%00" * 20,
        "%F0%9F%98%80" * 20,
    ],
)
def test_unknown_tokens_answer_404(api, booked, token):
    for suffix in ("", "cancel/", "reschedule/"):
        url = f"/api/v1/manage/{token}/{suffix}"
        response = api.get(url) if not suffix else api.post(url)

        assert response.status_code == 404
        assert response.json() == NOT_FOUND


def test_an_expired_token_answers_exactly_like_an_unknown_one(api, booked):
    unknown = api.get("/api/v1/manage/" + "A" * 43 + "/")

    # when the appointment is over, its link has expired
    with time_machine.travel(dt.datetime(2026, 12, 1, 9, 45, tzinfo=dt.UTC), tick=False):
        expired = api.get(booked["manage_url"])
        cancel = api.post(f"{booked['manage_url']}cancel/")

    assert expired.status_code == cancel.status_code == unknown.status_code == 404
    assert expired.content == cancel.content == unknown.content
    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED


def test_a_started_appointment_cannot_be_cancelled(api, booked):
    with time_machine.travel(dt.datetime(2026, 12, 1, 9, 10, tzinfo=dt.UTC), tick=False):
        response = api.post(f"{booked['manage_url']}cancel/")

    assert response.status_code == 409
    assert response.json()["code"] == "not_changeable"
