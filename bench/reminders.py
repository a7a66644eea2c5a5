"""Reminder dispatch: a backlog of due reminders drained by two worker processes at once.

    .venv/bin/python bench/reminders.py [--reminders 50000] [--small 5000] [--workers 2]

Appointments (one client each, with an email) and their reminder rows — the five kinds planned
at confirmation, all already due — are written with bulk_create. Then ``--workers`` processes,
forked after Django's connections were closed, each run ``dispatch_due`` until nothing is due,
all at once, with the locmem email backend. Each worker counts its SQL statements (an execute
wrapper) and its non-empty claims, and returns its outbox as (recipient, subject) pairs; a
client has one appointment and each kind its own subject, so a pair names one (appointment,
kind). The parent counts duplicates across the outboxes and the rows left unsent.

A backlog of ``--small`` is drained first, then one of ``--reminders`` on top of it, so the
queries per reminder of both can be compared: batch claims keep it constant.

Last line: sent (messages in the outboxes), duplicates (messages beyond the first for one
(appointment, kind)), unsent (rows not marked sent), per_s (sent per second of the drain, from
the fork to the last worker's answer), queries_per_reminder (statements / sent; BEGIN and
COMMIT not counted), the same for the small backlog, claims (non-empty claims, all workers),
claim_p50_ms / claim_max_ms (one claim transaction), failed.
"""

import argparse
import datetime as dt
import multiprocessing
import sys
import time
from collections import Counter
from dataclasses import dataclass

import harness

KINDS = ("confirmation", "attendance", "before_24h", "before_2h", "post_visit")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reminders", type=int, default=50_000)
    parser.add_argument("--small", type=int, default=5_000, help="the first, smaller backlog")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="ordina_bench_reminders")
    return parser.parse_args(argv)


@dataclass(frozen=True)
class Drained:
    """What one worker sends back."""

    sent: int
    failed: int
    statements: int
    claim_ms: list[float]  # one per non-empty claim
    mail: list[tuple[str, str]]
    error: str = ""


