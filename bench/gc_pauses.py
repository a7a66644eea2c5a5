"""Garbage-collector pauses in a served process, with and without the start-up frozen.

    .venv/bin/python bench/gc_pauses.py [--collections 30] [--requests 200]

A web worker forks from a process that has loaded Django, DRF, every app and the URL patterns
(ordina/gunicorn.py: ``preload_app``). Every full (oldest-generation) collection the worker's
requests trigger walks every tracked object, the whole framework included; that walk is the
pause a request happens to pay for. This process loads the application the same way, serves
--requests requests of the public pages and API through ``django.test.Client`` (a week's
availability, the catalogue, the booking page, the schema; the public rate limit raised), so
what requests import and cache is loaded too;
then --collections times serves ten more and times one full collection (``gc.collect()``),
first as it is, then after ``gc.freeze()`` (what gunicorn's ``pre_fork`` hook does in
ordina/gunicorn.py).

Last line: objects the collector tracks before freezing and at the end (what the frozen
process's requests made since), objects frozen, the median and the slowest full collection in
each state (ms), and ratio (median unfrozen / median frozen).
"""

import argparse
import datetime as dt
import gc
import logging
import os
import sys
import time

import harness


def request_paths() -> list[str]:
    service = harness.open_business(slug="gc-salon", capacity=2)
    slug = service.business.slug
    today = dt.datetime.now(service.business.tzinfo).date()
    week = (today + dt.timedelta(days=1), today + dt.timedelta(days=7))
    return [
        f"/api/v1/businesses/{slug}/services/",
        f"/api/v1/businesses/{slug}/availability/?service={service.pk}&from={week[0]}&to={week[1]}",
        f"/b/{slug}/",
        "/health/live",
        "/api/schema/",
    ]


def serve(paths: list[str], requests: int) -> None:
    """Requests of the kinds a web worker serves (their modules and caches get loaded)."""
    from django.test import Client

    http = Client()
    for number in range(requests):
        http.get(paths[number % len(paths)], HTTP_HOST="localhost")


def full_collections(paths: list[str], count: int) -> list[float]:
    """``count`` times: serve a few requests, then time one full collection."""
    times = []
    for _ in range(count):
        serve(paths, 10)
        began = time.perf_counter()
        gc.collect()
        times.append((time.perf_counter() - began) * 1000)
    return times


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collections", type=int, default=30)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--database", default="ordina_bench_gc")
    args = parser.parse_args(argv)

    os.environ["PUBLIC_API_RATE"] = "1000000/minute"  # the public throttle would answer 429s
    harness.bench_database(args.database)
    logging.disable(logging.INFO)  # one request line each: not what is measured
    paths = request_paths()
    serve(paths, args.requests)
    tracked = len(gc.get_objects())
    unfrozen = full_collections(paths, args.collections)
    gc.freeze()
    frozen = full_collections(paths, args.collections)
    tracked_frozen = len(gc.get_objects())
    print(
        harness.summary(
            tracked=tracked,
            tracked_after_freeze=tracked_frozen,
            frozen=gc.get_freeze_count(),
            unfrozen_p50_ms=f"{harness.median(unfrozen):.2f}",
            unfrozen_max_ms=f"{max(unfrozen):.2f}",
            frozen_p50_ms=f"{harness.median(frozen):.2f}",
            frozen_max_ms=f"{max(frozen):.2f}",
            ratio=f"{harness.median(unfrozen) / harness.median(frozen):.1f}",
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
