"""The analytics page at 100,000 conversations: its server time and its queries.

    .venv/bin/python bench/funnel.py [--conversations 100000] [--days 365] [--runs 20]
                                     [--seed 14] [--database ordina_bench_funnel]
                                     [--explain] [--plans]

One salon (Europe/Lisbon, three services). ``--conversations`` conversations are inserted by
SQL, their starts spread at random over the last ``--days`` days (PostgreSQL's ``setseed``
makes every run the same world); the database's own triggers record each one's start and keep
its reach, as in production. Each conversation gets a furthest step (15 % stop at the greeting,
then 15, 10, 10, 10 and 10 % at each later step, 30 % confirmed; a third of the bookings take a
deposit) and one stage event per step up to it, minutes apart; every confirmed one an
appointment linked to it (a client each, created at its confirmation, a "created" history row,
a reminder sent), one executed audit entry per step and one blocked proposal in ten
conversations. Every table is filled in time order, as a live system appends its rows when
things happen. The rows' own ``state`` column is left as inserted: the page reads only what
the events record.

Timed: GET /admin/analytics/ as the salon's owner through django.test.Client, warm (two
untimed requests first), ``--runs`` times for the default range (the last 30 days) and for a
whole year (``from``/``to`` 366 days apart); the statements of one request are counted by
an execute wrapper. Beside it, in the same run, the baseline: one plain
``SELECT COUNT(*)`` over the whole events table, timed the same way.

``--explain`` prints, before the timings, each statement of one request for the default range
and one for the year with its time as the database measured it (``EXPLAIN ANALYZE``); with
``--plans`` their whole plans too.

Last line: conversations, events (rows in the events table), p50_ms (default range),
p50_year_ms, queries and queries_year (per request, session and user included), baseline_ms
(the COUNT(*)), ratio (p50_ms / baseline_ms), ratio_year.
"""

import argparse
import datetime as dt
import sys
import time
from typing import Any

import harness

STEPS = (
    "greeting",
    "service_chosen",
    "slot_offered",
    "slot_held",
    "details_collected",
    "awaiting_payment",
    "confirmed",
)

CONVERSATIONS = """
SELECT setseed(%(seed)s);
INSERT INTO agent_conversation (
    created_at, updated_at, last_message_at, public_id, business_id, token_hash, state, offered,
    name, email, phone, confirm_key, asked, escalation_reason, negotiation_rounds, turns,
    blocked_turns
)
SELECT started, started, started, gen_random_uuid(), %(business)s, md5('bench' || n),
       'greeting', '[]', '', '', '', '', '[]', '', 0, 0, 0
FROM (
    SELECT n, now() - random() * make_interval(days => %(days)s) AS started
    FROM generate_series(1, %(conversations)s) AS n
) AS planned
ORDER BY started;
"""

# Each conversation's furthest step, service and whether its booking takes a deposit.
PLAN = """
CREATE TEMPORARY TABLE bench_plan AS
SELECT id, created_at,
       (%(services)s::bigint[])[1 + floor(random() * 3)::int] AS service_id,
       CASE WHEN r < 0.15 THEN 0 WHEN r < 0.30 THEN 1 WHEN r < 0.40 THEN 2 WHEN r < 0.50 THEN 3
            WHEN r < 0.60 THEN 4 WHEN r < 0.70 THEN 5 ELSE 6 END AS furthest,
       random() < 0.33 AS deposit
FROM (SELECT id, created_at, random() AS r FROM agent_conversation) AS drawn;
"""

EVENTS = """
INSERT INTO agent_conversationstageevent (
    conversation_id, business_id, service_id, stage, previous_stage, occurred_at, backfilled
)
SELECT p.id, %(business)s, p.service_id, (%(steps)s::text[])[s + 1],
       CASE WHEN s = 6 AND NOT p.deposit THEN 'details_collected'
            ELSE (%(steps)s::text[])[s] END,
       p.created_at + s * make_interval(mins => 2 + (p.id %% 7)::int),
       false
FROM bench_plan AS p, generate_series(1, p.furthest) AS s
WHERE NOT (s = 5 AND NOT p.deposit AND p.furthest = 6)
ORDER BY 6;
"""

