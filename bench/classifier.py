"""The routine-turn classifier: what skipping the knowledge fetch on routine turns saves, in
English and in Spanish.

    .venv/bin/python bench/classifier.py [--repeat 20] [--budget 6000]

Two businesses, each with its own labelled corpus and a knowledge base like an owner's
(``knowledge_worlds``: four short sources written in the dashboard, an FAQ uploaded as Markdown
and a handbook of ≈ 27,000–29,000 characters uploaded as a document, far beyond the budget):

* English: the demo salon (``bookings.demo.seed_demo``: Studio Lumen, Lisbon, PT, Haircut /
  Colour / Beard trim) and ``tests/agent/corpus/client_messages.jsonl``;
* Spanish: the demo clinic (``bookings.demo.seed_demo_clinic``: Clínica Sol, Madrid, ES,
  Fisioterapia / Masaje deportivo / Primera consulta) and
  ``tests/agent/corpus/client_messages_es.jsonl``.

Every message is read with ``read_message`` in its business's zone, country, services and
language, as on Monday 30 November 2026, 08:00 UTC; the knowledge block
(``knowledge_for_prompt``) is fetched only when the message is not routine. The same messages
are run once more fetching every time — the turn without the classifier — and the statements
(CaptureQueriesContext) and prompt characters of both runs are counted, so what is saved is
measured, not assumed.

Printed: per language, the tallies by label; then the figures side by side (English column,
Spanish column); then every message that needs knowledge yet was skipped. Last line, for each
language prefixed ``en_`` / ``es_``: messages, needs_knowledge (labelled so), routine (labelled
not needing it), skipped (classified routine: no fetch), questions_skipped (needing knowledge yet
skipped; must be 0), skip_share_of_routine (percent of the routine messages skipped),
prompt_chars_saved and prompt_chars_saved_share (percent of the knowledge characters that
fetching every turn would inject), db_reads_saved (statements), classify_p50_us (one
read_message, median).
"""

import argparse
import datetime as dt
import json
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import harness
from knowledge_worlds import CLINIC, SALON, KnowledgeWorld, build_knowledge_base

NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
LANGUAGE_NAMES = {"en": "English", "es": "Spanish"}


@dataclass
class Tally:
    messages: int = 0
    fetched: int = 0
    queries: int = 0
    prompt_chars: int = 0


@dataclass(frozen=True)
class Business:
    """What ``read_message`` and the fetch need of a business: its row's plain values."""

    pk: int
    time_zone: ZoneInfo
    country: str
    language: str
    services: list[tuple[int, str]]


@dataclass(frozen=True)
class LanguageRun:
    language: str
    with_classifier: dict[bool, Tally]  # by label: needs knowledge or not
    always: dict[bool, Tally]
    questions_skipped: list[str]
    skipped: int
    classify_timings_us: list[float]

    def figures(self) -> dict[str, object]:
        routine = self.with_classifier[False]
        total, baseline = _sum(self.with_classifier), _sum(self.always)
        saved_chars = baseline.prompt_chars - total.prompt_chars
        return {
            "messages": total.messages,
            "needs_knowledge": self.with_classifier[True].messages,
            "routine": routine.messages,
            "skipped": self.skipped,
            "questions_skipped": len(self.questions_skipped),
            "skip_share_of_routine": (
                f"{100 * (routine.messages - routine.fetched) / routine.messages:.1f}"
            ),
            "prompt_chars_saved": saved_chars,
            "prompt_chars_saved_share": f"{100 * saved_chars / baseline.prompt_chars:.1f}",
            "db_reads_saved": baseline.queries - total.queries,
            "classify_p50_us": f"{statistics.median(self.classify_timings_us):.0f}",
        }


def corpus(world: KnowledgeWorld) -> list[tuple[str, bool]]:
    rows = [json.loads(line) for line in world.corpus.read_text(encoding="utf-8").splitlines()]
    return [(row["text"], row["needs_knowledge"]) for row in rows]


def business_of(row) -> Business:
    services = list(row.services.order_by("pk").values_list("pk", "name"))
    return Business(row.pk, ZoneInfo(row.time_zone), row.country, row.language, services)


def read(text: str, business: Business):
    from agent.offline import read_message

    return read_message(
        text,
        now=NOW,
        time_zone=business.time_zone,
        country=business.country,
        services=business.services,
        language=business.language,
    )


