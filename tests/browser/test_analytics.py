"""The analytics page in Chromium, as an owner: the funnel moves when a client books in a chat
run through the public API, and the page has no serious or critical accessibility violation
in either colour scheme."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.agent.conversation.chat_http import ServerClient, chat, confirm, started
from tests.browser.booking_steps import salon_open_every_day
from tests.browser.conftest import violations_text
from tests.factories import PASSWORD, owner_of

SERIOUS = {"serious", "critical"}


def sign_in(page: Page, site: str, user) -> None:
    page.goto(f"{site}{reverse('admin:login')}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Booking funnel").first).to_be_visible()


def step_count(page: Page, step: int) -> str:
    return page.locator(f'#funnel-table td[data-step="{step}"]').inner_text()


def book_in_chat(site: str, slug: str) -> None:
    """A client's whole booking through the widget's API, over HTTP to the live server."""
    http = ServerClient(site.replace("localhost", "127.0.0.1"))
    token = started(http, slug)
    [offered] = chat(http, token, "a haircut tomorrow")
    slot = offered["reply"]["choices"]["slots"][0]
    path = f"/api/v1/conversations/{token}"
    held = http.post(f"{path}/pick/", {"slot": slot["id"]}, content_type="application/json")
    assert held.status_code == 200, held.content
    details = {"name": "Ana Silva", "email": "ana@example.com"}
    given = http.post(f"{path}/details/", details, content_type="application/json")
    assert given.status_code == 200, given.content
    booked = confirm(http, token)
    assert booked.status_code == 201, booked.content
    assert booked.json()["conversation"]["state"] == "confirmed"


def test_the_funnel_counts_a_booking_made_in_chat(page, site, axe_violations):
    business = salon_open_every_day()
    sign_in(page, site, owner_of(business))
    page.get_by_role("link", name="Booking funnel").first.click()
    expect(
        page.get_by_role("heading", name="From first message to a confirmed booking")
    ).to_be_visible()
    assert (step_count(page, 0), step_count(page, 6)) == ("0", "0")

    book_in_chat(site, business.slug)
    page.reload()

    assert (step_count(page, 0), step_count(page, 6)) == ("1", "1")
    expect(
        page.get_by_role("img", name="Conversations reaching each step of a booking")
    ).to_be_visible()
    serious = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
    assert serious == [], serious


def test_the_page_passes_axe_in_light_and_on_a_phone(open_page, site, axe_violations):
    business = salon_open_every_day()
    owner = owner_of(business)
    for scheme, viewport in (("light", "desktop"), ("dark", "phone"), ("light", "phone")):
        page = open_page(viewport=viewport, scheme=scheme)
        sign_in(page, site, owner)
        page.goto(f"{site}/admin/analytics/?from=2026-01-01&to=2026-12-31")
        expect(page.locator("#funnel-table")).to_be_visible()
        serious = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
        assert serious == [], (scheme, viewport, violations_text(serious))
        # Nothing wider than the phone's screen but the tables' own scrolling boxes.
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
