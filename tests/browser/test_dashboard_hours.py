"""An owner in a real browser: sets a week of opening hours in the weekly grid — Monday with a
lunch break, copied to the other weekdays with the keyboard, Saturday short, Sunday closed —
and the database holds exactly those rows; creates a service with a floor through the service
form. Both pages pass axe-core with no serious or critical violation, light and dark, and the
grid fits a 390 px phone."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from bookings.models import OpeningHours, Service
from tests.browser.conftest import violations_text
from tests.browser.test_dashboard_policy import sign_in
from tests.factories import BusinessFactory, OpeningHoursFactory, owner_of

T = dt.time
SERIOUS = ("serious", "critical")


def box(page: Page, day: str, range_number: int, end: str):
    return page.get_by_label(f"{day}, range {range_number}: {end}", exact=True)


def day_card(page: Page, day: str):
    return page.get_by_role("group", name=day, exact=True)


def test_an_owner_sets_a_week_with_a_lunch_break_copied_from_monday(page, site):
    business = BusinessFactory(name="Studio Lumen")
    OpeningHoursFactory(business=business, weekday=6, opens_at=T(8), closes_at=T(20))
    sign_in(page, site, owner_of(business))

    page.goto(f"{site}{reverse('admin:bookings_business_change', args=[business.pk])}")
    page.get_by_role("link", name="Edit the week").click()
    expect(page.get_by_role("heading", name="Opening hours")).to_be_visible()

    box(page, "Monday", 1, "opens").fill("9:00")
    box(page, "Monday", 1, "closes").fill("13:00")
    box(page, "Monday", 2, "opens").fill("14:00")
    box(page, "Monday", 2, "closes").fill("18:00")
    expect(day_card(page, "Tuesday").get_by_text("Closed")).to_be_visible()
    copy = page.get_by_role("button", name="Copy Monday to weekdays")
    copy.focus()
    page.keyboard.press("Enter")
    expect(box(page, "Friday", 2, "closes")).to_have_value("18:00")
    expect(day_card(page, "Tuesday").get_by_text("Closed")).to_be_hidden()
    expect(page.get_by_role("status")).to_have_text(
        "Monday's hours copied to Tuesday to Friday. Save the week to keep them."
    )
    box(page, "Saturday", 1, "opens").fill("10:00")
    box(page, "Saturday", 1, "closes").fill("14:00")
    box(page, "Sunday", 1, "opens").fill("")
    box(page, "Sunday", 1, "closes").fill("")
    expect(day_card(page, "Sunday").get_by_text("Closed")).to_be_visible()
    page.get_by_role("button", name="Save the week").click()

    expect(page.get_by_text("The opening hours are saved.")).to_be_visible()
    expect(box(page, "Wednesday", 2, "opens")).to_have_value("14:00")
    rows = list(
        OpeningHours.objects.filter(business=business)
        .order_by("weekday", "opens_at")
        .values_list("weekday", "opens_at", "closes_at")
    )
    lunch_break = [(T(9), T(13)), (T(14), T(18))]
    assert rows == [
        *[(day, *times) for day in range(5) for times in lunch_break],
        (5, T(10), T(14)),
    ]


def test_an_owner_creates_a_service_with_a_floor(page, site):
    business = BusinessFactory(name="Studio Lumen")
    sign_in(page, site, owner_of(business))

    page.goto(f"{site}{reverse('admin:bookings_service_add')}")
    page.get_by_label("Name").fill("Colour")
    page.get_by_label("Duration minutes").fill("90")
    page.get_by_role("spinbutton", name="List price").fill("80.00")
    page.get_by_label("Price floor").fill("65.00")
    expect(page.get_by_text("It is never told to a client as a floor")).to_be_visible()
    page.get_by_role("button", name="Save", exact=True).click()

    expect(page.get_by_text("was added successfully")).to_be_visible()
    service = Service.objects.get(business=business)
    assert (service.name, service.duration_minutes) == ("Colour", 90)
    assert (service.list_price, service.price_floor) == (Decimal("80.00"), Decimal("65.00"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_hours_grid_and_the_service_form_pass_axe(open_page, site, axe_violations, scheme):
    business = BusinessFactory(name="Studio Lumen")
    OpeningHoursFactory(business=business, weekday=0, opens_at=T(9), closes_at=T(13))
    service_form = reverse("admin:bookings_service_add")
    hours = reverse("admin:bookings_business_hours", args=[business.pk])
    page = open_page(scheme=scheme)
    sign_in(page, site, owner_of(business))

    found = {}
    page.goto(f"{site}{hours}")
    found["hours"] = axe_violations(page)
    box(page, "Tuesday", 1, "opens").fill("9h")
    page.get_by_role("button", name="Save the week").click()
    expect(day_card(page, "Tuesday").get_by_text("“9h” is not a time")).to_be_visible()
    found["hours with an error"] = axe_violations(page)
    page.goto(f"{site}{service_form}")
    found["service form"] = axe_violations(page)
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("This field is required.").first).to_be_visible()
    found["service form with errors"] = axe_violations(page)

    serious = {
        name: [violation for violation in violations if violation["impact"] in SERIOUS]
        for name, violations in found.items()
    }
    assert serious == {name: [] for name in found}, violations_text(
        [violation for violations in serious.values() for violation in violations]
    )


def test_the_hours_grid_fits_a_phone(open_page, site):
    business = BusinessFactory(name="Studio Lumen")
    page = open_page(viewport="phone")
    sign_in(page, site, owner_of(business))

    page.goto(f"{site}{reverse('admin:bookings_business_hours', args=[business.pk])}")

    expect(box(page, "Sunday", 2, "closes")).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