def due_backlog(service, count: int, *, tag: str) -> None:
    """``count`` due reminders: count / 5 appointments, each with its own client and one
    reminder of each kind planned at confirmation, all due a minute ago."""
    from django.utils import timezone

    from bookings.models import Appointment, Client
    from reminders.models import Reminder

    business = service.business
    appointments = -(-count // len(KINDS))
    clients = Client.objects.bulk_create(
        Client(business=business, name=f"Client {tag}-{i}", email=f"{tag}-{i}@example.com")
        for i in range(appointments)
    )
    # Back to back, one hour each, after every earlier backlog: no two occupy one seat at once.
    first = dt.datetime(2027, 1, 4, 9, tzinfo=dt.UTC) + dt.timedelta(
        hours=Appointment.objects.count()
    )
    length = dt.timedelta(minutes=service.duration_minutes)
    booked = Appointment.objects.bulk_create(
        (
            Appointment(
                business=business,
                service=service,
                client=client,
                starts_at=(start := first + dt.timedelta(hours=i)),
                ends_at=start + length,
                occupied_from=start,
                occupied_until=start + length,
                price=service.list_price,
            )
            for i, client in enumerate(clients)
        ),
        batch_size=2_000,
    )
    due = timezone.now() - dt.timedelta(minutes=1)
    reminders = (
        Reminder(business=business, appointment=appointment, kind=kind, due_at=due)
        for appointment in booked
        for kind in KINDS
    )
    Reminder.objects.bulk_create(list(reminders)[:count], batch_size=5_000)


def drain(index: int, answers) -> None:
    """A worker: dispatch until nothing is due, counting statements and claims."""
    from django.core import mail
    from django.db import connection, connections

    from reminders.services import dispatch

    claim_ms: list[float] = []
    real_claim = dispatch.claim_due

    def timed_claim(**kwargs):
        started = time.perf_counter()
        ids = real_claim(**kwargs)
        if ids:
            claim_ms.append((time.perf_counter() - started) * 1000)
        return ids

    dispatch.claim_due = timed_claim  # dispatch_due looks it up in its module
    mail.outbox = []
    counter = harness.StatementCount()
    try:
        with connection.execute_wrapper(counter):
            result = dispatch.dispatch_due()
        answer = Drained(
            sent=result.sent,
            failed=result.failed,
            statements=counter.statements,
            claim_ms=claim_ms,
            mail=[(message.to[0], message.subject) for message in mail.outbox],
        )
    except Exception as exc:
        answer = Drained(0, 0, counter.statements, claim_ms, [], error=repr(exc))
    answers.put((index, answer))
    connections.close_all()


@dataclass(frozen=True)
class Round:
    backlog: int
    sent: int
    duplicates: int
    unsent: int
    failed: int
    wall_s: float
    statements: int
    claim_ms: list[float]
    errors: list[str]

    @property
    def queries_per_reminder(self) -> float:
        return self.statements / max(1, self.sent)

    def line(self) -> str:
        return harness.summary(
            backlog=self.backlog,
            sent=self.sent,
            duplicates=self.duplicates,
            unsent=self.unsent,
            per_s=f"{self.sent / self.wall_s:.0f}",
            queries_per_reminder=f"{self.queries_per_reminder:.3f}",
            claims=len(self.claim_ms),
            claim_p50_ms=f"{harness.median(self.claim_ms):.1f}",
            claim_max_ms=f"{max(self.claim_ms):.1f}",
            failed=self.failed,
            wall_s=f"{self.wall_s:.1f}",
        )


def drain_round(backlog: int, workers: int) -> Round:
    from django.db import connections

    from reminders.models import Reminder, ReminderStatus

    # A child must never inherit the parent's socket: close it, each side reconnects.
    connections.close_all()
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    processes = [
        context.Process(target=drain, args=(i, answers), daemon=True) for i in range(workers)
    ]
    began = time.perf_counter()
    for process in processes:
        process.start()
    drained = [answers.get(timeout=600)[1] for _ in processes]
    wall_s = time.perf_counter() - began
    for process in processes:
        process.join(timeout=10)
    mail = Counter(pair for answer in drained for pair in answer.mail)
    return Round(
        backlog=backlog,
        sent=sum(mail.values()),
        duplicates=sum(n - 1 for n in mail.values() if n > 1),
        unsent=Reminder.objects.exclude(status=ReminderStatus.SENT).count(),
        failed=sum(answer.failed for answer in drained),
        wall_s=wall_s,
        statements=sum(answer.statements for answer in drained),
        claim_ms=[ms for answer in drained for ms in answer.claim_ms],
        errors=[answer.error for answer in drained if answer.error],
    )


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    harness.bench_database(args.database)
    from django.db import connection

    service = harness.open_business(slug="reminders", capacity=1, duration_minutes=45)
    rounds = []
    for tag, backlog in (("small", args.small), ("large", args.reminders)):
        began = time.perf_counter()
        due_backlog(service, backlog, tag=tag)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would, before the beat's next minute
        seeded_s = time.perf_counter() - began
        drained = drain_round(backlog, args.workers)
        for error in drained.errors:
            print(f"worker error: {error}")
        print(f"{drained.line()} seed_s={seeded_s:.1f}")
        rounds.append(drained)
    small, large = rounds
    print(
        harness.summary(
            reminders=large.backlog,
            workers=args.workers,
            sent=large.sent,
            duplicates=large.duplicates,
            unsent=large.unsent,
            failed=large.failed,
            per_s=f"{large.sent / large.wall_s:.0f}",
            queries_per_reminder=f"{large.queries_per_reminder:.3f}",
            queries_per_reminder_small=f"{small.queries_per_reminder:.3f}",
            claims=len(large.claim_ms),
            claim_p50_ms=f"{harness.median(large.claim_ms):.1f}",
            claim_max_ms=f"{max(large.claim_ms):.1f}",
            wall_s=f"{large.wall_s:.1f}",
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
