"""A Spanish business's booking page in a real browser: the page and its script speak Spanish
(the steps of a booking, the chat's labels, the pick-a-time view's days) and axe-core finds
nothing wrong with it, in the dark and the light theme, on a desktop and at a phone's 390 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.booking_steps import salon_open_every_day
from tests.browser.test_accessibility import LOOKS, assert_accessible

SPANISH_WEEKDAYS_SHORT = {"lun", "mar", "mié", "jue", "vie", "sáb", "dom"}


@pytest.fixture
def clinic(site):
    business = salon_open_every_day()
    business.name, business.language, business.time_zone = "Clínica Sol", "es", "Europe/Madrid"
    business.save()
    return business


@pytest.mark.parametrize(("viewport", "scheme"), LOOKS)
def test_a_spanish_booking_page_speaks_spanish_and_has_no_accessibility_violations(
    open_page, site, clinic, axe_violations, viewport, scheme
):
    page = open_page(viewport=viewport, scheme=scheme)

    page.goto(f"{site}/b/{clinic.slug}/")

    expect(page.locator("html")).to_have_attribute("lang", "es")
    steps = page.get_by_role("navigation", name="Su reserva, paso a paso")
    # (No service here asks for a deposit: that step is hidden.)
    expect(steps.locator(".progress-label:visible")).to_have_text(
        ["Servicio", "Hora", "Datos", "Confirmada"]
    )
    # The step the client is on, as the script names it.
    expect(steps.locator(".progress-state").first).to_have_text("(paso actual)")
    expect(page.get_by_role("heading", name="Hable con nosotros")).to_be_visible()
    expect(page.get_by_label("Su mensaje")).to_be_visible()
    expect(page.locator(".message--assistant")).to_have_count(1)
    # The pick-a-time view draws its days with the Spanish names it was given.
    days = page.get_by_role("group", name="Días con horas libres")
    expect(days.get_by_role("button").first).to_be_visible()
    first_day = days.get_by_role("button").first.inner_text()
    assert first_day.split()[0] in SPANISH_WEEKDAYS_SHORT, first_day
    assert_accessible(page, axe_violations, "Spanish booking page")
