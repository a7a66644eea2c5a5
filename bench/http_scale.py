"""Scale-out over HTTP: two gunicorn instances (two "machines") on one PostgreSQL and one Redis,
raced for the same slots by many clients through the booking API and the chat, then loaded
with 1 and with 2 instances; two Celery workers dispatch the resulting reminders.

    .venv/bin/python bench/http_scale.py [--rounds 3] [--api 6] [--chats 4] [--workers 3]
                                         [--clients 40] [--units 6] [--pairs 2]
                                         [--database ordina_scale]

Everything runs on loopback, as a deployment runs it (tests/servers.py): the static files
gathered by ``collectstatic``, then two ``gunicorn --config python:ordina.gunicorn
ordina.wsgi`` instances on the production settings with ``--workers`` workers each, each on a
port of its own, sharing the bench's database (dropped, created, migrated), one Redis database
for the cache (``--cache``) and one for the broker (``--broker``). TRUSTED_PROXY_COUNT=1: every
simulated client sends X-Forwarded-For with an address of its own, as a load balancer appends
it, so the per-client limits see distinct clients; PUBLIC_API_RATE is high enough not to
throttle the run.

The race (bench/http_race.py, shared with tests/test_http_scale.py): each round, tomorrow at
two hours, at a salon of one seat and at one of two seats (four slots); per slot ``--api``
booking-API clients (POST …/appointments/ with an Idempotency-Key) and ``--chats`` chat clients
(start, the service, a name and an email, then at the barrier the time and Confirm), one
thread each (at most 40 at once), spread over both instances, released together, each request
with a 20 s timeout, the round under a 120 s deadline. A booked API client repeats its request
on the other instance: the same appointment must come back. Then, per slot, the appointments
read from the table against the capacity.

The load: the same work with 1 instance and with 2, alternated (``--pairs`` of runs):
``--clients`` threads each do ``--units`` times an availability read and a booking of a slot
no other request takes (a business open all day, 15-minute slots), against one instance or
spread over both. Requests per second from the barrier to the last answer.

The reminders: every pending reminder of the appointments made is made due now (in the
database), two ``celery -A ordina worker`` processes (prefork, production settings, a heartbeat
directory each, mail to files) are each sent three dispatch tasks at once. Messages are counted
by (recipient, subject): every client has one appointment and each kind its own subject.

Last line: confirmed (slot by slot, stored/capacity), double_bookings (stored beyond
capacity, read from the table; must be 0), seat_clashes (0), short_of_capacity (slots left
with a free seat although more clients asked than it had seats; 0 since holds are counted
under the booking lock, see docs/benchmarks.md),
answers_unlike_table (slots whose 201s differ from the rows stored; 0), http_5xx (every
request of the run; must be 0), race_failures (no answer, an unexpected answer, a retry that
booked again; must be 0), race_p50_ms / race_p99_ms, rps_1 / rps_2 (medians of the load runs) and
ratio (rps_2 / rps_1), load_p50_ms / load_p99_ms per instance count, reminders_sent,
reminder_duplicates (must be 0), reminders_unsent (0), wall_s. Exits 1 when a must-be-0 figure
is not 0.
"""

import argparse
import datetime as dt
import os
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the servers and workers of the tests (tests/servers.py)

from bench import harness  # noqa: E402