AUDIT = """
INSERT INTO agent_auditentry (
    business_id, conversation, proposal, action, result, stage, reason, money_moved,
    money_contained, created_at
)
SELECT %(business)s, p.id::text, '{}'::jsonb, (%(actions)s::text[])[s], 'EXECUTE', '',
       'approved', 0, 0, p.created_at + s * interval '2 minutes'
FROM bench_plan AS p, generate_series(1, least(p.furthest, 4)) AS s
UNION ALL
SELECT %(business)s, p.id::text, '{}'::jsonb, 'refund', 'BLOCK', 'POLICY', 'over the limit', 0, 20,
       p.created_at + interval '1 minute'
FROM bench_plan AS p WHERE p.id %% 10 = 0
ORDER BY 10;
"""

BOOKED = """
UPDATE bookings_appointment AS a
SET created_at = p.created_at + interval '20 minutes',
    starts_at = p.created_at + interval '3 days',
    ends_at = p.created_at + interval '3 days 1 hour',
    occupied_from = p.created_at + interval '3 days',
    occupied_until = p.created_at + interval '3 days 1 hour',
    status = CASE WHEN p.id %% 9 = 0 THEN 'no_show'
                  WHEN p.created_at + interval '3 days' < now() THEN 'attended'
                  ELSE 'confirmed' END
FROM bench_plan AS p
WHERE a.idempotency_key = 'bench-' || p.id;
UPDATE agent_conversation AS c SET appointment_id = a.id
FROM bookings_appointment AS a WHERE a.idempotency_key = 'bench-' || c.id;
INSERT INTO bookings_appointmentevent (
    business_id, appointment_id, kind, occurred_at, actor_kind, data
)
SELECT business_id, id, 'created', created_at, 'client', '{}' FROM bookings_appointment
ORDER BY created_at;
INSERT INTO reminders_reminder (
    business_id, appointment_id, kind, due_at, status, attempts, sent_at, last_error,
    created_at, updated_at
)
SELECT business_id, id, 'before_24h', starts_at - interval '1 day', 'sent', 1,
       starts_at - interval '1 day', '', created_at, created_at
FROM bookings_appointment
ORDER BY starts_at;
"""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--database", default="ordina_bench_funnel")
    parser.add_argument("--explain", action="store_true", help="each statement's time")
    parser.add_argument("--plans", action="store_true", help="with --explain: the plans too")
    return parser.parse_args(argv)


def build_world(args: argparse.Namespace):
    from decimal import Decimal

    from django.db import connection

    from bookings.models import Appointment, Client, Service

    visit = harness.open_business(slug="funnel-salon", capacity=1)
    business = visit.business
    services = [
        visit,
        *(
            Service.objects.create(
                business=business,
                name=name,
                duration_minutes=60,
                list_price=Decimal("60.00"),
                price_floor=Decimal("50.00"),
            )
            for name in ("Colour", "Cut and finish")
        ),
    ]
    values = {
        "business": business.pk,
        "days": args.days,
        "conversations": args.conversations,
        "seed": (args.seed % 100) / 100,
        "services": [service.pk for service in services],
        "steps": list(STEPS),
        "actions": ["choose_service", "offer_slots", "hold_slot", "collect_contact"],
    }
    with connection.cursor() as cursor:
        cursor.execute(CONVERSATIONS, values)
        cursor.execute(PLAN, values)
        cursor.execute(EVENTS, values)
        cursor.execute(AUDIT, values)
        cursor.execute("SELECT id, service_id FROM bench_plan WHERE furthest = 6 ORDER BY id")
        confirmed = cursor.fetchall()
    # The bookings: rows, not bookings through the core (nothing here is about booking), each
    # on a place of its own so none meets another in the no-overlap constraint.
    start = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
    clients = Client.objects.bulk_create(
        (
            Client(business=business, name=f"Client {pk}", email=f"c{pk}@example.com")
            for pk, _ in confirmed
        ),
        batch_size=5000,
    )
    Appointment.objects.bulk_create(
        (
            Appointment(
                business=business,
                service_id=service_id,
                client=client,
                starts_at=start,
                ends_at=start + dt.timedelta(hours=1),
                occupied_from=start,
                occupied_until=start + dt.timedelta(hours=1),
                seat=index % 32000 + 1,
                price=Decimal("60.00"),
                list_price=Decimal("60.00"),
                idempotency_key=f"bench-{pk}",
            )
            for index, ((pk, service_id), client) in enumerate(zip(confirmed, clients, strict=True))
        ),
        batch_size=5000,
    )
    with connection.cursor() as cursor:
        cursor.execute(BOOKED, values)
        # As autovacuum leaves append-only tables after inserts: statistics, and pages marked
        # all-visible (which lets an index answer alone).
        cursor.execute("VACUUM ANALYZE")
    return business


