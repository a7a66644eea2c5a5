import pytest

from bookings.services import ClientDetails, appointment_create
from tests.factories import ServiceFactory

from .salon import TUESDAY_9, salon_in
from .widget import availability, open_starts


def test_availability_lists_open_slots_in_the_business_zone_with_its_offset(api, salon):
    response = availability(api, salon, "2026-12-01")

    assert response.status_code == 200
    body = response.json()
    assert body["time_zone"] == "Europe/Lisbon"
    assert body["service"] == salon.service.pk
    assert body["slots"][0] == {
        "start": "2026-12-01T09:00:00+00:00",
        "end": "2026-12-01T09:45:00+00:00",
    }
    assert body["slots"][-1]["start"] == "2026-12-01T16:15:00+00:00"
    assert len(body["slots"]) == 30


def test_availability_writes_times_with_the_offset_of_a_zone_west_of_utc(api, db, frozen_now):
    # given a business in New York, where 09:00 in December is 14:00 UTC
    new_york = salon_in("America/New_York", country="US", currency="USD")

    starts = open_starts(api, new_york, "2026-12-01")

    assert starts[0] == "2026-12-01T09:00:00-05:00"


def test_availability_spans_several_days(api, salon):
    response = availability(api, salon, "2026-12-01", to="2026-12-03")

    starts = [slot["start"] for slot in response.json()["slots"]]
    assert {start[:10] for start in starts} == {"2026-12-01", "2026-12-02", "2026-12-03"}


def test_availability_leaves_out_a_booked_slot(api, salon):
    # given the 09:00 slot is booked
    appointment_create(
        service=salon.service, start=TUESDAY_9, client=ClientDetails("Rui", "rui@example.com")
    )

    starts = open_starts(api, salon)

    # then 09:00 and every start overlapping it are gone, 09:45 is open
    assert starts[0] == "2026-12-01T09:45:00+00:00"


def test_availability_requires_service_from_and_to(api, salon):
    response = api.get(f"{salon.base}/availability/")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert set(body["errors"]) == {"service", "from", "to"}


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"from": "2026-12-02", "to": "2026-12-01"}, "to"),
        ({"from": "2026-12-01", "to": "2027-02-01"}, "to"),  # 63 days
        ({"from": "2026-13-01", "to": "2026-12-01"}, "from"),
        ({"from": "0001-01-01", "to": "0001-01-02"}, "from"),
        ({"from": "9999-12-30", "to": "9999-12-31"}, "from"),
        ({"service": "haircut"}, "service"),
        ({"service": "99999999999999999999999"}, "service"),
        ({"holder": "short"}, "holder"),
    ],
)
def test_availability_refuses_bad_parameters_field_by_field(api, salon, params, field):
    response = availability(api, salon, **params)

    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_availability_accepts_a_range_of_62_days(api, salon):
    response = availability(api, salon, "2026-12-01", to="2027-01-31")

    assert response.status_code == 200


def test_availability_of_another_business_service_is_404(api, salon):
    elsewhere = ServiceFactory(name="Elsewhere")

    response = availability(api, salon, service=elsewhere.pk)

    assert response.status_code == 404


def test_availability_of_an_inactive_service_is_404(api, salon):
    retired = ServiceFactory(business=salon.business, name="Retired", is_active=False)

    response = availability(api, salon, service=retired.pk)

    assert response.status_code == 404


def test_availability_of_an_unknown_business_is_404(api, salon):
    response = api.get(
        "/api/v1/businesses/nobody/availability/",
        {"service": salon.service.pk, "from": "2026-12-01", "to": "2026-12-01"},
    )

    assert response.status_code == 404


def test_availability_before_today_is_empty_not_an_error(api, salon):
    response = availability(api, salon, "2025-01-01", to="2025-01-31")

    assert response.status_code == 200
    assert response.json()["slots"] == []
