"""The API takes an integer only as its schema writes one, and a query parameter only once:
"1.0" and 1.0 are not the integer 1, and of two values given for one parameter neither is
taken quietly (each was accepted before, found by schemathesis)."""

import pytest

from tests.bookings.api.salon import TUESDAY_9

TUESDAY = TUESDAY_9.date().isoformat()

pytestmark = pytest.mark.usefixtures("frozen_now")


def availability(api, salon, query: str):
    return api.get(f"{salon.base}/availability/?{query}")


def test_a_service_id_written_as_a_decimal_is_refused(api, salon):
    response = availability(api, salon, f"service={salon.service.pk}.0&from={TUESDAY}&to={TUESDAY}")

    assert response.status_code == 400
    assert "service" in response.json()["errors"]


def test_a_day_given_twice_is_refused_by_name(api, salon):
    query = f"service={salon.service.pk}&from={TUESDAY}&from={TUESDAY}&to={TUESDAY}"

    response = availability(api, salon, query)

    assert response.status_code == 400
    assert response.json()["errors"]["from"] == ["Give this parameter once."]


def test_the_well_formed_query_still_answers(api, salon):
    response = availability(api, salon, f"service={salon.service.pk}&from={TUESDAY}&to={TUESDAY}")

    assert response.status_code == 200


def test_a_hold_for_a_service_id_sent_as_a_json_float_is_refused(api, salon):
    response = api.post(
        f"{salon.base}/holds/",
        {"service": float(salon.service.pk), "start": TUESDAY_9.isoformat(), "holder": "h" * 20},
        content_type="application/json",
    )

    assert response.status_code == 400
    assert "service" in response.json()["errors"]
