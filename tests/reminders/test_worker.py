"""The dispatcher under real Celery workers on the real Redis broker (not eager mode): a due
reminder is sent by a worker process; two dispatchers at once send each reminder once; a worker
killed with SIGKILL mid-dispatch loses nothing, and sends twice only a message it had sent but
not yet marked.

The workers are other processes, so they read committed rows (``transaction=True``) and the
test reads their mail from files. Their clock is the real one and cannot be moved from here:
what must be due gets a ``due_at`` in the past, a lease that must run out is made short through
the worker's environment, and every wait for a worker has a deadline.
"""

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from bookings.services import ClientDetails
from orchestration.appointment_changes import appointment_create
from reminders.delivery import render
from reminders.models import Reminder, ReminderKind, ReminderStatus
from tests.bookings.conftest import lisbon
from tests.factories import AppointmentFactory, BusinessFactory, ServiceFactory
from tests.reminders.real_worker import (
    Worker,
    current_database_url,
    mail_counts,
    read_mail,
    wait_for,
)

pytestmark = pytest.mark.django_db(transaction=True)

SEND_SECONDS = 60  # ample for a few hundred messages on a loaded two-core machine


@pytest.fixture
def mail_dir(tmp_path):
    return tmp_path / "mail"


@pytest.fixture
def start_workers(transactional_db, tmp_path, mail_dir):
    """Start ``count`` workers (each on its own queue) and wait until all answer a ping. Every
    one is stopped before the test database is flushed."""
    started: list[Worker] = []

    def start(count: int = 1, **env: str) -> list[Worker]:
        batch = []
        for _ in range(count):
            name = f"w{len(started) + 1}"
            worker = Worker(
                name=name, mail_dir=mail_dir, log_path=tmp_path / f"{name}.log", env=env
            )
            started.append(worker)
            batch.append(worker)
        for worker in batch:
            worker.wait_ready()
        return batch

    yield start
    for worker in started:
        worker.stop()
        worker.forget()


def due_reminders(*, appointments: int, kinds: list[str]) -> list[Reminder]:
    """``appointments`` appointments (one client each) with a reminder of each kind, all due."""
    business = BusinessFactory()
    service = ServiceFactory(business=business)
    due = timezone.now() - dt.timedelta(minutes=1)
    return Reminder.objects.bulk_create(
        Reminder(business=business, appointment=appointment, kind=kind, due_at=due)
        for appointment in AppointmentFactory.create_batch(
            appointments, business=business, service=service
        )
        for kind in kinds
    )


def mail_key(reminder: Reminder) -> tuple[str, str]:
    return reminder.appointment.client.email, render(reminder)[0]


def statuses() -> dict[str, int]:
    counts: dict[str, int] = {}
    for status in Reminder.objects.values_list("status", flat=True):
        counts[status] = counts.get(status, 0) + 1
    return counts


def all_sent() -> bool:
    return not Reminder.objects.exclude(status=ReminderStatus.SENT).exists()


def lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


@contextmanager
def reminder_table_locked() -> Iterator[None]:
    """A starting gun: hold the reminder table so that dispatchers sent meanwhile stop at their
    claim, then let them all go at once when the block ends. EXCLUSIVE mode still lets plain
    SELECTs through, so a claim without FOR UPDATE reads its rows and stops only at its
    UPDATE — which is exactly the race the row claim exists to prevent."""
    with psycopg.connect(current_database_url()) as gun:
        gun.execute("LOCK TABLE reminders_reminder IN EXCLUSIVE MODE")
        yield
        gun.rollback()


def test_a_due_confirmation_is_sent_by_a_real_worker(haircut, start_workers, mail_dir):
    # given a booking made through the core, whose confirmation is due at once
    day = timezone.localdate(timezone=haircut.business.tzinfo) + dt.timedelta(days=3)
    outcome = appointment_create(
        service=haircut,
        start=lisbon(day, "10:00"),
        client=ClientDetails("Ana", email="ana@example.com"),
    )
    confirmation = outcome.appointment.reminders.get(kind=ReminderKind.CONFIRMATION)
    (worker,) = start_workers()

    # when the worker runs a dispatch
    worker.dispatch()
    wait_for(
        lambda: Reminder.objects.get(pk=confirmation.pk).status == ReminderStatus.SENT,
        seconds=SEND_SECONDS,
        what="the confirmation to be marked sent",
    )

    # then exactly one message went out, the confirmation, with the client's management link
    (message,) = read_mail(mail_dir)
    assert message["To"] == "ana@example.com"
    assert message["Subject"] == f"Your Haircut at {haircut.business.name} is booked"
    assert outcome.manage_token in message.get_content()
    confirmation.refresh_from_db()
    assert confirmation.sent_at is not None
    assert confirmation.attempts == 1
    later = outcome.appointment.reminders.exclude(kind=ReminderKind.CONFIRMATION)
    assert {r.status for r in later} == {ReminderStatus.PENDING}  # not due yet


