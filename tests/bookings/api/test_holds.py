import datetime as dt

import pytest

from bookings.models import SlotHold
from tests.factories import ServiceFactory

from .salon import TUESDAY_9
from .widget import book, hold, new_holder, open_starts

NINE = "2026-12-01T09:00:00+00:00"


@pytest.fixture(autouse=True)
def three_holds_per_address(settings):
    """The limit these tests reach for, whatever the environment sets."""
    settings.HOLDS_PER_ADDRESS = 3


def test_a_hold_answers_with_its_holder_slot_and_expiry(api, salon, frozen_now):
    holder = new_holder()

    response = hold(api, salon, TUESDAY_9, holder=holder)

    assert response.status_code == 201
    assert response.json() == {
        "holder": holder,
        "service": salon.service.pk,
        "start": NINE,
        "end": "2026-12-01T09:45:00+00:00",
        "expires_at": (frozen_now + dt.timedelta(minutes=10)).isoformat(),
    }
    assert SlotHold.objects.get().holder == holder


@pytest.mark.parametrize("holder", [None, ""], ids=["missing", "empty"])
def test_a_hold_without_a_holder_is_a_400_naming_the_field(api, salon, holder):
    response = hold(api, salon, TUESDAY_9, holder=holder)

    assert response.status_code == 400
    [message] = response.json()["errors"]["holder"]
    assert message.startswith("Give a holder: 16 to 64 letters, digits, '-' or '_'")
    assert not SlotHold.objects.exists()


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


# --- one client cannot hold the day ---------------------------------------------------------

ONE_CLIENT = "203.0.113.7"
ANOTHER_CLIENT = "198.51.100.20"


def hold_the_allowance(api, salon, address: str = ONE_CLIENT) -> None:
    """Three holds (the limit) of 09:00, 10:00 and 11:00, each under a new holder."""
    for hours in range(3):
        response = hold(api, salon, TUESDAY_9 + dt.timedelta(hours=hours), address=address)
        assert response.status_code == 201, response.json()


def test_one_address_cannot_hold_more_than_the_limit_and_another_still_books(api, salon):
    # Given one address holding its three slots, each under a holder it made up
    hold_the_allowance(api, salon)

    # When it holds a fourth under a fourth holder
    refused = hold(api, salon, TUESDAY_9 + dt.timedelta(hours=3), address=ONE_CLIENT)

    # Then it is refused with a conflict that says why
    assert refused.status_code == 409
    assert refused.json() == {
        "code": "too_many_holds",
        "detail": (
            "This connection already holds 3 slots at this business, the most one client may "
            "hold at once. Book one of them, or wait for a hold to expire, before holding "
            "another."
        ),
    }
    # And another client still holds that time and books it
    holder = new_holder()
    held = hold(
        api, salon, TUESDAY_9 + dt.timedelta(hours=3), address=ANOTHER_CLIENT, holder=holder
    )
    assert held.status_code == 201
    booked = book(api, salon, TUESDAY_9 + dt.timedelta(hours=3), key="honest", holder=holder)
    assert booked.status_code == 201


def test_a_forwarded_for_header_does_not_make_one_address_many(api, salon):
    for hours in range(3):
        response = api.post(
            f"{salon.base}/holds/",
            {
                "service": salon.service.pk,
                "start": (TUESDAY_9 + dt.timedelta(hours=hours)).isoformat(),
                "holder": new_holder(),
            },
            content_type="application/json",
            REMOTE_ADDR=ONE_CLIENT,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{hours + 1}",
        )
        assert response.status_code == 201

    refused = hold(api, salon, TUESDAY_9 + dt.timedelta(hours=3), address=ONE_CLIENT)

    assert refused.status_code == 409
    assert refused.json()["code"] == "too_many_holds"
