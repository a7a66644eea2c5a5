"""The dispatcher in one process: claims, leases, failures. (The same code under real Celery
workers, concurrent dispatchers and SIGKILL is in test_worker.py.)"""

import datetime as dt
import smtplib
import threading

import pytest
from django.core import mail
from django.db import connection, transaction

from bookings.services import ClientDetails
from orchestration.appointment_changes import appointment_create
from reminders.models import Reminder, ReminderKind, ReminderStatus
from reminders.services import claim_due, dispatch_due
from reminders.services.dispatch import MAX_ATTEMPTS
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")


def book(haircut, wall="10:00", email="ana@example.com"):
    client = ClientDetails("Ana", email=email, phone="" if email else "+351912345678")
    return appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, wall), client=client
    ).appointment


def confirmation_of(appointment) -> Reminder:
    return Reminder.objects.get(appointment=appointment, kind=ReminderKind.CONFIRMATION)


def test_a_due_reminder_is_sent_once_and_marked_sent(haircut):
    appointment = book(haircut)

    first = dispatch_due(now=NOW)
    again = dispatch_due(now=NOW)

    assert (first.sent, again.claimed) == (1, 0)
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ana@example.com"]
    reminder = confirmation_of(appointment)
    assert (reminder.status, reminder.attempts) == (ReminderStatus.SENT, 1)


def test_reminders_not_yet_due_wait(haircut):
    book(haircut)

    dispatch_due(now=NOW)

    waiting = Reminder.objects.exclude(kind=ReminderKind.CONFIRMATION)
    assert {r.status for r in waiting} == {ReminderStatus.PENDING}


def test_a_claim_in_progress_is_left_alone_until_its_lease_runs_out(haircut):
    appointment = book(haircut)
    assert claim_due(now=NOW) == [confirmation_of(appointment).pk]  # a dispatcher that died

    assert claim_due(now=NOW + dt.timedelta(minutes=4)) == []
    assert claim_due(now=NOW + dt.timedelta(minutes=6)) == [confirmation_of(appointment).pk]


@pytest.mark.django_db(transaction=True)
def test_a_row_locked_by_another_dispatcher_is_skipped_not_waited_for(haircut):
    first, second = book(haircut, "10:00"), book(haircut, "14:00", email="bea@example.com")
    locked = threading.Event()
    release = threading.Event()

    def other_dispatcher_holding_the_first_row():
        with transaction.atomic():
            Reminder.objects.select_for_update().get(pk=confirmation_of(first).pk)
            locked.set()
            release.wait(10)
        connection.close()

    other = threading.Thread(target=other_dispatcher_holding_the_first_row)
    other.start()
    assert locked.wait(10)
    try:
        claimed = claim_due(now=NOW)
    finally:
        release.set()
        other.join()

    assert claimed == [confirmation_of(second).pk]


def test_a_client_without_email_fails_honestly_and_is_not_counted_sent(haircut):
    appointment = book(haircut, email="")

    result = dispatch_due(now=NOW)

    assert (result.sent, result.failed) == (0, 1)
    reminder = confirmation_of(appointment)
    assert reminder.status == ReminderStatus.FAILED
    assert reminder.last_error == "The client has no email address."
    assert mail.outbox == []


def test_a_refused_send_is_retried_later_then_given_up(haircut, monkeypatch):
    appointment = book(haircut)

    def refuse(self, *args, **kwargs):
        raise smtplib.SMTPServerDisconnected("connection lost")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    now = NOW
    for _ in range(MAX_ATTEMPTS):
        dispatch_due(now=now)
        now += dt.timedelta(hours=1)

    reminder = confirmation_of(appointment)
    assert (reminder.status, reminder.attempts) == (ReminderStatus.FAILED, MAX_ATTEMPTS)
    assert "connection lost" in reminder.last_error


def test_a_retry_waits_instead_of_spinning(haircut, monkeypatch):
    appointment = book(haircut)
    monkeypatch.setattr(
        "django.core.mail.EmailMessage.send",
        lambda self, *a, **k: (_ for _ in ()).throw(OSError("down")),
    )

    dispatch_due(now=NOW)

    reminder = confirmation_of(appointment)
    assert (reminder.status, reminder.attempts) == (ReminderStatus.PENDING, 1)
    assert reminder.due_at > NOW


def test_claiming_costs_the_same_queries_whatever_the_backlog(haircut):
    from django.test.utils import CaptureQueriesContext

    def queries_to_claim() -> int:
        with CaptureQueriesContext(connection) as captured:
            claim_due(now=NOW, batch=500)
        return len(captured.captured_queries)

    book(haircut, "09:00", email="first@example.com")
    small_backlog = queries_to_claim()
    for hour in range(10, 17):
        book(haircut, f"{hour:02}:00", email=f"c{hour}@example.com")
    large_backlog = queries_to_claim()

    assert small_backlog == large_backlog


def test_an_unexpected_error_fails_its_row_and_the_rest_of_the_batch_is_sent(haircut, monkeypatch):
    first, second = book(haircut, "10:00"), book(haircut, "14:00", email="bea@example.com")
    real_deliver = __import__("reminders.delivery", fromlist=["deliver"]).deliver

    def deliver_but_break_on_ana(reminder):
        if reminder.appointment.client.email == "ana@example.com":
            raise RuntimeError("provider library bug")
        real_deliver(reminder)

    monkeypatch.setattr("reminders.services.dispatch.deliver", deliver_but_break_on_ana)

    dispatch_due(now=NOW)

    assert confirmation_of(first).status == ReminderStatus.FAILED
    assert "provider library bug" in confirmation_of(first).last_error
    assert confirmation_of(second).status == ReminderStatus.SENT
