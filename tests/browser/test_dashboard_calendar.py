"""The owner's calendar in a real browser: signed in as an owner, the day shows each visit in
its own lane, a click opens the visit's page, a past visit is marked attended with one button;
at a phone's 390 px the page never grows sideways (the lanes scroll in their own box, the week
reads as a list), and axe finds no serious or critical violation, dark or light."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.availability import wall_to_instant
from bookings.models import AppointmentStatus
from tests.browser.booking_steps import salon_open_every_day
from tests.factories import PASSWORD, AppointmentFactory, owner_of

CALENDAR = reverse("admin:bookings_appointment_calendar")
LOOKS = [
    pytest.param("desktop", "dark", id="desktop-dark"),
    pytest.param("desktop", "light", id="desktop-light"),
    pytest.param("phone", "dark", id="phone-dark"),
    pytest.param("phone", "light", id="phone-light"),
]


@pytest.fixture
def salon(site):
    business = salon_open_every_day()
    business.capacity = 3
    business.save()
    return business


def local_day(business, offset: int) -> dt.date:
    return timezone.localdate(timezone=business.tzinfo) + dt.timedelta(days=offset)


def visit(business, day: dt.date, wall: str, name: str, **fields):
    start = wall_to_instant(day, dt.time.fromisoformat(wall), business.tzinfo)
    return AppointmentFactory(
        business=business,
        service=business.services.get(),
        starts_at=start,
        client__name=name,
        **fields,
    )


def sign_in(page: Page, site: str, user) -> None:
    page.goto(f"{site}{reverse('admin:login')}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#content h1")).to_be_visible()


def open_calendar(page: Page, site: str, day: dt.date, view: str = "day") -> None:
    page.goto(f"{site}{CALENDAR}?date={day.isoformat()}&view={view}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Calendar")


def serious(found: list[dict]) -> list[dict]:
    return [v for v in found if v["impact"] in ("serious", "critical")]


def describe(found: list[dict]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in found
    )


def test_an_owner_sees_visits_in_their_lanes_opens_one_and_marks_a_past_one(page, site, salon):
    day = local_day(salon, 2)
    visit(salon, day, "10:00", "Ana Silva")
    visit(salon, day, "10:15", "Bea Costa")
    past = visit(salon, local_day(salon, -1), "10:00", "Carla Dias")
    sign_in(page, site, owner_of(salon))

    # The home leads to the calendar.
    page.get_by_role("link", name="Open the calendar").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Calendar: {salon.name}")

    open_calendar(page, site, day)
    ana = page.get_by_role("link", name=re.compile("Ana Silva"))
    bea = page.get_by_role("link", name=re.compile("Bea Costa"))
    expect(ana).to_contain_text("10:00–10:45")
    expect(ana).to_contain_text("Confirmed · No deposit")
    # Side by side: overlapping visits sit in different lanes, on the same rows.
    ana_box, bea_box = ana.bounding_box(), bea.bounding_box()
    assert ana_box
    assert bea_box
    assert bea_box["x"] >= ana_box["x"] + ana_box["width"]
    assert abs(bea_box["y"] - ana_box["y"]) < ana_box["height"]

    ana.click()
    expect(page).to_have_url(re.compile(r"/admin/bookings/appointment/\d+/change/$"))
    expect(page.locator("#content h1, #content h2").first).to_be_visible()
    expect(page.get_by_role("link", name="Calendar", exact=True)).to_be_visible()

    open_calendar(page, site, local_day(salon, -1))
    page.get_by_role("button", name="Attended: Carla Dias").click()
    expect(page.locator(".messagelist")).to_contain_text("marked attended")
    expect(page.get_by_role("link", name=re.compile("Carla Dias"))).to_contain_text("Attended")
    past.refresh_from_db()
    assert past.status == AppointmentStatus.ATTENDED


def test_at_a_phones_width_the_page_never_grows_sideways(open_page, site, salon):
    day = local_day(salon, 2)
    for wall, name in [("10:00", "Ana Silva"), ("10:15", "Bea Costa"), ("10:30", "Carla Dias")]:
        visit(salon, day, wall, name)
    page = open_page(viewport="phone")
    sign_in(page, site, owner_of(salon))

    open_calendar(page, site, day)
    grows_sideways = "() => document.documentElement.scrollWidth > window.innerWidth"
    assert not page.evaluate(grows_sideways)
    # Three lanes do not fit 390 px: they scroll inside the calendar's own box.
    lanes = page.get_by_role("region", name=re.compile("one lane per place"))
    assert lanes.evaluate("box => box.scrollWidth > box.clientWidth")
    page.get_by_role("link", name=re.compile("Carla Dias")).focus()  # every visit reachable

    open_calendar(page, site, day, view="week")
    assert not page.evaluate(grows_sideways)
    expect(page.get_by_role("region", name=re.compile("one lane per place"))).to_be_hidden()
    expect(
        page.locator(".calendar-agenda").get_by_role("link", name=re.compile("Ana Silva"))
    ).to_be_visible()


@pytest.mark.parametrize(("viewport", "scheme"), LOOKS)
def test_the_calendar_has_no_serious_accessibility_violations(
    open_page, site, salon, axe_violations, viewport, scheme
):
    day = local_day(salon, -1)
    visit(salon, day, "10:00", "Ana Silva")
    visit(salon, day, "10:15", "Bea Costa", status=AppointmentStatus.NO_SHOW)
    page = open_page(viewport=viewport, scheme=scheme)
    sign_in(page, site, owner_of(salon))

    for view in ("day", "week"):
        open_calendar(page, site, day, view)
        found = serious(axe_violations(page))
        assert not found, f"{view} view, {viewport} {scheme}:\n{describe(found)}"
