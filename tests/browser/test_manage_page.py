"""The client's appointment page in Chromium, by keyboard: cancelling through the confirmation
step, moving through the picker, taking the .ics — with no console error, no request to another
host (the ``page`` fixture fails the test on either), no accessibility violation and no sideways
scrolling, light and dark, desktop and phone. No script runs on these pages: they are plain
forms and links.

The business is in São Paulo (UTC−3 all year) and the browser in UTC, so a time written in any
zone but the business's would be caught.
"""

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest
from playwright.sync_api import Page, expect

from bench.harness import open_salon
from bookings.availability import wall_to_instant
from bookings.models import Appointment, AppointmentEventKind, AppointmentStatus
from bookings.services import ClientDetails, appointment_create
from bookings.tokens import manage_url
from tests.browser.conftest import violations_text
from tests.factories import ServiceFactory

SAO_PAULO = ZoneInfo("America/Sao_Paulo")
LONGEST_TAB_WALK = 30


def in_two_days() -> dt.date:
    return dt.datetime.now(SAO_PAULO).date() + dt.timedelta(days=2)


@pytest.fixture
def appointment(site, transactional_db) -> Appointment:
    """Ana's 10:00 haircut in two days at a São Paulo studio open 09:00–17:00 every day."""
    business = open_salon(
        name="Studio Lumen", time_zone="America/Sao_Paulo", slot_interval_minutes=30
    )
    service = ServiceFactory(business=business, name="Haircut", duration_minutes=60)
    return appointment_create(
        service=service,
        start=wall_to_instant(in_two_days(), dt.time(10), SAO_PAULO),
        client=ClientDetails(name="Ana Silva", email="ana@example.com"),
    ).appointment


def tab_to(page: Page, name: str) -> None:
    """Press Tab until the control named ``name`` has the focus, as a keyboard user would."""
    for _ in range(LONGEST_TAB_WALK):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.textContent.trim()")
        if focused == name:
            return
    raise AssertionError(f"{name!r} cannot be reached with Tab")