def test_two_dispatchers_at_once_send_each_of_300_reminders_exactly_once(start_workers, mail_dir):
    # given 300 due reminders (50 appointments x 6 kinds) and two worker processes
    reminders = due_reminders(appointments=50, kinds=ReminderKind.values)
    expected = {mail_key(r) for r in Reminder.objects.select_related("appointment__client")}
    assert len(expected) == len(reminders) == 300
    first, second = start_workers(2)

    # when both dispatch at the same instant
    with reminder_table_locked():
        first.dispatch()
        second.dispatch()
        wait_for(
            lambda: lock_waiters() >= 2,
            seconds=SEND_SECONDS,
            what="both dispatchers to reach their claim",
        )
    wait_for(all_sent, seconds=SEND_SECONDS, what=f"all 300 sent (now {statuses()})")

    # then every reminder went out exactly once, and both dispatchers took a share
    counts = mail_counts(mail_dir)
    assert set(counts) == expected
    sent_twice = {key: n for key, n in counts.items() if n > 1}
    assert not sent_twice, f"{len(sent_twice)} of 300 reminders sent more than once"
    wait_for(
        lambda: first.results() and second.results(),
        seconds=SEND_SECONDS,
        what="both dispatch tasks to finish",
    )
    claimed = [sum(r["claimed"] for r in worker.results()) for worker in (first, second)]
    assert all(share > 0 for share in claimed), claimed
    assert sum(claimed) == 300


STALL_AT = 6  # the worker stops at its sixth message of 40


@pytest.mark.parametrize(
    ("stall", "sent_twice"),
    [("before", 0), ("after", 1)],
    ids=["killed-before-a-send", "killed-after-a-send-before-its-mark"],
)
def test_a_worker_killed_mid_dispatch_loses_nothing_and_resends_only_a_message_it_had_not_marked(
    stall, sent_twice, start_workers, mail_dir, record_property
):
    # given 40 due reminders and a worker that stalls at its sixth message, before or after
    # writing it, holding its claim with a 3-second lease
    due_reminders(appointments=40, kinds=[ReminderKind.CONFIRMATION])
    keys = {r.pk: mail_key(r) for r in Reminder.objects.select_related("appointment__client")}
    (doomed,) = start_workers(
        TEST_EMAIL_BACKEND="tests.reminders.stalling_mail.StallingFileBackend",
        TEST_EMAIL_URL=f"filemail://{mail_dir}?stall_at={STALL_AT}&stall={stall}",
        REMINDERS_LEASE_SECONDS="3",
    )

    # when it is killed with SIGKILL at the stall, in the middle of its batch
    doomed.dispatch()

    def stalled() -> bool:
        written = sum(mail_counts(mail_dir).values())
        if stall == "after":  # the sixth is written; its mark waits behind the stall
            return written == STALL_AT
        # the five before it are written and marked; the sixth is not written
        marked = Reminder.objects.filter(status=ReminderStatus.SENT).count()
        return written == marked == STALL_AT - 1

    wait_for(stalled, seconds=SEND_SECONDS, what=f"the worker to stall at message {STALL_AT}")
    doomed.kill()

    in_flight = set(
        Reminder.objects.filter(status=ReminderStatus.SENDING).values_list("pk", flat=True)
    )
    mailed_at_kill = set(mail_counts(mail_dir))
    sent_before_mark = {pk for pk in in_flight if keys[pk] in mailed_at_kill}
    assert len(in_flight) == 40 - (STALL_AT - 1)  # claimed in one batch, not marked
    assert not Reminder.objects.filter(status=ReminderStatus.PENDING).exists()

    # and a new worker dispatches once the dead worker's lease has run out
    (successor,) = start_workers()
    lease_ends = max(
        Reminder.objects.filter(pk__in=in_flight).values_list("lease_until", flat=True)
    )
    wait_for(
        lambda: timezone.now() > lease_ends, seconds=5, what="the dead worker's lease to run out"
    )
    successor.dispatch()
    wait_for(all_sent, seconds=SEND_SECONDS, what=f"all 40 sent (now {statuses()})")

    # then nothing was lost; what was claimed and unsent at the kill went out exactly once; the
    # only message sent twice is one sent before its mark (one send in flight per worker)
    counts = mail_counts(mail_dir)
    assert set(counts) == set(keys.values())
    assert all(counts[keys[pk]] == 1 for pk in in_flight - sent_before_mark)
    duplicated = {pk for pk, key in keys.items() if counts[key] > 1}
    assert duplicated == sent_before_mark
    assert len(sent_before_mark) == sent_twice
    record_property("claimed_unsent_at_kill", len(in_flight - sent_before_mark))
    record_property("sent_before_mark", len(sent_before_mark))
    print(
        f"killed {stall} a send with {len(in_flight)} claimed: "
        f"{len(in_flight - sent_before_mark)} unsent (each sent once after restart), "
        f"{len(sent_before_mark)} sent before its mark (sent twice)"
    )
