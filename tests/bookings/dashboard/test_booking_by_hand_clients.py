"""The appointment form's client search (the admin's autocomplete): by name, email or phone as
people type them, only ever among the clients of businesses the user may book at — and of the
business chosen in the form when it sends one."""

import pytest
from django.urls import reverse

from tests.factories import BusinessFactory, ClientFactory, MembershipFactory, owner_of, staff_of

SEARCH = reverse("admin:autocomplete")


def search(http, term: str, **extra) -> list[str]:
    response = http.get(
        SEARCH,
        {
            "term": term,
            "app_label": "bookings",
            "model_name": "appointment",
            "field_name": "client",
            **extra,
        },
    )
    assert response.status_code == 200
    return [result["text"] for result in response.json()["results"]]


@pytest.fixture
def two_salons(db):
    mine, theirs = BusinessFactory(country="PT"), BusinessFactory(country="PT")
    ClientFactory(business=mine, name="Ana Lopes", email="ana@mine.pt", phone="+351912345678")
    ClientFactory(business=theirs, name="Ana Silva", email="ana@theirs.pt", phone="+351912345679")
    return mine, theirs


def test_an_owner_finds_only_their_own_business_s_clients(login, two_salons):
    mine, _ = two_salons
    owner = login(owner_of(mine))

    assert search(owner, "Ana") == ["Ana Lopes"]
    assert search(owner, "ana@") == ["Ana Lopes"]
    assert search(owner, "912 345") == ["Ana Lopes"]
    assert search(owner, "") == ["Ana Lopes"]


def test_naming_another_business_in_the_search_finds_nobody(login, two_salons):
    mine, theirs = two_salons
    owner = login(owner_of(mine))

    assert search(owner, "Ana", business=theirs.pk) == []
    assert search(owner, "Ana", business="not-an-id") == []
    assert search(owner, "Ana", business="9" * 40) == []


def test_the_business_chosen_in_the_form_narrows_the_search(login, two_salons):
    mine, theirs = two_salons
    person = owner_of(mine)
    MembershipFactory(user=person, business=theirs)  # owns both
    http = login(person)

    assert sorted(search(http, "Ana")) == ["Ana Lopes", "Ana Silva"]
    assert search(http, "Ana", business=theirs.pk) == ["Ana Silva"]
    assert search(http, "Ana", business=mine.pk) == ["Ana Lopes"]


def test_staff_search_their_business_s_clients_too(login, two_salons):
    mine, _ = two_salons

    assert search(login(staff_of(mine)), "Ana") == ["Ana Lopes"]


@pytest.mark.parametrize(
    "typed",
    ["912 345 678", "+351 912-345-678", "(+351) 912.345.678", "00351 912 345 678", "912345678"],
)
def test_a_phone_is_found_however_it_is_typed(login, two_salons, typed):
    mine, _ = two_salons

    assert search(login(owner_of(mine)), typed) == ["Ana Lopes"]


def test_a_national_number_is_read_in_the_business_s_country(login, db):
    # Stored +442079460958; typed the British way, with the trunk 0 the stored form drops
    london = BusinessFactory(country="GB", time_zone="Europe/London", currency="GBP")
    ClientFactory(business=london, name="Olivia Brown", phone="+442079460958")

    assert search(login(owner_of(london)), "020 7946 0958") == ["Olivia Brown"]


def test_the_add_form_offers_the_client_as_a_search_not_a_list_of_every_client(login, salon):
    ClientFactory.create_batch(30, business=salon)

    page = login(owner_of(salon)).get(reverse("admin:bookings_appointment_add"))

    html = page.content.decode()
    assert 'data-field-name="client"' in html
    assert "admin-autocomplete" in html
    assert html.count("<option") < 30