class StatementLog:
    """An execute wrapper keeping the statements Django sends, with their parameters."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, Any]] = []

    def __call__(self, execute, sql_text, params, many, context):
        self.statements.append((sql_text, params))
        return execute(sql_text, params, many, context)


def explain(label: str, request, *, plans: bool) -> None:
    """Run one request, then each of its reading statements again under EXPLAIN ANALYZE."""
    from django.db import connection

    log = StatementLog()
    with connection.execute_wrapper(log):
        request()
    print(f"--- {label}: {len(log.statements)} statements", file=sys.stderr)
    for sql_text, params in log.statements:
        if not sql_text.lstrip().upper().startswith("SELECT"):
            continue
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql_text}", params)
            plan = [line for (line,) in cursor.fetchall()]
        took = next((line for line in plan if line.startswith("Execution Time")), "?")
        print(f"{took:>32}  {' '.join(sql_text.split())[:150]}", file=sys.stderr)
        if plans:
            print("\n".join(f"    {line}" for line in plan), file=sys.stderr)


def timed(call, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        samples.append((time.perf_counter() - began) * 1000)
    return samples


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    harness.bench_database(args.database)
    from django.contrib.auth import get_user_model
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, connection
    from django.test import Client as HttpClient
    from django.test.utils import setup_test_environment
    from django.utils import timezone

    from agent.models import ConversationStageEvent
    from bookings.models import Membership, Role

    setup_test_environment()  # lets django.test.Client's "testserver" host in
    # One connection kept for the whole run, as a served process keeps its own: the page is
    # timed, not connecting.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    began = time.perf_counter()
    business = build_world(args)
    print(f"world built in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    owner = get_user_model().objects.create_user(username="owner", is_staff=True)
    Membership.objects.create(user=owner, business=business, role=Role.OWNER)
    http = HttpClient()
    http.force_login(owner)

    today = timezone.now().astimezone(business.tzinfo).date()
    year = {"from": (today - dt.timedelta(days=365)).isoformat(), "to": today.isoformat()}

    def page(query=None):
        response = http.get("/admin/analytics/", query or {})
        assert response.status_code == 200, response.status_code

    def count_events():
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM agent_conversationstageevent")
            cursor.fetchone()

    for _ in range(2):
        page()
        page(year)
        count_events()
    if args.explain:
        explain("default range", page, plans=args.plans)
        explain("a whole year", lambda: page(year), plans=args.plans)
    default_queries, year_queries = harness.StatementCount(), harness.StatementCount()
    with connection.execute_wrapper(default_queries):
        page()
    with connection.execute_wrapper(year_queries):
        page(year)
    default_ms = harness.median(timed(page, args.runs))
    year_ms = harness.median(timed(lambda: page(year), args.runs))
    baseline_ms = harness.median(timed(count_events, args.runs))
    print(
        harness.summary(
            conversations=args.conversations,
            events=ConversationStageEvent.objects.count(),
            p50_ms=f"{default_ms:.1f}",
            p50_year_ms=f"{year_ms:.1f}",
            queries=default_queries.statements,
            queries_year=year_queries.statements,
            baseline_ms=f"{baseline_ms:.1f}",
            ratio=f"{default_ms / baseline_ms:.2f}",
            ratio_year=f"{year_ms / baseline_ms:.2f}",
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