SERVER_ENV = {"TRUSTED_PROXY_COUNT": "1", "PUBLIC_API_RATE": "1000000/minute"}
RACE_HOURS = (10, 11)  # the first round's; each next round two hours later
DISPATCHES_PER_WORKER = 3
WAIT_SECONDS = 180.0
# A dispatch task's end as the worker logs it (text or JSON logs), with the task's id.
DISPATCHED = re.compile(
    r"dispatch_reminders\[([0-9a-f-]+)\] succeeded in [^:]*: "
    r"\{'claimed': (\d+), 'sent': (\d+), 'failed': (\d+)\}"
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="race rounds (at most 3)")
    parser.add_argument("--api", type=int, default=6, help="booking-API clients per slot")
    parser.add_argument("--chats", type=int, default=4, help="chat clients per slot")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers per instance")
    parser.add_argument("--clients", type=int, default=40, help="load threads")
    parser.add_argument("--units", type=int, default=6, help="read + booking per load thread")
    parser.add_argument("--pairs", type=int, default=2, help="load runs with 1 and with 2")
    parser.add_argument("--database", default="ordina_scale")
    parser.add_argument("--cache", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--logs", type=Path, help="keep the servers' and workers' logs here")
    args = parser.parse_args(argv)
    contenders = len(RACE_HOURS) * 2 * (args.api + args.chats)
    if not 1 <= args.rounds <= 3 or contenders > 40 or args.clients > 40:
        parser.error("at most 3 rounds, 40 contenders a round (4 slots) and 40 load clients")
    return args


# --- the machines ---------------------------------------------------------------------------


def flush(*urls: str) -> None:
    """Empty the bench's own Redis databases (the cache's rate counts, the broker's queues)."""
    import redis

    for url in urls:
        redis.Redis.from_url(url).flushdb()


def start_servers(servers: list, count: int, env: dict[str, str], workers: int, logs: Path) -> None:
    """Start ``count`` instances into ``servers`` (the caller's, which kills every one started
    whatever happens here); each answers /health/ready before this returns."""
    from tests.servers import ProductionServer

    for number in range(count):
        servers.append(ProductionServer(logs / f"gunicorn-{number}.log", env, workers))
    for server in servers:
        server.wait_ready()
        ready = server.http.get("/health/ready")
        if ready.status_code != 200:
            raise SystemExit(f"instance {server.port} not ready: {ready.content!r}")


def start_workers(
    workers: list, env: dict[str, str], scratch: Path, logs: Path, mail_dir: Path
) -> None:
    """Start the two workers into ``workers`` (the caller's, as for the servers)."""
    from tests.reminders.real_worker import Worker

    for machine in ("a", "b"):
        heartbeat = scratch / f"heartbeat-{machine}"
        workers.append(
            Worker(
                name=f"machine-{machine}",
                mail_dir=mail_dir,
                log_path=logs / f"worker-{machine}.log",
                env={**env, "HEARTBEAT_DIR": str(heartbeat)},
                pool="prefork",
            )
        )
    for worker in workers:
        worker.wait_ready()


# --- the race -------------------------------------------------------------------------------


def run_races(args, salons, bases: list[str]):
    from bench import http_race

    races = []
    for number in range(args.rounds):
        hours = [hour + 2 * number for hour in RACE_HOURS]
        slots = [http_race.raced_slot(s, hour=h) for s in salons for h in hours]
        entrants = http_race.contenders(
            slots, bases, api=args.api, chats=args.chats, first=1000 * number
        )
        races.append(http_race.race(entrants, deadline=120.0))
    return races


def report_races(races) -> dict[str, object]:
    from bench import http_race

    figures: Counter[str] = Counter()
    confirmed: list[str] = []
    for finished in races:
        for tally in http_race.tallies(finished):
            mine = [o for o in finished.outcomes if o.contender.slot == tally.slot]
            ways = {
                way: Counter(o.result for o in mine if o.contender.way == way)
                for way in (http_race.API, http_race.CHAT)
            }
            print(
                f"slot {tally.slot.name}: capacity={tally.slot.capacity}"
                f" stored={tally.stored} confirmed_answers={tally.confirmed_answers}"
                f" holds_left={tally.holds_left}"
                f" api={dict(ways[http_race.API])} chat={dict(ways[http_race.CHAT])}"
            )
            confirmed.append(f"{tally.stored}/{tally.slot.capacity}")
            figures["double_bookings"] += tally.double_bookings
            figures["seat_clashes"] += tally.seat_clashes
            figures["short_of_capacity"] += tally.stored < tally.slot.capacity
            figures["answers_unlike_table"] += tally.confirmed_answers != tally.stored
        for outcome in finished.outcomes:
            if outcome.result == http_race.FAILED or outcome.replay_matches is False:
                figures["race_failures"] += 1
                print(f"failure: {outcome.contender.way} {outcome.contender.number} {outcome.code}")
        figures["unfinished"] += finished.unfinished
    millis = [ms for finished in races for ms in finished.exchanges.millis()]
    return {
        "confirmed": ",".join(confirmed),
        **{k: figures[k] for k in ("double_bookings", "seat_clashes", "race_failures")},
        "short_of_capacity": figures["short_of_capacity"],
        "answers_unlike_table": figures["answers_unlike_table"],
        "race_requests": len(millis),
        "race_p50_ms": f"{harness.median(millis):.0f}",
        "race_p99_ms": f"{harness.percentile(millis, 0.99):.0f}",
    }


# --- the load -------------------------------------------------------------------------------


def load_run(bases: list[str], service, starts: list[dt.datetime], args, tag: str):
    """``args.clients`` threads, each ``args.units`` times a read and a booking of its own slot,
    client i on instance i mod len(bases). Returns (seconds, exchanges, bookings refused)."""
    from bench.http_race import BalancedClient, Exchanges

    exchanges = Exchanges()
    refused: list[int] = []
    began: list[float] = []
    barrier = threading.Barrier(args.clients, action=lambda: began.append(time.perf_counter()))
    slug, zone = service.business.slug, service.business.tzinfo

    def client(index: int) -> None:
        http = BalancedClient(
            bases[index % len(bases)],
            address=f"203.0.{index // 250}.{index % 250 + 1}",
            exchanges=exchanges,
        )
        mine = starts[index * args.units : (index + 1) * args.units]
        barrier.wait(60)
        for unit, start in enumerate(mine):
            day = start.astimezone(zone).date()
            http.get(
                f"/api/v1/businesses/{slug}/availability/?service={service.pk}&from={day}&to={day}"
            )
            booked = http.post(
                f"/api/v1/businesses/{slug}/appointments/",
                {
                    "service": service.pk,
                    "start": start.isoformat(),
                    "name": "Steady Client",
                    "email": f"{tag}-{index}-{unit}@example.com",
                },
                "application/json",
                {"Idempotency-Key": f"{tag}-{index}-{unit}"},
            )
            if booked.status_code != 201:
                refused.append(booked.status_code)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    ended = time.perf_counter()
    if any(thread.is_alive() for thread in threads) or not began:
        raise SystemExit(f"load run {tag} did not finish in 120 s")
    return ended - began[0], exchanges, refused


def run_load(args, service, bases: list[str]) -> tuple[dict[str, object], list]:
    per_run = args.clients * args.units
    starts = harness.distinct_starts(service, per_run * 2 * args.pairs)
    rates: dict[int, list[float]] = {1: [], 2: []}
    millis: dict[int, list[float]] = {1: [], 2: []}
    every: list = []
    refused = 0
    for pair in range(args.pairs):
        for instances in (1, 2):
            number = 2 * pair + (instances - 1)
            seconds, exchanges, not_booked = load_run(
                bases[:instances],
                service,
                starts[number * per_run : (number + 1) * per_run],
                args,
                tag=f"load{number}",
            )
            requests = len(exchanges.all)
            rates[instances].append(requests / seconds)
            millis[instances] += exchanges.millis()
            every.append(exchanges)
            refused += len(not_booked)
            print(
                f"load run {number}: instances={instances} requests={requests}"
                f" seconds={seconds:.1f} rps={requests / seconds:.0f}"
                f" p50_ms={harness.median(exchanges.millis()):.0f}"
                f" p99_ms={harness.percentile(exchanges.millis(), 0.99):.0f}"
                f" bookings_not_made={len(not_booked)}"
            )
    rps_1, rps_2 = harness.median(rates[1]), harness.median(rates[2])
    return {
        "load_requests": per_run * 2 * 2 * args.pairs,
        "load_bookings_not_made": refused,
        "rps_1": f"{rps_1:.0f}",
        "rps_2": f"{rps_2:.0f}",
        "ratio": f"{rps_2 / rps_1:.2f}",
        "load_p50_ms_1": f"{harness.median(millis[1]):.0f}",
        "load_p99_ms_1": f"{harness.percentile(millis[1], 0.99):.0f}",
        "load_p50_ms_2": f"{harness.median(millis[2]):.0f}",
        "load_p99_ms_2": f"{harness.percentile(millis[2], 0.99):.0f}",
    }, every


# --- the reminders --------------------------------------------------------------------------


def dispatch_reminders(workers, mail_dir: Path) -> dict[str, object]:
    """Make every pending reminder due now, send each worker its dispatch tasks at once, wait
    for all of them; count the messages and the rows."""
    from django.utils import timezone

    from reminders.models import Reminder, ReminderStatus
    from tests.reminders.real_worker import mail_counts, wait_for

    made_due = Reminder.objects.filter(status=ReminderStatus.PENDING).update(due_at=timezone.now())
    began = time.perf_counter()
    for _ in range(DISPATCHES_PER_WORKER):
        for worker in workers:
            worker.dispatch()

    def finished(worker) -> list[tuple[int, ...]]:
        """(claimed, sent, failed) of each dispatch task the worker finished."""
        done = {task: counts for task, *counts in DISPATCHED.findall(worker.log())}
        return [tuple(map(int, counts)) for counts in done.values()]

    for worker in workers:
        wait_for(
            lambda w=worker: len(finished(w)) >= DISPATCHES_PER_WORKER,
            seconds=WAIT_SECONDS,
            what=f"{worker.nodename}'s dispatches",
        )
    seconds = time.perf_counter() - began
    shares = [sum(sent for _claimed, sent, _failed in finished(w)) for w in workers]
    counts = mail_counts(mail_dir)
    rows = Counter(Reminder.objects.values_list("status", flat=True))
    print(
        f"reminders: made_due={made_due} sent_by_each={'/'.join(map(str, shares))}"
        f" messages={sum(counts.values())} rows={dict(rows)} seconds={seconds:.1f}"
    )
    return {
        "reminders_sent": sum(counts.values()),
        "reminder_duplicates": sum(count - 1 for count in counts.values() if count > 1),
        "reminders_unsent": rows[ReminderStatus.PENDING] + rows[ReminderStatus.SENDING],
        "reminders_failed": rows[ReminderStatus.FAILED],
        "reminders_per_s": f"{sum(counts.values()) / seconds:.0f}",
    }


# --- the run --------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    os.environ["CELERY_BROKER_URL"] = args.broker  # this process sends the dispatch tasks
    wall = time.perf_counter()
    harness.bench_database(args.database)
    from bench import http_race
    from tests.servers import collect_static, production_env

    flush(args.cache, args.broker)
    salons = [
        http_race.race_salon(slug="one-chair", capacity=1),
        http_race.race_salon(slug="two-chairs", capacity=2),
    ]
    steady = harness.open_all_day("open-all-day")
    servers: list = []
    workers: list = []
    with tempfile.TemporaryDirectory(prefix="ordina-scale-") as scratch_name:
        scratch = Path(scratch_name)
        logs = args.logs or scratch
        logs.mkdir(parents=True, exist_ok=True)
        static, web_mail, reminder_mail = (scratch / n for n in ("static", "mail", "reminders"))
        for folder in (static, web_mail, reminder_mail):
            folder.mkdir()
        shared = {"CACHE_URL": args.cache, "CELERY_BROKER_URL": args.broker}
        collect_static(static)
        try:
            start_servers(
                servers,
                2,
                production_env(static_root=static, mail_dir=web_mail, **shared, **SERVER_ENV),
                args.workers,
                logs,
            )
            bases = [server.http.base for server in servers]
            races = run_races(args, salons, bases)
            figures = report_races(races)
            load, load_exchanges = run_load(args, steady, bases)
            start_workers(
                workers,
                production_env(static_root=static, mail_dir=reminder_mail, **shared),
                scratch,
                logs,
                reminder_mail,
            )
            reminders = dispatch_reminders(workers, reminder_mail)
        finally:
            for worker in workers:
                worker.stop()
                worker.forget()
            for server in servers:
                server.kill()
            flush(args.cache, args.broker)
    exchanges = [e for r in races for e in r.exchanges.all]
    exchanges += [e for run in load_exchanges for e in run.all]
    server_errors = sum(e.status >= 500 for e in exchanges)
    unanswered = sum(e.status == 0 for e in exchanges)
    print(
        harness.summary(
            instances=2,
            workers_each=args.workers,
            rounds=args.rounds,
            contenders_per_slot=f"{args.api}api+{args.chats}chat",
            **figures,
            http_5xx=server_errors,
            unanswered=unanswered,
            **load,
            **reminders,
            wall_s=f"{time.perf_counter() - wall:.0f}",
        )
    )
    must_be_zero = (
        figures["double_bookings"],
        figures["seat_clashes"],
        figures["short_of_capacity"],
        figures["race_failures"],
        figures["answers_unlike_table"],
        server_errors,
        unanswered,
        load["load_bookings_not_made"],
        reminders["reminder_duplicates"],
        reminders["reminders_unsent"],
    )
    return 1 if any(must_be_zero) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
