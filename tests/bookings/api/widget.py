"""What a booking widget sends: the API calls the tests make, spelled once."""

import datetime as dt
import uuid

from django.test import Client as HttpClient

from .salon import Salon


def booking_body(salon: Salon, start: dt.datetime | str, **fields) -> dict:
    return {
        "service": salon.service.pk,
        "start": start if isinstance(start, str) else start.isoformat(),
        "name": "Ana Silva",
        "email": "ana@example.com",
        **fields,
    }


def book(api: HttpClient, salon: Salon, start: dt.datetime | str, key: str = "key-1", **fields):
    return api.post(
        f"{salon.base}/appointments/",
        booking_body(salon, start, **fields),
        content_type="application/json",
        headers={"Idempotency-Key": key},
    )


def new_holder() -> str:
    """A holder as a widget makes one: random, once per visitor."""
    return uuid.uuid4().hex


def hold(
    api: HttpClient,
    salon: Salon,
    start: dt.datetime | str,
    *,
    address: str = "127.0.0.1",
    **fields,
):
    """POST a hold from the client at ``address`` (REMOTE_ADDR), under a new holder unless
    ``holder`` is given (``holder=None`` sends none)."""
    body = {
        "service": salon.service.pk,
        "start": start if isinstance(start, str) else start.isoformat(),
        "holder": new_holder(),
        **fields,
    }
    if body["holder"] is None:
        del body["holder"]
    return api.post(
        f"{salon.base}/holds/", body, content_type="application/json", REMOTE_ADDR=address
    )


def availability(api: HttpClient, salon: Salon, day: str = "2026-12-01", **params):
    query = {"service": salon.service.pk, "from": day, "to": day, **params}
    return api.get(f"{salon.base}/availability/", query)


def open_starts(api: HttpClient, salon: Salon, day: str = "2026-12-01", **params) -> list[str]:
    response = availability(api, salon, day, **params)
    assert response.status_code == 200, response.json()
    return [slot["start"] for slot in response.json()["slots"]]
