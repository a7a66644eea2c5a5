"""Webhooks: signed Stripe deliveries, half of them duplicates, shuffled, through the real view.

    .venv/bin/python bench/webhooks.py [--deliveries 1000] [--seed 20261130]

Payments are stored directly with their Checkout Session and intent ids (no Stripe is called:
processing a webhook asks Stripe nothing). Each payment is given one scenario's events —
paid then refunded in full, paid then partly refunded, paid after an async payment, async
payment failed, checkout expired — until there are deliveries / 2 distinct events (topped up
with event types Ordina ignores); each event is delivered twice, all shuffled, each POSTed to
/payments/stripe/webhook/ with django.test.Client and a Stripe-Signature made at send time.

Last line: processed (first deliveries that moved a payment), ignored (first deliveries of
types Ordina does not handle), failed, duplicates_ignored (deliveries answered as duplicates),
non_2xx, wrong_states (payments whose status, refunded amount, appointment status or number of
"deposit paid" events differs from the scenario's expected end), p50_ms / p99_ms per delivery
(the view's whole request, as the test client sees it), p50 of new and of duplicate deliveries,
queries_per_delivery (SQL statements sent, averaged over all deliveries; then min..max for new
and for duplicate deliveries).
"""

import argparse
import datetime as dt
import random
import sys
import time
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import harness

# The signing and event helpers are the webhook tests' (devtools/fake_stripe.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

AMOUNT = Decimal("8.00")  # 20 % of the harness's 40.00 service
AMOUNT_MINOR = 800
PART_REFUND_MINOR = 300
WARM_UP = 20


@dataclass(frozen=True)
class Expected:
    status: str
    refunded: Decimal
    appointment: str
    paid_events: int


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deliveries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--database", default="ordina_bench_webhooks")
    return parser.parse_args(argv)


def objects_for(payment) -> dict[str, dict]:
    """What Stripe would send about ``payment``: its session (paid or not), intent, charge."""
    reference = {"ordina_payment": str(payment.pk)}
    session = {
        "id": payment.checkout_session_id,
        "object": "checkout.session",
        "status": "complete",
        "payment_status": "paid",
        "payment_intent": payment.payment_intent_id,
        "amount_total": AMOUNT_MINOR,
        "currency": "eur",
        "livemode": False,
        "metadata": reference,
    }
    charge = {
        "id": f"ch_{payment.pk}",
        "object": "charge",
        "amount": AMOUNT_MINOR,
        "currency": "eur",
        "payment_intent": payment.payment_intent_id,
    }
    return {
        "paid": session,
        "unpaid": session | {"payment_status": "unpaid"},
        "expired": session | {"status": "expired", "payment_status": "unpaid"},
        "intent": {
            "id": payment.payment_intent_id,
            "object": "payment_intent",
            "amount_received": AMOUNT_MINOR,
            "currency": "eur",
            "metadata": reference,
        },
        "part_refund": charge | {"amount_refunded": PART_REFUND_MINOR},
        "full_refund": charge | {"amount_refunded": AMOUNT_MINOR, "refunded": True},
    }


# Each scenario: the (event type, object) pairs Stripe sends, and where the payment must end.
SCENARIOS = {
    "refunded": (
        [
            ("checkout.session.completed", "paid"),
            ("payment_intent.succeeded", "intent"),
            ("charge.refunded", "part_refund"),
            ("charge.refunded", "full_refund"),
        ],
        Expected("refunded", AMOUNT, "confirmed", 1),
    ),
    "partially_refunded": (
        [
            ("checkout.session.completed", "paid"),
            ("payment_intent.succeeded", "intent"),
            ("charge.refunded", "part_refund"),
        ],
        Expected("partially_refunded", Decimal("3.00"), "confirmed", 1),
    ),
    "paid_async": (
        [
            ("checkout.session.completed", "unpaid"),
            ("checkout.session.async_payment_succeeded", "paid"),
            ("payment_intent.succeeded", "intent"),
        ],
        Expected("paid", Decimal("0.00"), "confirmed", 1),
    ),
    "failed": (
        [
            ("checkout.session.completed", "unpaid"),
            ("checkout.session.async_payment_failed", "unpaid"),
        ],
        Expected("failed", Decimal("0.00"), "expired", 0),
    ),
    "expired": (
        [("checkout.session.expired", "expired")],
        Expected("expired", Decimal("0.00"), "expired", 0),
    ),
}


def plan(distinct: int) -> list[str]:
    """Scenarios, cycled, for as many payments as fit in ``distinct`` events."""
    names, events = [], 0
    cycle = list(SCENARIOS)
    while events + len(SCENARIOS[cycle[len(names) % len(cycle)]][0]) <= distinct:
        name = cycle[len(names) % len(cycle)]
        names.append(name)
        events += len(SCENARIOS[name][0])
    return names