def test_cancelling_by_keyboard_through_the_confirmation_step(page: Page, appointment):
    page.goto(manage_url(appointment.public_id))
    expect(page.get_by_role("heading", name="Your appointment", exact=True)).to_be_visible()

    tab_to(page, "Cancel the appointment")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Cancel this appointment?")).to_be_visible()
    expect(
        page.get_by_text("Nothing was paid in advance, so there is nothing to refund.")
    ).to_be_visible()
    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED  # not by the look

    tab_to(page, "Yes, cancel it")
    page.keyboard.press("Enter")

    expect(page.get_by_role("status")).to_have_text("Your appointment is cancelled.")
    expect(page.get_by_text("Cancelled", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Cancel the appointment")).to_have_count(0)
    assert Appointment.objects.get().status == AppointmentStatus.CANCELLED


def test_moving_through_the_picker_by_keyboard_in_the_businesss_time(page: Page, appointment):
    next_day = in_two_days() + dt.timedelta(days=1)
    page.goto(manage_url(appointment.public_id))
    expect(page.get_by_text(f"{in_two_days():%A} {in_two_days().day}").first).to_contain_text(
        "10:00–11:00 (America/Sao_Paulo)"
    )

    tab_to(page, "Move to another time")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Move your appointment")).to_be_visible()
    expect(page.get_by_text("10:00 (current time)")).to_be_visible()
    tab_to(page, "Next day")
    page.keyboard.press("Enter")
    expect(
        page.get_by_role("heading", name=f"Open times on {next_day:%A} {next_day.day}")
    ).to_be_visible()
    tab_to(page, f"Move to {next_day:%A} {next_day.day} {next_day:%B %Y}, 14:30")
    page.keyboard.press("Enter")

    expect(page.get_by_role("status")).to_have_text(
        "Your appointment is moved to the time shown below."
    )
    expect(
        page.get_by_text(
            f"{next_day:%A} {next_day.day} {next_day:%B %Y}, 14:30–15:30 (America/Sao_Paulo)"
        )
    ).to_be_visible()
    appointment.refresh_from_db()
    assert appointment.starts_at == wall_to_instant(next_day, dt.time(14, 30), SAO_PAULO)


def test_choosing_a_day_with_the_date_field(page: Page, appointment):
    later = in_two_days() + dt.timedelta(days=5)
    page.goto(manage_url(appointment.public_id) + "reschedule/")

    page.get_by_label("Another day").fill(later.isoformat())
    page.get_by_role("button", name="Show open times").click()

    expect(
        page.get_by_role("heading", name=f"Open times on {later:%A} {later.day}")
    ).to_be_visible()
    page.get_by_role("button", name="09:00").click()
    expect(page.get_by_role("status")).to_have_text(
        "Your appointment is moved to the time shown below."
    )


def test_add_to_calendar_downloads_an_ics_file_calendars_read(page: Page, appointment):
    page.goto(manage_url(appointment.public_id))

    link = page.get_by_role("link", name="Add to calendar")
    with page.expect_download() as started:
        link.click()

    # A download's answer is not handed to the page; the same link is asked again for it.
    answer = page.request.get(link.evaluate("anchor => anchor.href"))
    assert answer.headers["content-type"] == "text/calendar; charset=utf-8"
    download = started.value
    assert download.path().read_bytes() == answer.body()
    assert download.suggested_filename == f"{appointment.business.slug}-{in_two_days()}.ics"
    [event] = icalendar.Calendar.from_ical(download.path().read_bytes()).walk("VEVENT")
    assert event.decoded("DTSTART") == appointment.starts_at
    assert event.decoded("DTEND") == appointment.ends_at
    assert str(event["SUMMARY"]) == "Haircut — Studio Lumen"


def test_cancelling_from_two_open_confirmation_steps_cancels_once(open_page, appointment):
    # the same client with the step open twice (two tabs, or a slow first press pressed again)
    first, second = open_page(), open_page()
    for tab in (first, second):
        tab.goto(manage_url(appointment.public_id) + "cancel/")

    first.get_by_role("button", name="Yes, cancel it").click()
    expect(first.get_by_role("status")).to_have_text("Your appointment is cancelled.")
    with second.expect_request(lambda sent: sent.method == "POST"):
        second.get_by_role("button", name="Yes, cancel it").click()

    expect(second.get_by_role("status")).to_have_text("This appointment was already cancelled.")
    expect(second.get_by_text("Cancelled", exact=True)).to_be_visible()
    assert Appointment.objects.get().status == AppointmentStatus.CANCELLED
    assert appointment.events.filter(kind=AppointmentEventKind.CANCELLED).count() == 1


def sideways_overflow(page: Page) -> int:
    """How many pixels the page is wider than the window (0: nothing to scroll sideways)."""
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_step_fits_a_390_px_phone_without_sideways_scrolling(
    open_page, watch, appointment, site, scheme
):
    watch.allow_error(r"status of (404|409)")  # the refusal and the not-found page, on purpose
    business = appointment.business
    business.name = "Barbearia e Cabeleireiro Internacional do Bairro Alto"
    business.save()
    page = open_page(viewport="phone", scheme=scheme)
    link = manage_url(appointment.public_id)
    seen = {}

    for step, url in (
        ("page", link),
        ("cancel step", f"{link}cancel/"),
        ("picker", f"{link}reschedule/"),
    ):
        page.goto(url)
        seen[step] = sideways_overflow(page)
    appointment_create(  # taken while the client looks: the refusal lists alternatives with days
        service=appointment.service,
        start=wall_to_instant(in_two_days(), dt.time(14), SAO_PAULO),
        client=ClientDetails(name="Rui Costa", email="rui@example.com"),
    )
    page.get_by_role("button", name="14:00").click()
    expect(page.get_by_role("region", name="The nearest open times")).to_be_visible()
    seen["time taken"] = sideways_overflow(page)
    page.goto(f"{link}cancel/")
    page.get_by_role("button", name="Yes, cancel it").click()
    expect(page.get_by_role("status")).to_be_visible()
    seen["cancelled"] = sideways_overflow(page)
    page.goto(f"{site}/manage/{'A' * 43}/")
    seen["not found"] = sideways_overflow(page)

    assert seen == dict.fromkeys(seen, 0)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_step_has_no_accessibility_violation(
    open_page, watch, axe_violations, appointment, site, viewport, scheme
):
    watch.allow_error(r"status of 404")  # the not-found page, visited on purpose
    page = open_page(viewport=viewport, scheme=scheme)
    link = manage_url(appointment.public_id)

    for url in (link, f"{link}cancel/", f"{link}reschedule/", f"{site}/manage/{'A' * 43}/"):
        page.goto(url)
        found = axe_violations(page)
        assert not found, f"{url}: {violations_text(found)}"


def test_a_time_taken_while_choosing_shows_fresh_times(page: Page, watch, appointment):
    watch.allow_error(r"status of 409")  # the refusal is answered 409 Conflict, on purpose
    day = in_two_days()
    page.goto(manage_url(appointment.public_id) + "reschedule/")
    expect(page.get_by_role("button", name="14:00")).to_be_visible()
    appointment_create(  # another client is faster
        service=appointment.service,
        start=wall_to_instant(day, dt.time(14), SAO_PAULO),
        client=ClientDetails(name="Rui Costa", email="rui@example.com"),
    )

    page.get_by_role("button", name="14:00").click()

    expect(page.get_by_role("alert")).to_contain_text("your appointment has not moved")
    alternatives = page.get_by_role("region", name="The nearest open times")
    expect(alternatives.get_by_role("button", name="13:00")).to_be_visible()
    expect(page.get_by_role("button", name="14:00")).to_have_count(0)
    alternatives.get_by_role("button", name="13:00").click()
    expect(page.get_by_role("status")).to_have_text(
        "Your appointment is moved to the time shown below."
    )
    appointment.refresh_from_db()
    assert appointment.starts_at == wall_to_instant(day, dt.time(13), SAO_PAULO)
