"""Every page a client sees, checked by axe-core in a real browser: 0 violations, in the dark
and the light theme, on a desktop and at a phone's 390 px. The booking page is checked at each
step of a booking (service, time, details, the card to confirm, the deposit, confirmed), the
appointment page with its cancel and reschedule steps, and the front door and "not found"."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import DepositRule
from bookings.services import ClientDetails, appointment_create
from bookings.tokens import manage_token
from tests.browser.booking_steps import salon_open_every_day

LOOKS = [
    pytest.param("desktop", "dark", id="desktop-dark"),
    pytest.param("desktop", "light", id="desktop-light"),
    pytest.param("phone", "dark", id="phone-dark"),
    pytest.param("phone", "light", id="phone-light"),
]


@pytest.fixture
def salon(site):
    return salon_open_every_day()


def assert_accessible(page: Page, axe_violations, where: str) -> None:
    # Checked as the client reads it: with no reply still on its way (a turn in flight dims
    # the composer's buttons, and axe would measure them mid-change), after the frame that
    # draws the settled page.
    page.wait_for_function(
        """() => !document.querySelector('[aria-busy="true"], #composer button:disabled')
            && new Promise((drawn) => requestAnimationFrame(() => drawn(true)))"""
    )
    found = axe_violations(page)
    assert not found, f"{where}: " + "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in found
    )


def booked_token(business) -> str:
    service = business.services.get()
    tomorrow = timezone.localdate() + dt.timedelta(days=2)
    start = dt.datetime.combine(tomorrow, dt.time(10), tzinfo=dt.UTC)
    outcome = appointment_create(
        service=service,
        start=start,
        client=ClientDetails(name="Ana Silva", email="ana@example.com", phone=""),
    )
    return manage_token(outcome.appointment.public_id)


def to_the_card(page: Page, site: str, business, check) -> None:
    """Walk a booking up to the card to confirm, checking each step on the way."""
    page.goto(f"{site}/b/{business.slug}/")
    expect(page.locator(".message--assistant")).to_have_count(1)
    check("booking page, greeting")
    page.get_by_role("button", name=re.compile(r"^Haircut")).first.click()
    times = page.locator(".message").last.get_by_role("group", name="Times offered")
    expect(times.get_by_role("button").first).to_be_visible()
    check("booking page, times offered")
    times.get_by_role("button").first.click()
    expect(page.get_by_label("Name")).to_be_visible()
    check("booking page, details asked")
    page.get_by_label("Name").fill("Ana Silva")
    page.get_by_label("Email").fill("ana@example.com")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("button", name=re.compile("^Confirm"))).to_be_visible()
    check("booking page, card to confirm")


@pytest.mark.parametrize(("viewport", "scheme"), LOOKS)
def test_every_step_of_a_booking_has_no_accessibility_violations(
    open_page, site, salon, axe_violations, viewport, scheme
):
    page = open_page(viewport=viewport, scheme=scheme)

    def check(where: str) -> None:
        assert_accessible(page, axe_violations, where)

    to_the_card(page, site, salon, check)
    page.get_by_role("button", name="Confirm booking").click()
    expect(page.locator(".booked-card")).to_be_visible()
    check("booking page, confirmed")


@pytest.mark.parametrize(("viewport", "scheme"), LOOKS)
def test_the_deposit_step_has_no_accessibility_violations(
    open_page, site, salon, paying_stripe, axe_violations, viewport, scheme
):
    salon.deposit_rule, salon.deposit_percent = DepositRule.PERCENT, 20
    salon.save()
    paying_stripe.hold_webhooks = True
    page = open_page(viewport=viewport, scheme=scheme)

    to_the_card(page, site, salon, lambda where: None)
    page.get_by_role("button", name="Confirm and pay the deposit").click()
    pay = page.get_by_role("link", name=re.compile("deposit", re.IGNORECASE))
    expect(pay).to_be_visible()
    assert_accessible(page, axe_violations, "booking page, deposit to pay")


@pytest.mark.parametrize(("viewport", "scheme"), LOOKS)
def test_the_appointment_pages_have_no_accessibility_violations(
    open_page, site, salon, axe_violations, viewport, scheme
):
    token = booked_token(salon)
    page = open_page(viewport=viewport, scheme=scheme)

    for where, path in [
        ("appointment page", f"/manage/{token}/"),
        ("cancel step", f"/manage/{token}/cancel/"),
        ("reschedule picker", f"/manage/{token}/reschedule/"),
    ]:
        page.goto(f"{site}{path}")
        expect(page.locator("h1")).to_be_visible()
        assert_accessible(page, axe_violations, where)


@pytest.mark.parametrize(("viewport", "scheme"), LOOKS)
def test_the_front_door_and_not_found_have_no_accessibility_violations(
    open_page, site, db, watch, axe_violations, viewport, scheme
):
    page = open_page(viewport=viewport, scheme=scheme)
    watch.allow_error(r"status of 404")  # the browser's own note on the page answering 404

    for where, path in [("front door", "/"), ("not found", "/b/nobody-here/")]:
        page.goto(f"{site}{path}")
        expect(page.locator("h1")).to_be_visible()
        assert_accessible(page, axe_violations, where)
