import datetime as dt

from bookings.models import SlotHold
from tests.factories import ServiceFactory

from .salon import TUESDAY_9
from .widget import book, hold, open_starts

NINE = "2026-12-01T09:00:00+00:00"


def test_a_hold_without_a_holder_gets_an_unguessable_one(api, salon, frozen_now):
    response = hold(api, salon, TUESDAY_9)

    assert response.status_code == 201
    body = response.json()
    assert len(body["holder"]) >= 32
    assert body == {
        "holder": body["holder"],
        "service": salon.service.pk,
        "start": NINE,
        "end": "2026-12-01T09:45:00+00:00",
        "expires_at": (frozen_now + dt.timedelta(minutes=10)).isoformat(),
    }
    assert SlotHold.objects.get().holder == body["holder"]


def test_two_holds_without_a_holder_get_different_holders(api, salon):
    first = hold(api, salon, TUESDAY_9).json()["holder"]
    second = hold(api, salon, TUESDAY_9 + dt.timedelta(hours=2)).json()["holder"]

    assert first != second


def test_a_held_slot_is_hidden_from_others_but_not_from_its_holder(api, salon):
    # given a client holds 09:00
    holder = hold(api, salon, TUESDAY_9).json()["holder"]

    # then another client no longer sees 09:00, while the holder still does
    assert NINE not in open_starts(api, salon)
    assert NINE not in open_starts(api, salon, holder="someone-else-entirely")
    assert NINE in open_starts(api, salon, holder=holder)


def test_holding_again_with_the_same_holder_replaces_the_earlier_hold(api, salon):
    holder = hold(api, salon, TUESDAY_9).json()["holder"]

    response = hold(api, salon, TUESDAY_9 + dt.timedelta(hours=3), holder=holder)

    assert response.status_code == 201
    assert response.json()["holder"] == holder
    assert SlotHold.objects.filter(holder=holder).count() == 1
    assert NINE in open_starts(api, salon)


def test_a_slot_held_by_another_client_is_409_with_alternatives(api, salon):
    hold(api, salon, TUESDAY_9)

    response = hold(api, salon, TUESDAY_9)

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "slot_unavailable"
    assert body["alternatives"]
    assert all(alt["start"] in open_starts(api, salon) for alt in body["alternatives"])


def test_a_held_slot_cannot_be_booked_by_another_client_but_can_by_its_holder(api, salon):
    holder = hold(api, salon, TUESDAY_9).json()["holder"]

    taken = book(api, salon, TUESDAY_9, key="other-client", email="bo@example.com")
    booked = book(api, salon, TUESDAY_9, key="holder", holder=holder)

    assert taken.status_code == 409
    assert booked.status_code == 201
    assert not SlotHold.objects.filter(holder=holder).exists()


def test_a_hold_on_a_time_that_is_no_slot_is_409(api, salon):
    response = hold(api, salon, "2026-12-01T09:07:00+00:00")

    assert response.status_code == 409
    assert response.json()["alternatives"][0]["start"] == NINE


def test_a_hold_needs_a_utc_offset(api, salon):
    response = hold(api, salon, "2026-12-01T09:00:00")

    assert response.status_code == 400
    assert "needs a UTC offset" in response.json()["errors"]["start"][0]


def test_a_hold_of_another_business_service_is_404(api, salon):
    elsewhere = ServiceFactory(name="Elsewhere")

    response = hold(api, salon, TUESDAY_9, service=elsewhere.pk)

    assert response.status_code == 404
    assert not SlotHold.objects.exists()
