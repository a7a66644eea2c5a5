"""Booking by hand, as an owner in a real browser under the project's Content-Security-Policy:
the client is found by typing part of a name into the search (select2, the admin's
autocomplete), a time outside opening hours is refused with the rule named, and ticking the
walk-in override with a reason books it, the reason kept in the history. axe-core finds no
serious or critical violation on the add form, fresh or refused, light or dark. A policy
violation or a script error anywhere fails the test (tests/browser/conftest.py)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from bench.harness import open_salon
from bookings.models import Appointment
from tests.factories import (
    PASSWORD,
    BusinessFactory,
    ClientFactory,
    ServiceFactory,
    owner_of,
)

SERIOUS = ("serious", "critical")


@pytest.fixture
def salon(db):
    business = open_salon(
        name="Salão Ana", time_zone="Europe/Lisbon", capacity=1, min_notice_minutes=60
    )
    ServiceFactory(business=business, name="Haircut", duration_minutes=60)
    ServiceFactory(business=business, name="Colour", list_price=Decimal("90.00"))
    ClientFactory(business=business, name="Ana Lopes", email="ana@example.pt")
    ClientFactory(business=business, name="Bruno Costa", email="bruno@example.pt")
    # Another business's client of the same name is never offered
    ClientFactory(business=BusinessFactory(), name="Ana Outra", email="ana@elsewhere.pt")
    return business


def sign_in(page: Page, site: str, user) -> None:
    page.goto(f"{site}{reverse('admin:login')}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your business")).to_be_visible()


def serious(page: Page, axe_violations) -> list[dict]:
    return [v for v in axe_violations(page) if v["impact"] in SERIOUS]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_an_owner_books_a_walk_in_found_by_name_after_the_named_refusal(
    open_page, site, salon, axe_violations, scheme
):
    page = open_page(scheme=scheme)
    sign_in(page, site, owner_of(salon))
    day = (dt.datetime.now(salon.tzinfo) + dt.timedelta(days=2)).date()

    # Given the add form, with its one business chosen already
    page.goto(f"{site}{reverse('admin:bookings_appointment_add')}")
    assert serious(page, axe_violations) == []
    page.get_by_label("Service").select_option(label="Haircut")

    # When the owner types part of a name into the client search and picks the client
    page.get_by_role("combobox", name="Client").click()
    with page.expect_request(lambda request: "/autocomplete/" in request.url) as asked:
        page.locator(".select2-search__field").fill("ana")
    assert f"business={salon.pk}" in asked.value.url  # the business chosen in the form
    offered = page.locator(".select2-results__option")
    expect(offered).to_have_text(["Ana Lopes"])  # not Bruno, not another business's Ana
    offered.first.click()
    expect(page.locator("#select2-id_client-container")).to_have_text("Ana Lopes")

    # …and asks for 19:00, after closing
    page.locator("#id_starts_at_0").fill(f"{day:%Y-%m-%d}")
    page.locator("#id_starts_at_1").fill("19:00:00")
    page.get_by_role("button", name="Save", exact=True).click()

    # Then the form names the rule, and offers the walk-in to the owner
    refusal = page.locator(".errorlist").filter(has_text="That time cannot be booked")
    expect(refusal).to_contain_text("outside opening hours (09:00–17:00 that day)")
    expect(refusal).to_contain_text("Walk-in: book outside the rules")
    assert not Appointment.objects.exists()
    assert serious(page, axe_violations) == []

    # When they tick the walk-in and say why
    page.get_by_label("Walk-in: book outside the rules").check()
    page.get_by_label("Reason for the walk-in").fill("Walked in after closing; the chair was free")
    page.get_by_role("button", name="Save", exact=True).click()

    # Then it is booked, for that client, with the reason in its history
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    appointment = Appointment.objects.select_related("client").get()
    assert appointment.client.name == "Ana Lopes"
    assert appointment.starts_at.astimezone(salon.tzinfo).time() == dt.time(19)
    created = appointment.events.get()
    assert created.data["override"] == "Walked in after closing; the chair was free"
    assert created.data["rules_overridden"] == ["outside_hours"]
