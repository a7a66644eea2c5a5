"""Contention: N processes try to book the same slot at the same instant, round after round.

    .venv/bin/python bench/contention.py --rounds 20 --clients 50 --capacity 1

Each round N forked workers (each with its own connection), released together by a barrier,
call appointment_create for one slot with distinct idempotency keys and clients. The parent
then counts the answers and, in SQL, the occupying appointments stored at that slot.

Switches that take a part of the guarantee away, to show what it depends on:
  --no-lock                    the advisory lock becomes a no-op (in the workers)
  --isolation repeatable_read  the workers' transactions run at REPEATABLE READ
  --no-backstop                the seat exclusion constraint is dropped (bench database only)
  --strategy business_row      SELECT ... FOR UPDATE on the business row instead of the lock
  --strategy serializable      no lock, SERIALIZABLE, retry on serialization failure
And one that changes the race: --distinct-days gives each worker a slot on a day of its own
(no two requests compete), which shows what a strategy serialises beyond the slot itself.

The last line is the summary: confirmed_per_round (a number when constant, else min..max),
double_bookings (appointments stored beyond capacity, summed over rounds), errors (answers
other than a booking or SlotUnavailable), p50_ms (per attempt, from the barrier to the
answer), backstop_hits (statements the exclusion constraint refused).
"""

import argparse
import datetime as dt
import sys
import time
from collections import Counter

import harness

SLOTS_PER_DAY = 8  # 60-minute visits, 09:00-17:00
STRATEGIES = ("advisory", "business_row", "serializable")
ISOLATIONS = ("read_committed", "repeatable_read", "serializable")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--capacity", type=int, default=1)
    parser.add_argument("--strategy", choices=STRATEGIES, default="advisory")
    parser.add_argument("--no-lock", action="store_true", help="disable the booking lock")
    parser.add_argument("--isolation", choices=ISOLATIONS, default=None)
    parser.add_argument("--no-backstop", action="store_true", help="drop the exclusion constraint")
    parser.add_argument("--retries", type=int, default=None, help="serialization-failure retries")
    parser.add_argument(
        "--distinct-days", action="store_true", help="each worker books a slot on its own day"
    )
    parser.add_argument("--database", default="ordina_bench_contention")
    parser.add_argument("--verbose", action="store_true", help="one line per round")
    args = parser.parse_args(argv)
    if args.strategy == "serializable":
        args.no_lock = True
        args.isolation = args.isolation or "serializable"
        args.retries = 30 if args.retries is None else args.retries
    args.isolation = args.isolation or "read_committed"
    args.retries = args.retries or 0
    return args


def worker_setup(args: argparse.Namespace):
    lock = None
    if args.no_lock:
        lock = harness.without_booking_lock
    elif args.strategy == "business_row":
        lock = harness.with_business_row_lock
    return harness.all_of(lock, harness.at_isolation(args.isolation))


