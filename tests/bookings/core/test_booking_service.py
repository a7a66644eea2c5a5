"""The one door: appointment_create, and the holds, moves and cancellations around it."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from bench.harness import open_salon
from bookings.actors import Actor
from bookings.errors import (
    AppointmentNotChangeable,
    IdempotencyConflict,
    InvalidBooking,
    SlotUnavailable,
)
from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
    Client,
    SlotHold,
)
from bookings.selectors import open_slots_for
from bookings.services import (
    ClientDetails,
    appointment_cancel,
    appointment_create,
    appointment_reschedule,
    hold_slot,
    release_expired_holds,
)
from bookings.tokens import manage_token, token_hash
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon
from tests.factories import ServiceFactory

pytestmark = pytest.mark.usefixtures("frozen_now")

ANA = ClientDetails(name="Ana Silva", email="Ana@Example.com", phone="912 345 678")
BEA = ClientDetails(name="Bea Costa", email="bea@example.com")


def book(service, wall="10:00", client=ANA, **kwargs):
    return appointment_create(
        service=service, start=lisbon(WEDNESDAY, wall), client=client, **kwargs
    )


def wednesday_starts(service, holder=None) -> list[str]:
    slots = open_slots_for(service, first_day=WEDNESDAY, last_day=WEDNESDAY, now=NOW, holder=holder)
    return [f"{slot.start.astimezone(service.business.tzinfo):%H:%M}" for slot in slots]


def test_booking_an_open_slot_stores_the_appointment_its_history_and_a_hashed_token(haircut):
    outcome = book(haircut, idempotency_key="first")

    appointment = outcome.appointment
    assert outcome.created
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert appointment.starts_at == lisbon(WEDNESDAY, "10:00")
    assert appointment.ends_at == lisbon(WEDNESDAY, "11:00")
    assert appointment.price == Decimal("60.00")
    assert appointment.seat == 1
    assert appointment.manage_token_hash == token_hash(outcome.manage_token)
    assert outcome.manage_token not in appointment.manage_token_hash
    assert len(outcome.manage_token) >= 43  # 256 bits, base64
    assert appointment.events.get().kind == AppointmentEventKind.CREATED
    assert "10:00" not in wednesday_starts(haircut)


def test_the_client_is_stored_normalised_and_a_returning_client_is_the_same_row(haircut):
    first = book(haircut, "10:00").appointment
    again = book(
        haircut, "12:00", client=ClientDetails("Ana S.", email="ana@EXAMPLE.com")
    ).appointment

    assert first.client_id == again.client_id
    client = Client.objects.get()
    assert (client.email, client.phone) == ("ana@example.com", "+351912345678")


def test_the_same_key_and_request_returns_the_first_booking_unchanged(haircut):
    first = book(haircut, idempotency_key="retry-me")

    replay = book(haircut, idempotency_key="retry-me")

    assert not replay.created
    assert replay.appointment.pk == first.appointment.pk
    assert replay.manage_token == first.manage_token
    assert Appointment.objects.count() == 1
    assert AppointmentEvent.objects.count() == 1


def test_the_same_key_with_a_different_request_is_a_conflict_not_a_second_booking(haircut):
    book(haircut, idempotency_key="once")

    with pytest.raises(IdempotencyConflict):
        book(haircut, "12:00", idempotency_key="once")

    assert Appointment.objects.count() == 1


def test_a_full_slot_is_refused_honestly_with_real_alternatives(haircut):
    book(haircut, "10:00")

    with pytest.raises(SlotUnavailable) as refusal:
        book(haircut, "10:00", client=BEA)

    alternatives = refusal.value.alternatives
    assert [f"{slot.start.astimezone(haircut.business.tzinfo):%H:%M}" for slot in alternatives] == [
        "09:00",
        "11:00",
        "11:30",
    ]
    assert all(
        slot in open_slots_for(haircut, first_day=WEDNESDAY, last_day=WEDNESDAY, now=NOW)
        for slot in alternatives
    )  # each one really is open now
    appointment_create(service=haircut, start=alternatives[0].start, client=BEA)
    assert Appointment.objects.count() == 2


def test_capacity_two_takes_two_overlapping_bookings_in_different_seats(salon, haircut):
    salon.capacity = 2
    salon.save()

    seats = [book(haircut, "10:00", client=c).appointment.seat for c in (ANA, BEA)]

    assert seats == [1, 2]
    with pytest.raises(SlotUnavailable):
        book(haircut, "10:30", client=ClientDetails("Cid", email="cid@example.com"))


@pytest.mark.parametrize(
    ("wall", "why"),
    [("08:00", "before opening"), ("16:30", "ends after closing"), ("10:10", "off the grid")],
)
def test_a_time_that_is_never_offered_cannot_be_booked(haircut, wall, why):
    with pytest.raises(SlotUnavailable):
        book(haircut, wall)
    assert not Appointment.objects.exists()


def test_a_time_inside_the_minimum_notice_cannot_be_booked(haircut):
    soon = NOW + dt.timedelta(minutes=30)
    with pytest.raises(SlotUnavailable):
        appointment_create(service=haircut, start=soon.replace(minute=30), client=ANA)


@pytest.mark.parametrize(
    ("client", "field"),
    [
        (ClientDetails(name="", email="x@example.com"), "name"),
        (ClientDetails(name="X"), "email"),
        (ClientDetails(name="X", email="not-an-email"), "email"),
        (ClientDetails(name="X", phone="123"), "phone"),
    ],
)
def test_bad_client_details_are_refused_per_field_and_nothing_is_written(haircut, client, field):
    with pytest.raises(InvalidBooking) as refusal:
        book(haircut, client=client)

    assert field in refusal.value.errors
    assert not Appointment.objects.exists()
    assert not Client.objects.exists()


def test_an_inactive_service_or_a_naive_time_is_refused(haircut):
    with pytest.raises(InvalidBooking) as naive:
        appointment_create(service=haircut, start=dt.datetime(2026, 12, 2, 10), client=ANA)  # noqa: DTZ001
    haircut.is_active = False
    with pytest.raises(InvalidBooking) as inactive:
        book(haircut)

    assert "start" in naive.value.errors
    assert "service" in inactive.value.errors


def test_a_hold_hides_the_slot_from_others_but_not_from_its_holder(haircut):
    hold_slot(service=haircut, start=lisbon(WEDNESDAY, "10:00"), holder="conversation-1")

    assert "10:00" not in wednesday_starts(haircut)
    assert "10:00" in wednesday_starts(haircut, holder="conversation-1")
    with pytest.raises(SlotUnavailable):
        book(haircut, "10:00", client=BEA, holder="conversation-2")


def test_the_holder_books_its_held_slot_and_the_hold_is_released(haircut):
    hold_slot(service=haircut, start=lisbon(WEDNESDAY, "10:00"), holder="conversation-1")

    book(haircut, "10:00", holder="conversation-1")

    assert not SlotHold.objects.exists()


def test_a_holder_holds_one_slot_at_a_time(haircut):
    hold_slot(service=haircut, start=lisbon(WEDNESDAY, "10:00"), holder="conversation-1")
    hold_slot(service=haircut, start=lisbon(WEDNESDAY, "14:00"), holder="conversation-1")

    assert SlotHold.objects.count() == 1
    assert "10:00" in wednesday_starts(haircut)
    assert "14:00" not in wednesday_starts(haircut)


def test_an_expired_hold_no_longer_hides_the_slot(haircut):
    hold_slot(service=haircut, start=lisbon(WEDNESDAY, "10:00"), holder="conversation-1")

    with time_machine.travel(NOW + dt.timedelta(minutes=11), tick=False):
        later = NOW + dt.timedelta(minutes=11)
        slots = open_slots_for(haircut, first_day=WEDNESDAY, last_day=WEDNESDAY, now=later)
        assert lisbon(WEDNESDAY, "10:00") in [slot.start for slot in slots]
        assert release_expired_holds(now=later) == 1


def test_holding_a_slot_that_is_not_open_is_refused_with_alternatives(haircut):
    book(haircut, "10:00")

    with pytest.raises(SlotUnavailable) as refusal:
        hold_slot(service=haircut, start=lisbon(WEDNESDAY, "10:00"), holder="conversation-1")

    assert refusal.value.alternatives
    assert not SlotHold.objects.exists()


def test_rescheduling_moves_the_appointment_and_frees_the_old_time(haircut):
    appointment = book(haircut, "10:00").appointment

    moved = appointment_reschedule(appointment=appointment, new_start=lisbon(WEDNESDAY, "14:00"))

    assert moved.starts_at == lisbon(WEDNESDAY, "14:00")
    assert moved.manage_token_expires_at == lisbon(WEDNESDAY, "15:00")
    assert "10:00" in wednesday_starts(haircut)
    assert "14:00" not in wednesday_starts(haircut)
    assert moved.events.filter(kind=AppointmentEventKind.RESCHEDULED).exists()


def test_rescheduling_within_its_own_time_is_allowed(haircut):
    appointment = book(haircut, "10:00").appointment

    moved = appointment_reschedule(appointment=appointment, new_start=lisbon(WEDNESDAY, "10:30"))

    assert moved.starts_at == lisbon(WEDNESDAY, "10:30")


def test_rescheduling_onto_a_taken_time_is_refused_and_changes_nothing(haircut):
    appointment = book(haircut, "10:00").appointment
    book(haircut, "14:00", client=BEA)

    with pytest.raises(SlotUnavailable) as refusal:
        appointment_reschedule(appointment=appointment, new_start=lisbon(WEDNESDAY, "14:00"))

    assert refusal.value.alternatives
    appointment.refresh_from_db()
    assert appointment.starts_at == lisbon(WEDNESDAY, "10:00")


def test_cancelling_frees_the_time_and_cannot_happen_twice(haircut):
    appointment = book(haircut, "10:00").appointment

    appointment_cancel(appointment=appointment, reason="sick")

    assert "10:00" in wednesday_starts(haircut)
    with pytest.raises(AppointmentNotChangeable, match="already cancelled"):
        appointment_cancel(appointment=appointment)
    with pytest.raises(AppointmentNotChangeable):
        appointment_reschedule(appointment=appointment, new_start=lisbon(WEDNESDAY, "14:00"))
    book(haircut, "10:00", client=BEA)  # the freed time is bookable again


def test_an_appointment_that_has_started_cannot_be_cancelled_by_the_client(haircut):
    appointment = book(haircut, "10:00").appointment

    with pytest.raises(AppointmentNotChangeable, match="already started"):
        appointment_cancel(appointment=appointment, now=lisbon(WEDNESDAY, "10:05"))


def test_another_business_service_never_sees_this_business_calendar(salon, haircut):
    book(haircut, "10:00")
    other = ServiceFactory(business=open_salon(), name="Haircut")  # another business

    assert "10:00" in wednesday_starts(other)


def test_management_tokens_are_per_appointment_and_stable():
    import uuid

    first, second = uuid.uuid4(), uuid.uuid4()

    assert manage_token(first) == manage_token(first)
    assert manage_token(first) != manage_token(second)


def test_a_refused_move_offers_times_overlapping_the_appointments_own_time(haircut):
    appointment = book(haircut, "10:00").appointment
    book(haircut, "14:00", client=BEA)

    with pytest.raises(SlotUnavailable) as refusal:
        appointment_reschedule(appointment=appointment, new_start=lisbon(WEDNESDAY, "14:00"))

    offered = [slot.start for slot in refusal.value.alternatives]
    assert lisbon(WEDNESDAY, "13:00") in offered  # 13:00 overlaps nothing but itself
    assert lisbon(WEDNESDAY, "15:00") in offered


@pytest.mark.parametrize(
    ("client", "field"),
    [
        (ClientDetails(name="N" * 121, email="long@example.com"), "name"),
        (ClientDetails(name="Long", email="a" * 250 + "@example.com"), "email"),
        (ClientDetails(name="Long", phone="+351 " + "9" * 40), "phone"),
    ],
)
def test_overlong_client_details_are_refused_per_field(haircut, client, field):
    with pytest.raises(InvalidBooking) as refusal:
        book(haircut, client=client)

    assert field in refusal.value.errors
    assert not Appointment.objects.exists()


def test_a_replay_gets_its_first_answer_even_after_the_service_is_switched_off(haircut):
    first = book(haircut, idempotency_key="before")
    haircut.is_active = False
    haircut.save()

    assert book(haircut, idempotency_key="before").appointment.pk == first.appointment.pk


@pytest.mark.parametrize("holder", ["", "h" * 65])
def test_a_hold_needs_a_holder_of_sensible_length(haircut, holder):
    with pytest.raises(InvalidBooking):
        hold_slot(service=haircut, start=lisbon(WEDNESDAY, "10:00"), holder=holder)


def test_an_unknown_status_or_an_overflowing_price_is_refused_not_mistaken_for_a_taken_slot(
    haircut,
):
    with pytest.raises(InvalidBooking) as bad_status:
        book(haircut, status="bogus")
    with pytest.raises(InvalidBooking) as huge_price:
        book(haircut, price=Decimal("100000000"))

    assert "status" in bad_status.value.errors
    assert "price" in huge_price.value.errors
    assert not Appointment.objects.exists()


def test_two_chairs_take_a_long_visit_while_one_chair_has_short_visits_in_a_row(salon, haircut):
    salon.capacity = 2
    salon.save()
    trim = ServiceFactory(business=salon, name="Trim", duration_minutes=20)
    for n, wall in enumerate(["10:00", "10:30"]):
        client = ClientDetails(f"T{n}", email=f"t{n}@example.com")
        appointment_create(service=trim, start=lisbon(WEDNESDAY, wall), client=client)

    long_visit = book(haircut, "10:00").appointment

    assert set(Appointment.objects.filter(service=trim).values_list("seat", flat=True)) == {1}
    assert long_visit.seat == 2


# --- the price floor: one rule, in the core, for every caller --------------------------------


@pytest.mark.parametrize(
    "actor",
    [Actor.client(), Actor.assistant(), Actor.payments(), Actor.system()],
    ids=lambda actor: actor.kind,
)
def test_the_core_refuses_a_price_below_the_floor_from_any_caller(haircut, actor):
    # Given the haircut's floor of 50.00 EUR
    # When anyone books it a cent below
    with pytest.raises(InvalidBooking) as refusal:
        book(haircut, price=Decimal("49.99"), actor=actor)

    # Then the core refuses it, saying why, and books nothing
    assert refusal.value.errors == {
        "price": "49.99 EUR is below the floor of 50.00 EUR for Haircut."
    }
    assert not Appointment.objects.exists()


def test_the_core_refuses_a_price_above_the_list_price_and_books_the_list_price_itself(haircut):
    # Given the haircut's list price of 60.00 EUR
    # When a caller books it a cent above
    with pytest.raises(InvalidBooking) as refusal:
        book(haircut, price=Decimal("60.01"), actor=Actor.assistant())

    # Then the core refuses it, saying why, and books nothing; the list price itself is fine
    assert refusal.value.errors == {
        "price": "60.01 EUR is above the list price of 60.00 EUR for Haircut."
    }
    assert not Appointment.objects.exists()
    assert book(haircut, price=Decimal("60.00")).appointment.price == Decimal("60.00")


def test_a_price_at_the_floor_is_agreed_and_kept_when_the_appointment_moves(haircut):
    appointment = book(haircut, price=Decimal("50.00")).appointment

    moved = appointment_reschedule(appointment=appointment, new_start=lisbon(WEDNESDAY, "14:00"))

    assert moved.price == Decimal("50.00")


def test_a_booking_without_a_price_gets_the_list_price(haircut):
    assert book(haircut).appointment.price == haircut.list_price
