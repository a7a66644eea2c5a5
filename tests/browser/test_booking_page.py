"""The hosted booking page in a real browser (Debian's Chromium) against a live server: a whole
booking by keyboard alone, by button, by typing; resume and start over; markup shown as text;
the progress of the booking; a phone's width; a refused message. Every test also fails on a
console error or a request to any host but the server (tests/browser/conftest.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from agent.conversation.staff import staff_reply
from agent.conversation.turns import token_hash
from agent.models import Conversation
from bookings.models import Appointment
from knowledge.services import knowledge_source_create
from tests.browser.booking_steps import (
    booked_title,
    booking_page,
    choose_haircut,
    confirm_button,
    focused,
    give_details,
    live_slots,
    pick_second_time,
    salon_open_every_day,
    tab_to,
)
from tests.factories import ServiceFactory, staff_of


@pytest.fixture
def salon(site):
    return salon_open_every_day()


def test_a_whole_booking_by_keyboard_alone(page: Page, site, salon):
    booking_page(page, site, salon)

    # When the client tabs to the service and presses Enter
    tab_to(page, re.compile(r"^Haircut"))
    page.keyboard.press("Enter")
    # Then the times offered are one Tab stop, walked with the arrow keys
    expect(live_slots(page).first).to_be_visible()
    tab_to(page, re.compile(r" at \d\d:\d\d"))
    first = focused(page)
    page.keyboard.press("Tab")
    assert " at " not in focused(page), "the next Tab leaves the times"
    page.keyboard.press("Shift+Tab")
    assert focused(page) == first
    page.keyboard.press("ArrowRight")
    second = focused(page)
    assert second != first
    assert second == live_slots(page).nth(1).get_attribute("aria-label")
    page.keyboard.press("Enter")
    # Then the details form has the focus
    expect(page.get_by_label("Name")).to_be_focused()
    page.keyboard.type("Ana Silva")
    page.keyboard.press("Tab")
    page.keyboard.type("ana@example.com")
    page.keyboard.press("Enter")
    # And Confirm is reached by Tab
    expect(confirm_button(page)).to_be_visible()
    tab_to(page, re.compile(r"^Confirm booking$"))
    page.keyboard.press("Enter")

    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    expect(booked_title(page)).to_be_focused()
    card = page.locator(".booked-card")
    expect(card).to_contain_text(second)
    appointment = Appointment.objects.get()
    calendar = card.get_by_role("link", name="Add to calendar")
    manage = card.get_by_role("link", name="See, move or cancel it")
    expect(calendar).to_have_attribute("href", re.compile(r"/manage/.+/calendar\.ics$"))
    expect(manage).to_have_attribute("href", re.compile(r"/manage/[^/]+/$"))
    tab_to(page, re.compile(r"^Add to calendar$"))
    tab_to(page, re.compile(r"^See, move or cancel it$"))
    assert appointment.client.name == "Ana Silva"


def test_a_slot_picked_by_its_button_is_held_and_booked(page, site, salon):
    booking_page(page, site, salon)

    choose_haircut(page)
    label = pick_second_time(page)
    give_details(page)
    confirm_button(page).click()

    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    expect(page.locator(".booked-card")).to_contain_text(label)
    appointment = Appointment.objects.get()
    assert appointment.client.name == "Ana Silva"


def test_typing_the_second_one_holds_the_second_time_offered(page, site, salon):
    booking_page(page, site, salon)
    choose_haircut(page)
    second = live_slots(page).nth(1).get_attribute("aria-label")

    page.get_by_label("Your message").fill("the second one, please")
    page.keyboard.press("Enter")

    expect(page.get_by_label("Name")).to_be_visible()
    give_details(page)
    confirm_button(page).click()
    expect(page.locator(".booked-card")).to_contain_text(second)


def saved_token(page: Page, business) -> str:
    return page.evaluate(
        "(slug) => JSON.parse(localStorage.getItem(`ordina.booking.${slug}`)).token",
        business.slug,
    )


def test_a_reload_resumes_the_same_conversation_and_start_over_begins_a_new_one(page, site, salon):
    booking_page(page, site, salon)
    choose_haircut(page)
    shown = page.locator(".message").count()
    token = saved_token(page, salon)

    # When the client reloads the page
    page.reload()

    # Then the same conversation is shown, read from its row; the token is in no address
    expect(page.locator(".message")).to_have_count(shown)
    expect(live_slots(page).first).to_be_visible()
    assert token not in page.url
    assert Conversation.objects.get().token_hash == token_hash(token)

    # When the client starts over (and says yes when asked)
    page.get_by_role("button", name="Start over").click()
    page.get_by_role("button", name="Start a new conversation").click()

    # Then a new conversation begins, and it is the one kept
    expect(page.locator(".message")).to_have_count(1)
    new_token = saved_token(page, salon)
    assert new_token != token
    assert Conversation.objects.filter(token_hash=token_hash(new_token)).exists()
    page.reload()
    expect(page.locator(".message")).to_have_count(1)


def test_a_person_taking_over_is_said_and_their_reply_arrives_without_reload(page, site, salon):
    booking_page(page, site, salon)

    # When the client asks for a person, the page says one has the conversation
    page.get_by_label("Your message").fill("Can I talk to a real person?")
    page.keyboard.press("Enter")

    expect(page.get_by_text("A person from the team has this conversation")).to_be_visible()
    # When a member of the team replies from the dashboard
    staff_reply(
        conversation=Conversation.objects.get(),
        author=staff_of(salon),
        text="Hi, this is Rita. Of course, what can I do for you?",
    )
    # Then it appears by itself, as the team's
    reply = page.locator(".message--staff")
    expect(reply).to_contain_text("Hi, this is Rita.")
    expect(reply).to_contain_text("Studio Lumen team (a person)")


MARKUP = "<img src=x onerror=alert(1)>"


def test_markup_in_a_service_name_and_a_knowledge_answer_is_shown_as_text(page, site, salon):
    ServiceFactory(business=salon, name=f"Colour {MARKUP}", duration_minutes=60)
    knowledge_source_create(
        business=salon, title="Parking", body=f"Parking is free behind the salon {MARKUP}."
    )
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    booking_page(page, site, salon)

    page.get_by_label("Your message").fill("Where can I park?")
    page.keyboard.press("Enter")
    expect(page.locator(".message--assistant").last).to_contain_text(
        f"Parking is free behind the salon {MARKUP}."
    )
    colour = page.get_by_role("button", name=re.compile(r"^Colour"))
    expect(colour).to_contain_text(f"Colour {MARKUP}")
    colour.click()
    expect(live_slots(page).first).to_be_visible()
    expect(page.locator(".message--assistant").last).to_contain_text(f"Colour {MARKUP} takes")

    expect(page.locator("#picker-service option").first).to_have_text(re.compile(re.escape(MARKUP)))
    assert page.locator("img").count() == 0
    assert dialogs == []


def test_a_time_picked_without_chatting_ends_in_the_same_confirmed_card(page, site, salon):
    booking_page(page, site, salon)
    picker = page.get_by_role("region", name="Pick a time")

    # When the client chooses the service, a later day and one of its open times
    picker.get_by_label("Service").select_option(label="Haircut · 60 min · €60.00")
    days = picker.get_by_role("group", name="Days with open times").get_by_role("button")
    days.nth(1).click()
    expect(days.nth(1)).to_have_attribute("aria-pressed", "true")
    time = picker.locator("#picker-slots").get_by_role("button").nth(2)
    label = time.get_attribute("aria-label")
    time.click()

    # Then it is held in the conversation, and goes on as the chat does
    expect(page.get_by_label("Name")).to_be_focused()
    give_details(page)
    confirm_button(page).click()
    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    expect(page.locator(".booked-card")).to_contain_text(label)
    assert Appointment.objects.get().client.email == "ana@example.com"


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide"


def test_a_whole_booking_at_a_phone_width_never_scrolls_sideways(open_page, site, salon):
    page = open_page(viewport="phone")
    booking_page(page, site, salon)
    no_sideways_scroll(page)

    choose_haircut(page)
    no_sideways_scroll(page)
    pick_second_time(page)
    no_sideways_scroll(page)
    give_details(page)
    no_sideways_scroll(page)
    confirm_button(page).click()

    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    no_sideways_scroll(page)


def test_a_message_too_long_is_refused_clearly_and_the_conversation_stays(page, site, salon, watch):
    watch.allow_error(r"status of 400")  # the refusal this test provokes
    booking_page(page, site, salon)
    choose_haircut(page)
    shown = page.locator(".message").count()

    # When a 5,000-character message is sent (a long paste)
    page.get_by_label("Your message").fill("a" * 5000)
    page.keyboard.press("Enter")

    # Then it says what is wrong, and nothing of the conversation is lost
    error = page.locator("#composer-error")
    expect(error).to_have_text(re.compile("2000 characters"))
    expect(page.locator(".message")).to_have_count(shown)
    expect(page.locator(".message--pending")).to_have_count(0)
    expect(page.get_by_label("Your message")).to_have_value("a" * 5000)
    # And the conversation goes on
    page.get_by_label("Your message").fill("the first one")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Name")).to_be_visible()
    expect(error).to_be_hidden()


def test_a_message_too_large_to_send_is_refused_clearly(page, site, salon, watch):
    watch.allow_error(r"status of 413")  # the refusal this test provokes
    booking_page(page, site, salon)

    page.get_by_label("Your message").fill("a" * 70_000)
    page.keyboard.press("Enter")

    expect(page.locator("#composer-error")).to_have_text(re.compile("too long"))
    expect(page.locator(".message")).to_have_count(1)