def run_turns(messages, *, business: Business, budget: int, classify: bool):
    """Each message's turn: read it, then fetch the knowledge block unless it is routine (or
    always, without the classifier). Returns the tallies by label and the routine verdicts."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from knowledge.selectors import knowledge_for_prompt

    tallies = {True: Tally(), False: Tally()}
    verdicts = {}
    for text, needs_knowledge in messages:
        tally = tallies[needs_knowledge]
        tally.messages += 1
        reading = read(text, business)
        verdicts[text] = reading.is_routine
        if classify and reading.is_routine:
            continue
        with CaptureQueriesContext(connection) as queries:
            block = knowledge_for_prompt(business_id=business.pk, budget=budget)
        tally.fetched += 1
        tally.queries += len(queries)
        tally.prompt_chars += len(block)
    return tallies, verdicts


def classify_timings_us(messages, *, business: Business, repeat: int) -> list[float]:
    timings = []
    for _ in range(repeat):
        for text, _needs in messages:
            began = time.perf_counter()
            read(text, business)
            timings.append((time.perf_counter() - began) * 1e6)
    return timings


def run_language(world: KnowledgeWorld, business: Business, *, budget: int, repeat: int):
    messages = corpus(world)
    with_classifier, verdicts = run_turns(messages, business=business, budget=budget, classify=True)
    always, _ = run_turns(messages, business=business, budget=budget, classify=False)
    return LanguageRun(
        language=world.language,
        with_classifier=with_classifier,
        always=always,
        questions_skipped=[text for text, needs in messages if needs and verdicts[text]],
        skipped=sum(verdicts.values()),
        classify_timings_us=classify_timings_us(messages, business=business, repeat=repeat),
    )


def print_tallies(run: LanguageRun) -> None:
    header = (
        f"{LANGUAGE_NAMES[run.language]:<28}{'messages':>9}{'fetched':>9}{'skipped':>9}"
        f"{'queries':>9}{'prompt chars':>14}"
    )
    print(header)
    print("-" * len(header))
    rows = [
        ("needs knowledge", run.with_classifier[True]),
        ("routine", run.with_classifier[False]),
        ("all, with the classifier", _sum(run.with_classifier)),
        ("all, fetching every turn", _sum(run.always)),
    ]
    for label, tally in rows:
        skipped = tally.messages - tally.fetched
        print(
            f"{label:<28}{tally.messages:>9}{tally.fetched:>9}{skipped:>9}{tally.queries:>9}"
            f"{tally.prompt_chars:>14,}"
        )
    print()


def print_side_by_side(runs: list[LanguageRun]) -> None:
    figures = [run.figures() for run in runs]
    header = f"{'':<26}" + "".join(f"{LANGUAGE_NAMES[run.language]:>12}" for run in runs)
    print(header)
    print("-" * len(header))
    for key in figures[0]:
        print(f"{key:<26}" + "".join(f"{each[key]!s:>12}" for each in figures))


def _sum(tallies: dict) -> Tally:
    total = Tally()
    for tally in tallies.values():
        total.messages += tally.messages
        total.fetched += tally.fetched
        total.queries += tally.queries
        total.prompt_chars += tally.prompt_chars
    return total


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed passes over each corpus")
    parser.add_argument("--budget", type=int, default=6000, help="KNOWLEDGE_BUDGET_CHARS")
    parser.add_argument("--database", default="ordina_bench_classifier")
    args = parser.parse_args(argv)

    media = tempfile.mkdtemp(prefix="ordina-bench-media-")
    os.environ["MEDIA_ROOT"] = media  # the uploaded documents, removed at the end
    try:
        harness.bench_database(args.database)
        from bookings.demo import seed_demo, seed_demo_clinic

        salon = seed_demo(today=NOW.date()).business
        clinic = seed_demo_clinic(owner_password=secrets.token_urlsafe(12))
        runs = []
        for world, row in ((SALON, salon), (CLINIC, clinic)):
            build_knowledge_base(row, world)
            runs.append(
                run_language(world, business_of(row), budget=args.budget, repeat=args.repeat)
            )
    finally:
        shutil.rmtree(media, ignore_errors=True)

    for run in runs:
        print_tallies(run)
    print_side_by_side(runs)
    for run in runs:
        for text in run.questions_skipped:
            print(f"{run.language}: needs knowledge, yet skipped: {text!r}")
    print(
        harness.summary(
            **{
                f"{run.language}_{key}": value
                for run in runs
                for key, value in run.figures().items()
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
