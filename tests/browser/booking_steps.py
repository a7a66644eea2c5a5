"""The hosted booking page's world and the steps a client takes on it, shared by the booking
page's browser tests: a salon open every day (so tomorrow always has open times), the page
opened fresh, and the presses of a booking by pointer or by keyboard."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from agent.services import grants_set
from bookings.models import Business
from tests.factories import haircut_at, one_chair_salon

LONGEST_TAB_WALK = 40


def salon_open_every_day() -> Business:
    """A Lisbon salon open 09:00–17:00 every day, one chair: tomorrow always has open times."""
    business = one_chair_salon(name="Studio Lumen")
    haircut_at(business)
    grants_set(business=business)
    return business


def booking_page(page: Page, site: str, business: Business) -> Page:
    """The page opened, once the assistant's greeting is shown."""
    page.goto(f"{site}/b/{business.slug}/")
    expect(page.locator(".message--assistant")).to_have_count(1)
    return page


def live_reply(page: Page) -> Locator:
    """The newest reply, whose choices can be pressed."""
    return page.locator(".message").last


def live_slots(page: Page) -> Locator:
    return live_reply(page).get_by_role("group", name="Times offered").get_by_role("button")


def confirm_button(page: Page) -> Locator:
    return page.get_by_role("button", name=re.compile(r"^Confirm"))


def booked_title(page: Page) -> Locator:
    return page.locator("#booked-title")


def choose_haircut(page: Page) -> None:
    page.get_by_role("button", name=re.compile(r"^Haircut")).click()
    expect(live_slots(page).first).to_be_visible()


def pick_second_time(page: Page) -> str:
    """Press the second time offered; its words, as the booking will show them."""
    second = live_slots(page).nth(1)
    label = second.get_attribute("aria-label")
    second.click()
    expect(page.get_by_label("Name")).to_be_visible()
    return label


def give_details(page: Page, *, name: str = "Ana Silva", email: str = "ana@example.com") -> None:
    page.get_by_label("Name").fill(name)
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Continue").click()
    expect(confirm_button(page)).to_be_visible()


def held_and_detailed(page: Page, site: str, business: Business) -> str:
    """Up to the confirm card, by pointer; the time held, in words."""
    booking_page(page, site, business)
    choose_haircut(page)
    label = pick_second_time(page)
    give_details(page)
    return label


def focused(page: Page) -> str:
    """The focused element's accessible text: its aria-label or its words."""
    return page.evaluate(
        "() => (document.activeElement.getAttribute('aria-label') "
        "|| document.activeElement.textContent).trim()"
    )


def tab_to(page: Page, name: re.Pattern[str]) -> None:
    """Press Tab until a control whose text matches ``name`` has the focus, as a keyboard user
    would; fails if it cannot be reached."""
    for _ in range(LONGEST_TAB_WALK):
        page.keyboard.press("Tab")
        if name.search(focused(page)):
            return
    raise AssertionError(f"{name.pattern!r} cannot be reached with Tab")