def targets_per_round(service, args: argparse.Namespace) -> list[list[dt.datetime]]:
    """For each round, the slot each worker books: the same one for all, or with
    --distinct-days one slot per worker, each on a day of its own."""
    if not args.distinct_days:
        return [[start] * args.clients for start in harness.distinct_starts(service, args.rounds)]
    per_day = SLOTS_PER_DAY
    day_blocks = -(-args.rounds // per_day)
    starts = harness.distinct_starts(service, per_day * args.clients * day_blocks)
    return [
        [
            starts[per_day * ((number // per_day) * args.clients + worker) + number % per_day]
            for worker in range(args.clients)
        ]
        for number in range(args.rounds)
    ]


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    harness.bench_database(args.database)
    if args.no_backstop:
        harness.drop_backstop()
    day_blocks = -(-args.rounds // SLOTS_PER_DAY)
    service = harness.open_business(
        slug="contended",
        capacity=args.capacity,
        horizon_days=day_blocks * (args.clients if args.distinct_days else 1) + 30,
    )
    business_id = service.business_id
    rounds = targets_per_round(service, args)
    length = dt.timedelta(minutes=service.duration_minutes)

    def prepare(request):
        return harness.booking_attempt(request, retries=args.retries)

    confirmed_counts, stored_counts, elapsed = [], [], []
    double_bookings = errors = backstop_hits = serialization_failures = 0
    refused = refused_without_alternatives = refused_slot_offered = 0
    seat_clashes = count_mismatches = 0
    error_samples: list[str] = []
    with harness.Contenders(args.clients, prepare, setup=worker_setup(args)) as workers:
        # One untimed round far from the measured slots: connections and server caches warm.
        last_day = dt.datetime.now(service.business.tzinfo).date() + dt.timedelta(
            days=service.business.booking_horizon_days - 1
        )
        (warm_up,) = harness.distinct_starts(service, 1, first_day=last_day)
        workers.round(
            [
                harness.BookingRequest(service.pk, warm_up, f"warm-up-{i}", f"w{i}@example.com")
                for i in range(args.clients)
            ]
        )
        began = time.perf_counter()
        for number, targets in enumerate(rounds):
            requests = [
                harness.BookingRequest(
                    service_id=service.pk,
                    start=start,
                    idempotency_key=f"round-{number}-client-{i}",
                    email=f"round{number}.client{i}@example.com",
                )
                for i, start in enumerate(targets)
            ]
            round_began = time.perf_counter()
            attempts = workers.round(requests)
            round_ms = (time.perf_counter() - round_began) * 1000
            confirmed = 0
            for start, attempt in zip(targets, attempts, strict=True):
                if isinstance(attempt, harness.WorkerFailure):
                    errors += 1
                    error_samples.append(attempt.error)
                    continue
                elapsed.append(attempt.elapsed_ms)
                backstop_hits += attempt.backstop_hits
                serialization_failures += attempt.serialization_failures
                if attempt.outcome == harness.CONFIRMED:
                    confirmed += 1
                elif attempt.outcome == harness.REFUSED:
                    refused += 1
                    refused_without_alternatives += not attempt.alternatives
                    refused_slot_offered += start in attempt.alternatives
                else:
                    errors += 1
                    error_samples.append(attempt.error or attempt.outcome)
            stored_here = 0
            for start, wanted in Counter(targets).items():
                stored, seats = harness.occupying_at(business_id, start, start + length)
                stored_here += stored
                double_bookings += max(0, stored - args.capacity)
                seat_clashes += stored - seats
                count_mismatches += stored != min(args.capacity, wanted)
            confirmed_counts.append(confirmed)
            stored_counts.append(stored_here)
            if args.verbose:
                slowest = max(a.elapsed_ms for a in attempts if isinstance(a, harness.Attempt))
                print(
                    f"round={number} confirmed={confirmed} stored={stored_here}"
                    f" round_ms={round_ms:.0f} slowest_ms={slowest:.0f}"
                )
    wall_s = time.perf_counter() - began

    for sample in sorted(set(error_samples))[:5]:
        print(f"error sample: {sample}")
    attempts_made = args.rounds * args.clients
    print(
        harness.summary(
            rounds=args.rounds,
            clients=args.clients,
            capacity=args.capacity,
            slots="distinct_days" if args.distinct_days else "same",
            strategy=args.strategy,
            lock="off" if args.no_lock else "on",
            isolation=args.isolation,
            backstop="off" if args.no_backstop else "on",
            confirmed_per_round=spread(confirmed_counts),
            stored_per_round=spread(stored_counts),
            count_mismatch_rounds=count_mismatches,
            double_bookings=double_bookings,
            seat_clashes=seat_clashes,
            errors=errors,
            refused=refused,
            refused_without_alternatives=refused_without_alternatives,
            refused_slot_offered=refused_slot_offered,
            backstop_hits=backstop_hits,
            serialization_failures=serialization_failures,
            retry_rate=f"{serialization_failures / attempts_made:.2f}",
            p50_ms=f"{harness.median(elapsed):.1f}",
            p99_ms=f"{harness.percentile(elapsed, 0.99):.1f}",
            wall_s=f"{wall_s:.1f}",
            attempts_per_s=f"{attempts_made / wall_s:.0f}",
        )
    )


def spread(counts: list[int]) -> str:
    """The value when constant, else min..max."""
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}..{high}"


if __name__ == "__main__":
    main(sys.argv[1:])