def pending_payments(service, count: int) -> list:
    """``count`` appointments awaiting their deposit, booked through the booking service, each
    with a payment whose Checkout is (as far as we know) open."""
    from django.utils import timezone

    from bookings.models import AppointmentStatus
    from bookings.services import ClientDetails
    from orchestration.appointment_changes import appointment_create
    from payments.models import Payment

    now = timezone.now()
    payments = []
    for number, start in enumerate(harness.distinct_starts(service, count)):
        appointment = appointment_create(
            service=service,
            start=start,
            client=ClientDetails(name=f"Client {number}", email=f"c{number}@example.com"),
            status=AppointmentStatus.PENDING_PAYMENT,
        ).appointment
        payments.append(
            Payment(
                business=service.business,
                appointment=appointment,
                amount=AMOUNT,
                currency="EUR",
                checkout_session_id=f"cs_bench_{number:05d}",
                payment_intent_id=f"pi_bench_{number:05d}",
                expires_at=now + dt.timedelta(minutes=30),
            )
        )
    return Payment.objects.bulk_create(payments)


def wrong_states(payments: list, scenario_of: dict[int, str]) -> int:
    from bookings.models import AppointmentEvent, AppointmentEventKind
    from payments.models import Payment

    wrong = 0
    for payment in Payment.objects.filter(pk__in=[p.pk for p in payments]).select_related(
        "appointment"
    ):
        expected = SCENARIOS[scenario_of[payment.pk]][1]
        paid_events = AppointmentEvent.objects.filter(
            appointment_id=payment.appointment_id, kind=AppointmentEventKind.PAID
        ).count()
        actual = Expected(
            payment.status, payment.amount_refunded, payment.appointment.status, paid_events
        )
        wrong += actual != expected
    return wrong


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    harness.bench_database(args.database)
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from devtools.fake_stripe import WEBHOOK_SECRET, event_payload, sign

    setup_test_environment()  # lets django.test.Client's "testserver" host in
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    rng = random.Random(args.seed)  # noqa: S311 - a reproducible shuffle, not a secret
    distinct = args.deliveries // 2

    service = harness.open_business(slug="webhooks", capacity=1)
    scenarios = plan(distinct)
    payments = pending_payments(service, len(scenarios))
    scenario_of = {p.pk: name for p, name in zip(payments, scenarios, strict=True)}
    events: list[bytes] = []
    for payment, name in zip(payments, scenarios, strict=True):
        objects = objects_for(payment)
        for index, (kind, obj) in enumerate(SCENARIOS[name][0]):
            events.append(event_payload(f"evt_{payment.pk}_{index}", kind, objects[obj]))
    while len(events) < distinct:
        events.append(
            event_payload(f"evt_other_{len(events)}", "customer.created", {"id": "cus_1"})
        )
    deliveries = events * 2
    rng.shuffle(deliveries)

    http = Client()
    url = "/payments/stripe/webhook/"

    def post(payload: bytes):
        return http.post(
            url, payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=sign(payload)
        )

    for number in range(WARM_UP):  # untimed: connection, URL resolver, code paths warm
        post(event_payload(f"evt_warm_up_{number}", "customer.created", {"id": "cus_0"}))

    counter = harness.StatementCount()
    elapsed, new_ms, duplicate_ms = [], [], []
    new_queries, duplicate_queries = [], []
    outcomes = {"processed": 0, "ignored": 0, "failed": 0}
    duplicates = non_2xx = 0
    began = time.perf_counter()
    with connection.execute_wrapper(counter):
        for payload in deliveries:
            statements_before = counter.statements
            started = time.perf_counter()
            response = post(payload)
            took = (time.perf_counter() - started) * 1000
            statements = counter.statements - statements_before
            elapsed.append(took)
            if not 200 <= response.status_code < 300:
                non_2xx += 1
                continue
            answer = response.json()
            if answer["duplicate"]:
                duplicates += 1
                duplicate_ms.append(took)
                duplicate_queries.append(statements)
            else:
                outcomes[answer["outcome"]] += 1
                new_ms.append(took)
                new_queries.append(statements)
    wall_s = time.perf_counter() - began

    print(
        harness.summary(
            deliveries=len(deliveries),
            distinct_events=len(events),
            payments=len(payments),
            processed=outcomes["processed"],
            ignored=outcomes["ignored"],
            failed=outcomes["failed"],
            duplicates_ignored=duplicates,
            non_2xx=non_2xx,
            wrong_states=wrong_states(payments, scenario_of),
            p50_ms=f"{harness.median(elapsed):.2f}",
            p99_ms=f"{harness.percentile(elapsed, 0.99):.2f}",
            p50_new_ms=f"{harness.median(new_ms):.2f}",
            p50_duplicate_ms=f"{harness.median(duplicate_ms):.2f}",
            queries_per_delivery=f"{counter.statements / len(deliveries):.1f}",
            queries_new=spread(new_queries),
            queries_duplicate=spread(duplicate_queries),
            wall_s=f"{wall_s:.1f}",
        )
    )


def spread(counts: list[int]) -> str:
    """The value when constant, else min..max."""
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}..{high}"


if __name__ == "__main__":
    main(sys.argv[1:])
