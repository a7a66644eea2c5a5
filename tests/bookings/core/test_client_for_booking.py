"""The client behind a booking: found by email, else by phone, else made; what a known client
lacked is filled in unless another client already has it. The same answers from the one
statement PostgreSQL bookings send and from the ORM queries any database can run."""

import threading

import psycopg
import pytest
from django.db import connection

from bookings.models import Client
from bookings.services.clients import (
    ClientDetails,
    client_by_one_statement,
    client_by_queries,
    client_for_booking,
)
from tests.factories import ClientFactory, one_chair_salon

WAYS = {
    "one statement": client_by_one_statement,
    "queries": client_by_queries,
}


@pytest.fixture(params=sorted(WAYS))
def find_or_make(request):
    return WAYS[request.param]


@pytest.fixture
def business(db):
    return one_chair_salon()


def details(business, name="Ana", email="", phone=""):
    return ClientDetails(name=name, email=email, phone=phone).normalized(business)


def test_a_new_email_makes_a_client(business, find_or_make):
    client = find_or_make(business, details(business, email="Ana@Example.com"))

    stored = Client.objects.get()
    assert (client.pk, client.email, client.name) == (stored.pk, "ana@example.com", "Ana")
    assert client.business == business
    assert not client._state.adding


def test_a_phone_alone_makes_a_client(business, find_or_make):
    client = find_or_make(business, details(business, phone="912 345 678"))

    assert Client.objects.get().pk == client.pk
    assert client.phone == "+351912345678"


def test_a_returning_email_in_any_case_is_the_same_client_and_keeps_its_name(
    business, find_or_make
):
    known = ClientFactory(business=business, name="Ana S.", email="ana@example.com", phone="")

    client = find_or_make(business, details(business, name="ANA", email="ANA@example.com"))

    assert client.pk == known.pk
    assert client.name == "Ana S."
    assert Client.objects.count() == 1


def test_a_returning_phone_is_the_same_client_and_gets_the_new_email(business, find_or_make):
    known = ClientFactory(business=business, name="Ana", email="", phone="+351912345678")

    client = find_or_make(
        business, details(business, email="ana@example.com", phone="+351 912 345 678")
    )

    assert client.pk == known.pk
    known.refresh_from_db()
    assert known.email == client.email == "ana@example.com"


def test_a_client_found_by_email_gets_the_phone_it_lacked(business, find_or_make):
    known = ClientFactory(business=business, name="Ana", email="ana@example.com", phone="")

    find_or_make(business, details(business, email="ana@example.com", phone="912345678"))

    known.refresh_from_db()
    assert known.phone == "+351912345678"


def test_a_phone_on_another_clients_row_is_not_copied_and_the_email_row_wins(
    business, find_or_make
):
    ana = ClientFactory(business=business, name="Ana", email="ana@example.com", phone="")
    bo = ClientFactory(business=business, name="Bo", email="bo@example.com", phone="+351912345678")

    client = find_or_make(business, details(business, email="ana@example.com", phone="912345678"))

    assert client.pk == ana.pk
    ana.refresh_from_db()
    bo.refresh_from_db()
    assert (ana.phone, bo.phone) == ("", "+351912345678")


def test_an_email_on_another_clients_row_is_not_copied_to_the_row_found_by_phone(
    business, find_or_make
):
    # Only reachable when the email belongs to no client found first: a phone-only row and an
    # email-only row of two people; the email row is found first and wins.
    by_phone = ClientFactory(business=business, name="Bo", email="", phone="+351912345678")
    by_email = ClientFactory(business=business, name="Ana", email="ana@example.com", phone="")

    client = find_or_make(business, details(business, email="ana@example.com", phone="912345678"))

    assert client.pk == by_email.pk
    by_phone.refresh_from_db()
    assert by_phone.email == ""


def test_clients_of_other_businesses_are_never_found(business, find_or_make):
    other = one_chair_salon(slug="other-salon")
    ClientFactory(business=other, name="Ana", email="ana@example.com", phone="+351912345678")

    client = find_or_make(business, details(business, email="ana@example.com", phone="912345678"))

    assert client.business_id == business.pk
    assert Client.objects.filter(business=business).count() == 1


def test_postgresql_bookings_find_or_make_the_client_in_one_statement(
    business, django_assert_num_queries
):
    ClientFactory(business=business, name="Ana", email="ana@example.com", phone="+351912345678")

    with django_assert_num_queries(1):
        client_for_booking(business, details(business, email="bea@example.com"))
    with django_assert_num_queries(1):
        client_for_booking(business, details(business, email="ana@example.com"))


@pytest.mark.django_db(transaction=True)
def test_a_client_committed_by_a_concurrent_booking_is_found_not_duplicated():
    # Given another booking has inserted Ana and not yet committed
    business = one_chair_salon()
    url = connection.settings_dict
    other = psycopg.connect(
        dbname=url["NAME"], host=url["HOST"], port=url["PORT"], user=url["USER"], autocommit=False
    )
    (other_id,) = other.execute(
        "INSERT INTO bookings_client (created_at, updated_at, business_id, name, email, phone)"
        " VALUES (now(), now(), %s, 'Ana (other booking)', 'ana@example.com', '') RETURNING id",
        [business.pk],
    ).fetchone()
    found = {}

    def book() -> None:
        found["client"] = client_for_booking(business, details(business, email="ana@example.com"))
        connection.close()

    # When this booking's statement meets the unique index, waits, and the other commits
    booking = threading.Thread(target=book)
    booking.start()
    booking.join(timeout=1)
    assert booking.is_alive(), "the statement should wait for the other booking's insert"
    other.commit()
    other.close()
    booking.join(timeout=10)

    # Then this booking has the other's client, and there is one Ana
    assert found["client"].pk == other_id
    assert Client.objects.filter(business=business).count() == 1
