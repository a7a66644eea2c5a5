"""The hosted booking page's Confirm in a real browser against a live server: pressed twice,
retried after a lost answer and after a reload, a deposit paid (or not) through the fake
Stripe's pay page, and a time lost to another client before the press."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, Request, Route, expect

from bookings.models import Appointment, AppointmentStatus, DepositRule, SlotHold
from bookings.services import ClientDetails, appointment_create
from tests.browser.booking_steps import (
    booked_title,
    booking_page,
    choose_haircut,
    confirm_button,
    give_details,
    held_and_detailed,
    live_slots,
    pick_second_time,
    salon_open_every_day,
)

CONFIRM = re.compile(r"/api/v1/conversations/[^/]+/confirm/$")


@pytest.fixture
def salon(site):
    return salon_open_every_day()


def keys_sent(page: Page) -> list[str]:
    """The Idempotency-Key of every Confirm the page sends, in order."""
    keys: list[str] = []
    page.on(
        "request",
        lambda request: (
            CONFIRM.search(request.url) and keys.append(request.headers["idempotency-key"])
        ),
    )
    return keys


def test_a_double_clicked_confirm_books_once_with_one_key(page, site, salon):
    held_and_detailed(page, site, salon)
    keys = keys_sent(page)

    confirm_button(page).dblclick()

    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    expect(page.locator("#notice")).to_be_hidden()
    assert Appointment.objects.count() == 1
    assert len(keys) == 1, "the second click, on a pressed Confirm, sends nothing"


def test_a_confirm_whose_answer_was_lost_is_retried_with_the_same_key(page, site, salon, watch):
    watch.allow_error("ERR_CONNECTION_RESET")  # the answer this test loses on purpose
    held_and_detailed(page, site, salon)
    keys = keys_sent(page)

    # Given the first Confirm reaches the server, books, and its answer never comes back
    def lose_the_answer(route: Route, request: Request) -> None:
        route.fetch()
        route.abort("connectionreset")

    page.route(CONFIRM, lose_the_answer, times=1)
    confirm_button(page).click()
    expect(page.locator("#notice")).to_contain_text("could not reach the server")

    # When the client presses Confirm again
    confirm_button(page).click()

    # Then the same booking is answered, not a second one
    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    assert Appointment.objects.count() == 1
    assert len(keys) == 2, keys
    assert keys[0] == keys[1], keys


def test_a_confirm_retried_after_a_reload_sends_the_same_key(page, site, salon, watch):
    watch.allow_error("ERR_INTERNET_DISCONNECTED")  # the request this test drops on purpose
    held_and_detailed(page, site, salon)
    keys = keys_sent(page)

    # Given the first Confirm never reached the server
    page.route(CONFIRM, lambda route: route.abort("internetdisconnected"), times=1)
    confirm_button(page).click()
    expect(page.locator("#notice")).to_contain_text("could not reach the server")
    assert not Appointment.objects.exists()

    # When the client reloads and presses Confirm again
    page.reload()
    confirm_button(page).click()

    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    assert Appointment.objects.count() == 1
    assert len(keys) == 2, keys
    assert keys[0] == keys[1], keys


def with_deposit(business) -> None:
    business.deposit_rule, business.deposit_amount = DepositRule.FIXED, Decimal("15.00")
    business.save()


def test_a_deposit_shows_confirmed_only_once_the_webhook_has_marked_it_paid(
    page, site, salon, paying_stripe
):
    with_deposit(salon)
    label = held_and_detailed(page, site, salon)
    expect(page.locator(".confirm-card")).to_contain_text("€15.00, paid now")

    # When the client confirms and pays on Stripe's page, and the webhook is late
    paying_stripe.hold_webhooks = True
    page.get_by_role("button", name="Confirm and pay the deposit").click()
    page.get_by_role("link", name="Pay the deposit").click()
    page.get_by_role("button", name="Pay 15.00 EUR").click()

    # Then the page back says it waits, and does not say confirmed
    expect(page).to_have_url(re.compile(r"\?payment=returned$"))
    expect(page.get_by_text("waiting for the payment to be confirmed")).to_be_visible()
    expect(booked_title(page)).to_have_count(0)
    assert Appointment.objects.get().status == AppointmentStatus.PENDING_PAYMENT

    # When the webhook arrives, the page turns to confirmed by itself
    paying_stripe.release_webhooks()
    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    expect(page.locator(".booked-card")).to_contain_text(label)
    expect(page.get_by_text("waiting for the payment to be confirmed")).to_have_count(0)


def test_cancelling_on_the_pay_page_comes_back_and_says_so(page, site, salon, paying_stripe):
    with_deposit(salon)
    held_and_detailed(page, site, salon)
    page.get_by_role("button", name="Confirm and pay the deposit").click()

    page.get_by_role("link", name="Pay the deposit").click()
    page.get_by_role("button", name="Cancel").click()

    expect(page).to_have_url(re.compile(r"\?payment=cancelled$"))
    expect(page.get_by_text("The payment was cancelled")).to_be_visible()
    expect(page.get_by_role("link", name="Pay the deposit")).to_be_visible()
    expect(booked_title(page)).to_have_count(0)


def test_a_time_taken_before_confirm_offers_the_real_alternatives_and_one_books(
    page, site, salon, watch
):
    watch.allow_error(r"status of 409")  # the refused Confirm: the browser logs every 4xx
    held_and_detailed(page, site, salon)
    # Given the hold ran out and another client booked that very time
    hold = SlotHold.objects.get()
    SlotHold.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    taken = appointment_create(
        service=hold.service, start=hold.starts_at, client=ClientDetails("Bo", "bo@example.com")
    ).appointment

    confirm_button(page).click()

    # Then the page says so, and offers the open times as buttons
    expect(page.locator(".message").last).to_contain_text("taken")
    alternatives = live_slots(page)
    expect(alternatives.first).to_be_visible()
    offered = alternatives.evaluate_all(
        "(buttons) => buttons.map(b => b.getAttribute('aria-label'))"
    )
    assert offered

    # When the client picks one, it is held and booked
    alternatives.first.click()
    # (the details given before still stand: the card comes back at once)
    confirm_button(page).click()
    expect(booked_title(page)).to_have_text("Your booking is confirmed")
    expect(page.locator(".booked-card")).to_contain_text(offered[0])
    mine = Appointment.objects.exclude(pk=taken.pk).get()
    assert mine.starts_at != taken.starts_at


def current_step(page: Page):
    return page.locator('#progress [aria-current="step"]')


def test_the_progress_follows_the_stage_from_service_to_confirmed(page, site, salon, paying_stripe):
    with_deposit(salon)
    booking_page(page, site, salon)
    steps = page.locator("#progress .progress-label")
    expect(steps).to_have_text(["Service", "Time", "Details", "Deposit", "Confirmed"])
    expect(current_step(page)).to_have_count(1)
    expect(current_step(page)).to_contain_text("Service")

    choose_haircut(page)
    expect(current_step(page)).to_contain_text("Time")
    pick_second_time(page)
    expect(current_step(page)).to_contain_text("Details")
    give_details(page)
    expect(current_step(page)).to_contain_text("Details")
    page.get_by_role("button", name="Confirm and pay the deposit").click()
    expect(current_step(page)).to_contain_text("Deposit")
    expect(page.locator('#progress [data-step="details"]')).to_contain_text("(done)")

    page.get_by_role("link", name="Pay the deposit").click()
    page.get_by_role("button", name="Pay 15.00 EUR").click()
    expect(booked_title(page)).to_be_visible()
    expect(current_step(page)).to_have_count(1)
    expect(current_step(page)).to_contain_text("Confirmed (current step)")
