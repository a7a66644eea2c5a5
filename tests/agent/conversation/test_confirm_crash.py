"""A server killed in the middle of a Confirm with a deposit loses nothing: whatever point the
process dies at — inside the booking's transaction, after the booking committed with Stripe not
yet asked, while Stripe makes the Checkout, after Stripe answered, before the reply is stored —
the client's retry of the same Confirm (same Idempotency-Key) on another server ends with the
booking awaiting its deposit and a working payment link: the one Checkout Stripe made, never a
second. The retry goes through at once: a dead request's lease holds nobody back.

Each point is reached for real, in a real ``manage.py runserver`` process killed with SIGKILL:
the test holds a lock the server must wait for (the day's booking lock, the conversation's row)
or the local fake Stripe holds the Checkout request before or after making the session.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client as HttpClient
from django.utils import timezone

from agent.models import Conversation
from bookings.availability import wall_to_instant
from bookings.locks import lock_key
from bookings.models import Appointment, AppointmentStatus, DepositRule
from devtools.fake_stripe import SECRET_KEY, WEBHOOK_SECRET
from payments.models import Payment, PaymentStatus
from tests.reminders.real_worker import wait_for

from .chat_http import Worker, chat, confirm, lock_waiters, read, started

KEY = "crash-confirm-0001"
WAIT_SECONDS = 30.0


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def deposit_shop(shop):
    """The salon (open every day 09:00–17:00) asking a 20 % deposit: 12.00 on a haircut."""
    shop.deposit_rule, shop.deposit_percent = DepositRule.PERCENT, 20
    shop.save()
    return shop


def tomorrow_at_ten(shop) -> tuple[dt.date, dt.datetime]:
    zone = ZoneInfo(shop.time_zone)
    tomorrow = timezone.now().astimezone(zone).date() + dt.timedelta(days=1)
    return tomorrow, wall_to_instant(tomorrow, dt.time(10), zone)


def ready_to_confirm(shop) -> str:
    """A conversation showing the booking to confirm (driven in this process: the servers and
    this test share the database)."""
    api = HttpClient()
    token = started(api, shop.slug)
    chat(api, token, "a haircut tomorrow at 10", "Ana Silva", "ana@example.com")
    assert read(api, token).json()["state"] == "details_collected"
    return token


def in_booking_transaction(shop, fake, server, stop: Callable[[], None]) -> None:
    """The server waits for the day's booking lock inside the booking's transaction."""
    day, _ten = tomorrow_at_ten(shop)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [lock_key(shop.pk, day)])
    try:
        wait_for(lambda: lock_waiters() >= 1, seconds=WAIT_SECONDS, what="the booking lock")
        stop()
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [lock_key(shop.pk, day)])


def before_stripe_made_it(shop, fake, server, stop: Callable[[], None]) -> None:
    """The booking committed; the Checkout request reached Stripe, nothing made yet."""
    stall = fake.stall("before")
    assert stall.reached.wait(WAIT_SECONDS), server.log()
    assert Payment.objects.filter(checkout_session_id__isnull=True).count() == 1
    stop()
    stall.release()  # Stripe goes on to make the session the dead caller never hears of
    wait_for(lambda: len(fake.sessions) == 1, seconds=WAIT_SECONDS, what="Stripe's session")


def after_stripe_made_it(shop, fake, server, stop: Callable[[], None]) -> None:
    """Stripe made the Checkout; its answer has not reached the server."""
    stall = fake.stall("after")
    assert stall.reached.wait(WAIT_SECONDS), server.log()
    assert len(fake.sessions) == 1
    stop()
    stall.release()


def before_the_reply(shop, fake, server, stop: Callable[[], None]) -> None:
    """The Checkout is stored; the server waits to write the reply."""
    stall = fake.stall("after")
    assert stall.reached.wait(WAIT_SECONDS), server.log()
    with transaction.atomic():
        Conversation.objects.select_for_update().get()
        stall.release()
        wait_for(lambda: lock_waiters() >= 1, seconds=WAIT_SECONDS, what="the reply's lock")
        assert Payment.objects.get().checkout_session_id is not None
        stop()


KILL_POINTS = [
    pytest.param(in_booking_transaction, id="inside the booking transaction"),
    pytest.param(before_stripe_made_it, id="booked, before Stripe made the checkout"),
    pytest.param(after_stripe_made_it, id="Stripe made it, before its answer arrived"),
    pytest.param(before_the_reply, id="checkout stored, before the reply"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kill_at", KILL_POINTS)
def test_a_confirm_killed_anywhere_is_finished_by_its_retry_with_one_working_link(
    deposit_shop, fake_stripe, servers, kill_at
):
    env = {
        "STRIPE_API_BASE": fake_stripe.base_url,
        "STRIPE_SECRET_KEY": SECRET_KEY,
        "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
    }
    _day, ten = tomorrow_at_ten(deposit_shop)
    token = ready_to_confirm(deposit_shop)
    first = servers(env)
    pressed = Worker(lambda: confirm(first.http, token, key=KEY), "first confirm")
    pressed.start()

    kill_at(deposit_shop, fake_stripe, first, first.kill)

    pressed.join(WAIT_SECONDS)
    assert not pressed.is_alive()
    second = servers(env)
    retried = confirm(second.http, token, key=KEY)

    assert retried.status_code in (200, 201), retried.content
    body = retried.json()
    [session] = fake_stripe.sessions.values()  # one Checkout, whatever the point
    assert body["reply"]["choices"]["payment"]["url"] == session["url"]
    assert body["conversation"]["state"] == "awaiting_payment"
    [appointment] = Appointment.objects.all()
    assert (appointment.status, appointment.starts_at) == (AppointmentStatus.PENDING_PAYMENT, ten)
    payment = Payment.objects.get(appointment=appointment)
    assert (payment.status, payment.checkout_session_id) == (PaymentStatus.PENDING, session["id"])
    # Asked again, the same answer: the reply is stored now.
    again = confirm(second.http, token, key=KEY)
    assert again.status_code == 200
    assert again.json()["reply"] == body["reply"]
    assert len(fake_stripe.sessions) == 1
