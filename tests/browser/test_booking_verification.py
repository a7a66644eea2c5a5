"""A returning client on the booking page, in a real browser: they verify their email with the
code the email brings (a wrong code first, told in its own words), then ask the chat to cancel
their appointment and are shown the card to press; the verification form passes axe in every
look. And from their appointment's page, "Ask the assistant about this appointment" opens the
booking page on a chat that already knows them — the manage token in no address it sees."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import Page, expect

from agent.conversation.turns import conversation_for_token
from bookings.models import Appointment, AppointmentStatus
from bookings.services import ClientDetails, appointment_create
from bookings.tokens import manage_token
from tests.agent.conversation.tasks_at_once import tasks_run_at_once  # noqa: F401
from tests.browser.booking_steps import booking_page, salon_open_every_day, tab_to
from tests.browser.test_accessibility import LOOKS, assert_accessible
from tests.reminders.real_worker import wait_for

CODE = re.compile(r"\b(\d{6})\b")
# The browser logs the API's refusal of a wrong code (a 409) as a console error.
REFUSED_CODE = r"status of 409 \(Conflict\)"

pytestmark = pytest.mark.usefixtures("tasks_run_at_once")


@pytest.fixture
def salon(site):
    return salon_open_every_day()


@pytest.fixture
def visit(salon) -> Appointment:
    """Ana's haircut, booked earlier (not in this browser), two days from now at 10:00."""
    day = timezone.localdate(timezone=salon.tzinfo) + dt.timedelta(days=2)
    start = dt.datetime.combine(day, dt.time(10), tzinfo=salon.tzinfo)
    return appointment_create(
        service=salon.services.get(),
        start=start,
        client=ClientDetails(name="Ana Silva", email="ana@example.com"),
    ).appointment


def verify_form(page: Page):
    return page.locator("#verify")


def ask_for_a_code(page: Page, email: str) -> None:
    """By keyboard: to the disclosure, open it, to the address, type it, send."""
    tab_to(page, re.compile(r"^Already booked with us\?"))
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.get_by_label("Address you booked with")).to_be_focused()
    page.keyboard.type(email)
    page.keyboard.press("Enter")


def emailed_code() -> str:
    body = str(mail.outbox[-1].body)
    found = CODE.search(body)
    assert found is not None, body
    return found.group(1)


def test_a_returning_client_verifies_by_keyboard_then_the_chat_prepares_their_cancel(
    page: Page, site, salon, visit, watch
):
    watch.allow_error(REFUSED_CODE)
    booking_page(page, site, salon)

    ask_for_a_code(page, "ana@example.com")

    status = verify_form(page).get_by_role("status")
    expect(status).to_have_text(
        "If ana@example.com is the address you booked with here, we sent a 6-digit code to "
        "it. Type it below within 10 minutes."
    )
    code_box = page.get_by_label("6-digit code we sent")
    expect(code_box).to_be_focused()
    assert [message.to for message in mail.outbox] == [["ana@example.com"]]

    # A wrong code is refused in its own words, announced
    page.keyboard.type("000000")
    page.keyboard.press("Enter")
    alert = verify_form(page).get_by_role("alert")
    expect(alert).to_have_text("That code is not right. Tries left: 4.")
    expect(code_box).to_be_focused()

    # The right one verifies: the page says so, and the client writes to the chat
    code_box.fill(emailed_code())
    page.keyboard.press("Enter")
    expect(status).to_have_text(
        "You are verified as Ana Silva (a…@example.com). Ask the assistant about your "
        "bookings here: for example, \u201cmove my appointment\u201d."
    )
    expect(alert).to_be_hidden()
    expect(page.get_by_label("Your message")).to_be_focused()
    page.keyboard.type("cancel my appointment")
    page.keyboard.press("Enter")

    card = page.locator(".effect-card")
    expect(card).to_contain_text("Cancel your Haircut")
    card.get_by_role("button").click()
    wait_for(
        lambda: Appointment.objects.get(pk=visit.pk).status == AppointmentStatus.CANCELLED,
        seconds=10,
        what="the appointment to be cancelled",
    )


def test_an_address_not_on_file_reads_the_same_and_no_code_opens_anything(
    page: Page, site, salon, visit, watch
):
    watch.allow_error(REFUSED_CODE)
    booking_page(page, site, salon)

    ask_for_a_code(page, "stranger@example.com")

    expect(verify_form(page).get_by_role("status")).to_have_text(
        "If stranger@example.com is the address you booked with here, we sent a 6-digit code "
        "to it. Type it below within 10 minutes."
    )
    assert mail.outbox == []
    page.keyboard.type("123456")
    page.keyboard.press("Enter")
    expect(verify_form(page).get_by_role("alert")).to_have_text(
        "That code is not right. Tries left: 4."
    )


@pytest.mark.parametrize(("viewport", "scheme"), LOOKS)
def test_the_verification_form_has_no_accessibility_violations(
    open_page, site, salon, visit, axe_violations, viewport, scheme
):
    page = booking_page(open_page(viewport, scheme), site, salon)
    verify_form(page).locator("summary").click()
    assert_accessible(page, axe_violations, "verification, address asked")
    page.get_by_role("button", name="Send me a code").click()
    expect(verify_form(page).get_by_role("alert")).to_have_text(
        "Write the email address you booked with."
    )
    assert_accessible(page, axe_violations, "verification, address missing")
    page.get_by_label("Address you booked with").fill("ana@example.com")
    page.get_by_role("button", name="Send me a code").click()
    expect(page.get_by_label("6-digit code we sent")).to_be_focused()
    assert_accessible(page, axe_violations, "verification, code asked")
    page.get_by_label("6-digit code we sent").fill(emailed_code())
    page.get_by_role("button", name="Verify", exact=True).click()
    expect(verify_form(page).get_by_role("status")).to_contain_text("You are verified")
    assert_accessible(page, axe_violations, "verification, verified")


def test_the_appointment_page_opens_a_chat_about_that_appointment(page: Page, site, salon, visit):
    token = manage_token(visit.public_id)
    page.goto(f"{site}/manage/{token}/")

    page.get_by_role("button", name="Ask the assistant about this appointment").click()

    expect(page).to_have_url(f"{site}/b/{salon.slug}/")
    expect(page.locator(".message--assistant")).to_have_count(1)
    expect(verify_form(page).get_by_role("status")).to_contain_text(
        "This chat was opened from your appointment's page"
    )
    kept = page.evaluate(
        "(slug) => JSON.parse(localStorage.getItem(`ordina.booking.${slug}`)).token", salon.slug
    )
    assert conversation_for_token(kept).proven_appointment == visit
    # The handover is gone once taken: a reload is the same chat, read from storage.
    assert "ordina_conversation" not in page.evaluate("() => document.cookie")
    assert token not in page.url
    page.reload()
    expect(page.locator(".message--assistant")).to_have_count(1)

    page.get_by_label("Your message").fill("cancel my appointment")
    page.keyboard.press("Enter")
    expect(page.locator(".effect-card")).to_contain_text("Cancel your Haircut")
