"""How many slots one client may hold: one per holder, HOLDS_PER_ADDRESS per client address and
business, counting only live holds — so one address cannot hide a day from everyone else."""

import datetime as dt
import hashlib

import pytest
import time_machine
from django.db import IntegrityError, transaction

from bench.harness import open_salon
from bookings.addresses import address_hash, client_network
from bookings.errors import TooManyHolds
from bookings.models import SlotHold
from bookings.services import ClientDetails, appointment_create, hold_slot
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon
from tests.factories import ServiceFactory, SlotHoldFactory

pytestmark = pytest.mark.usefixtures("frozen_now")

ONE_ADDRESS = "203.0.113.7"
ANOTHER_ADDRESS = "198.51.100.20"
FIRST_FOUR = ["09:00", "10:00", "11:00", "12:00"]


@pytest.fixture(autouse=True)
def three_holds_per_address(settings):
    settings.HOLDS_PER_ADDRESS = 3


def hold(service, wall: str, holder: str, address: str | None = ONE_ADDRESS, **kwargs):
    return hold_slot(
        service=service,
        start=lisbon(WEDNESDAY, wall),
        holder=holder,
        address=address,
        **kwargs,
    )


def test_one_address_cannot_hold_more_than_the_limit_and_is_told_why(haircut):
    # Given one address holding three slots under three holders it made up
    for number, wall in enumerate(FIRST_FOUR[:3]):
        hold(haircut, wall, holder=f"visitor-{number}")

    # When it asks for a fourth under a fourth holder
    with pytest.raises(TooManyHolds) as refusal:
        hold(haircut, "12:00", holder="visitor-3")

    # Then it is refused, saying why, and 12:00 is not held
    assert "already holds 3 slots at this business" in refusal.value.message
    assert "wait for a hold to expire" in refusal.value.message
    assert SlotHold.objects.count() == 3
    assert not SlotHold.objects.filter(starts_at=lisbon(WEDNESDAY, "12:00")).exists()


def test_another_address_still_holds_and_books_the_slot_the_first_could_not_take(haircut):
    for number, wall in enumerate(FIRST_FOUR[:3]):
        hold(haircut, wall, holder=f"visitor-{number}")
    with pytest.raises(TooManyHolds):
        hold(haircut, "12:00", holder="visitor-3")

    held = hold(haircut, "12:00", holder="honest-visitor", address=ANOTHER_ADDRESS)
    booked = appointment_create(
        service=haircut,
        start=held.starts_at,
        client=ClientDetails(name="Bea Costa", email="bea@example.com"),
        holder="honest-visitor",
    )

    assert booked.appointment.starts_at == lisbon(WEDNESDAY, "12:00")


def test_only_live_holds_count_expired_ones_free_the_allowance(haircut):
    for number, wall in enumerate(FIRST_FOUR[:3]):
        hold(haircut, wall, holder=f"visitor-{number}")

    # Ten minutes on, the three have expired (not yet swept away) and no longer count.
    later = NOW + dt.timedelta(minutes=10, seconds=1)
    with time_machine.travel(later, tick=False):
        fourth = hold(haircut, "12:00", holder="visitor-3", now=later)

    assert fourth.expires_at == later + dt.timedelta(minutes=10)
    assert SlotHold.objects.filter(expires_at__gt=later).count() == 1


def test_holding_again_under_the_same_holder_replaces_its_hold_even_at_the_limit(haircut):
    for number, wall in enumerate(FIRST_FOUR[:3]):
        hold(haircut, wall, holder=f"visitor-{number}")

    moved = hold(haircut, "12:00", holder="visitor-0")

    assert moved.starts_at == lisbon(WEDNESDAY, "12:00")
    assert SlotHold.objects.count() == 3


def test_the_allowance_is_per_business(salon, haircut):
    other_service = ServiceFactory(business=open_salon(), name="Massage", duration_minutes=60)
    for number, wall in enumerate(FIRST_FOUR[:3]):
        hold(haircut, wall, holder=f"visitor-{number}")

    elsewhere = hold(other_service, "09:00", holder="visitor-elsewhere")

    assert elsewhere.business_id == other_service.business_id


def test_the_limit_is_a_setting(settings, haircut):
    settings.HOLDS_PER_ADDRESS = 1
    hold(haircut, "09:00", holder="visitor-0")

    with pytest.raises(TooManyHolds, match="already holds 1 slot at"):
        hold(haircut, "10:00", holder="visitor-1")


def test_an_ipv6_client_is_counted_by_its_slash_64(haircut):
    # Three addresses of one /64 are one client; an address of another /64 is another.
    for number, wall in enumerate(FIRST_FOUR[:3]):
        hold(haircut, wall, holder=f"visitor-{number}", address=f"2001:db8:1:2::{number + 1}")

    with pytest.raises(TooManyHolds):
        hold(haircut, "12:00", holder="visitor-3", address="2001:db8:1:2:ffff::9")
    assert hold(haircut, "12:00", holder="neighbour", address="2001:db8:1:3::1")


def test_a_holder_keeps_one_hold_whatever_address_it_comes_from(haircut):
    hold(haircut, "09:00", holder="visitor-0", address=ONE_ADDRESS)

    hold(haircut, "10:00", holder="visitor-0", address=ANOTHER_ADDRESS)

    assert SlotHold.objects.get().starts_at == lisbon(WEDNESDAY, "10:00")


def test_the_address_is_stored_only_as_a_keyed_hash(settings, haircut):
    stored = hold(haircut, "09:00", holder="visitor-0").address_hash

    assert stored == address_hash(ONE_ADDRESS)
    assert ONE_ADDRESS not in stored
    # Not a plain hash anyone could rebuild by trying every IPv4 address...
    assert stored != hashlib.sha256(ONE_ADDRESS.encode()).hexdigest()
    # ...but one keyed with the server's secret.
    settings.SECRET_KEY = "another-secret-entirely-for-this-test"
    assert address_hash(ONE_ADDRESS) != stored


@pytest.mark.parametrize(
    ("address", "client"),
    [
        ("203.0.113.7", "203.0.113.7"),
        (" 203.0.113.7 ", "203.0.113.7"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("", ""),
        ("unix-socket", "unix-socket"),
    ],
)
def test_client_network_narrows_an_address_to_the_client_behind_it(address, client):
    assert client_network(address) == client


def test_a_hold_without_an_address_is_bounded_by_its_holder_alone(haircut):
    # The chat's holds (no address yet): one per conversation, not counted per address.
    for number, wall in enumerate(FIRST_FOUR):
        hold(haircut, wall, holder=f"conversation:{number}", address=None)

    assert SlotHold.objects.filter(address_hash="").count() == 4


def test_the_database_refuses_a_hold_without_a_holder(haircut):
    with pytest.raises(IntegrityError, match="hold_has_holder"), transaction.atomic():
        SlotHoldFactory(business=haircut.business, service=haircut, holder="")
