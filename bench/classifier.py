"""The routine-turn classifier: what skipping the knowledge fetch on routine turns saves.

    .venv/bin/python bench/classifier.py [--repeat 20] [--budget 6000]

The demo salon (``bookings.demo.seed_demo``: Studio Lumen, Lisbon, Haircut / Colour / Beard
trim) gets a knowledge base like an owner's: four short sources written in the dashboard, an
FAQ uploaded as Markdown and a long colour-and-aftercare handbook uploaded as a document (about
45,000 characters, far beyond the budget). Every message of the labelled corpus
(``tests/agent/corpus/client_messages.jsonl``) is read with ``read_message`` as on Monday
30 November 2026, 08:00 UTC; the knowledge block (``knowledge_for_prompt``) is fetched only when
the message is not routine. The same messages are run once more fetching every time — the
turn without the classifier — and the statements (CaptureQueriesContext) and prompt characters
of both runs are counted, so what is saved is measured, not assumed.

Last line: messages, needs_knowledge (labelled so), routine (labelled not needing it), skipped
(classified routine: no fetch), questions_skipped (needing knowledge yet skipped; must be 0),
skip_share_of_routine (percent of the routine messages skipped), prompt_chars_saved and
prompt_chars_saved_share (percent of the knowledge characters that fetching every turn would
inject), db_reads_saved (statements), classify_p50_us (one read_message, median).
"""

import argparse
import datetime as dt
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

import harness

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "agent" / "corpus" / "client_messages.jsonl"
NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)

SHORT_SOURCES = {
    "Prices": (
        "Haircut (wash, cut and blow-dry): 60 €. Children under 12: 35 €. Fringe trim between "
        "cuts: free for clients. Colour (roots or full, one tone): from 150 €; highlights and "
        "balayage from 180 €, quoted after a free 15-minute consultation. Beard trim: 25 €; "
        "hot-towel shave: 30 €. Students get 10 % off on weekdays with a valid card. Prices "
        "include VAT. Olaplex treatment: add 20 € to any colour."
    ),
    "Parking and getting here": (
        "Studio Lumen is at Rua das Flores 28, Lisbon, ground floor, step-free. The nearest "
        "metro is Baixa-Chiado (green and blue lines), four minutes on foot. There is no "
        "parking at the salon; the Camões car park (Largo do Camões) is 200 m away and gives "
        "clients two hours for 3 € with our stamp. Bicycles can be left in the courtyard."
    ),
    "Cancellations, lateness and deposits": (
        "Colour appointments need a 40 € deposit, taken when you book and counted towards the "
        "price. Cancel or move any appointment up to 24 hours before and the deposit is "
        "refunded in full. Later than that, or not coming, the deposit is kept. If you are "
        "more than 15 minutes late we may have to shorten the service or move you to the next "
        "free time so that the next client is not kept waiting. Tell us as early as you can."
    ),
    "Payment": (
        "We take cash, Multibanco, Visa, Mastercard, Apple Pay and MB Way. Invoices with your "
        "tax number (NIF) on request. Gift vouchers from 25 € are sold at the desk and online; "
        "they are valid for twelve months."
    ),
}

FAQ = """# Frequently asked questions

## Can I bring my children?
Yes. Children are welcome; there is a small play corner. Children under 12 have their own price.

## Can I bring my dog?
Small, calm dogs on a lead are welcome. Please tell us when you book.

## Do I need to wash my hair before colour?
No. Come with hair as you usually wear it; avoid washing it the same morning if your scalp is
sensitive.

## Do you speak English?
Yes: Ana, Rui and Sofia speak English; Sofia also speaks French and Spanish.

## Are you open on public holidays?
No. We are closed on Sundays, Mondays and public holidays, and between 24 and 26 December.

## Do you sell the products you use?
Yes. We use and sell Davines and Olaplex; products can be bought without an appointment during
opening hours.

## Is there Wi-Fi?
Yes, the network is StudioLumen-Guest; ask at the desk for the password.
"""

HANDBOOK_SECTIONS = [
    (
        "Before your colour",
        "A patch test 48 hours before a first colour, or after a reaction to any dye, is free "
        "and takes five minutes. Tell us about pregnancy, medication, a sensitive or broken "
        "scalp and any colour done at home in the last year: box dyes change how our colour "
        "takes and can make lightening unsafe in a single visit.",
    ),
    (
        "Choosing a shade",
        "Your stylist reads your natural base, the porosity of your lengths and the undertone "
        "of your skin. Warm shades fade towards copper, cool shades towards ash; a gloss every "
        "six to eight weeks keeps either true. Going more than two levels lighter is usually "
        "done over two visits to protect the hair.",
    ),
    (
        "Highlights and balayage",
        "Foil highlights give an even, structured lift from the root; balayage is painted by "
        "hand and grows out softly, so it needs refreshing less often. Both include a toner. "
        "Expect three to four hours for a full head, including the consultation.",
    ),
    (
        "Grey coverage",
        "Permanent colour covers grey fully and grows out with a visible line; demi-permanent "
        "colour blends grey and fades gently over six weeks. Many clients move from one to "
        "the other as the share of grey grows; your stylist will suggest the moment.",
    ),
    (
        "Aftercare, the first week",
        "Wait 72 hours before the first wash. Use lukewarm water and a sulphate-free shampoo; "
        "heat tools below 180 °C; a heat protector every time. Chlorine and salt water strip "
        "fresh colour: wear a cap or rinse with fresh water straight away.",
    ),
    (
        "Aftercare, every day",
        "Wash two or three times a week, condition the lengths only, and use a mask once a "
        "week. Sun fades colour like it fades fabric: a hat or a UV spray in summer keeps the "
        "tone. Purple shampoo once a week keeps blonde from turning brassy; more dries the "
        "ends.",
    ),
    (
        "When something is not right",
        "If the colour is not what we agreed, tell us within seven days: a correction is free "
        "of charge. Itching, redness or swelling after colour is a reaction — rinse with cool "
        "water, do not apply anything else, and call us or a pharmacist.",
    ),
    (
        "Keratin and smoothing",
        "A keratin smoothing treatment takes two to three hours and lasts three to five "
        "months. Do not wash, tie or clip the hair for 48 hours afterwards. It is not done "
        "during pregnancy, and not on the same day as lightening.",
    ),
]
HANDBOOK_ROUNDS = 12  # the sections again for each season and hair type, as such handbooks go


@dataclass
class Tally:
    messages: int = 0
    fetched: int = 0
    queries: int = 0
    prompt_chars: int = 0


def handbook() -> str:
    parts = ["# Colour and aftercare handbook"]
    for round_number in range(1, HANDBOOK_ROUNDS + 1):
        for title, text in HANDBOOK_SECTIONS:
            parts.append(f"## {round_number}. {title}\n\n{text}")
    return "\n\n".join(parts)


def build_knowledge_base(business) -> None:
    from django.core.files.base import ContentFile

    from knowledge.models import KnowledgeSource, SourceKind
    from knowledge.services import knowledge_source_create

    for title, body in SHORT_SOURCES.items():
        knowledge_source_create(business=business, kind=SourceKind.TEXT, title=title, body=body)
    for title, name, content in [
        ("Frequently asked questions", "faq.md", FAQ),
        ("Colour and aftercare handbook", "handbook.md", handbook()),
    ]:
        upload = KnowledgeSource(business=business, kind=SourceKind.DOCUMENT, title=title)
        upload.file.save(name, ContentFile(content.encode()), save=False)
        knowledge_source_create(
            business=business, kind=SourceKind.DOCUMENT, title=title, file=upload.file.name
        )


def corpus() -> list[tuple[str, bool]]:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    return [(row["text"], row["needs_knowledge"]) for row in rows]


def run_turns(messages, *, business, services, budget: int, classify: bool):
    """Each message's turn: read it, then fetch the knowledge block unless it is routine (or
    always, without the classifier). Returns the tallies by label and the routine verdicts."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from agent.offline import read_message
    from knowledge.selectors import knowledge_for_prompt

    zone = ZoneInfo(business.time_zone)
    tallies = {True: Tally(), False: Tally()}
    verdicts = {}
    for text, needs_knowledge in messages:
        tally = tallies[needs_knowledge]
        tally.messages += 1
        reading = read_message(
            text, now=NOW, time_zone=zone, country=business.country, services=services
        )
        verdicts[text] = reading.is_routine
        if classify and reading.is_routine:
            continue
        with CaptureQueriesContext(connection) as queries:
            block = knowledge_for_prompt(business_id=business.pk, budget=budget)
        tally.fetched += 1
        tally.queries += len(queries)
        tally.prompt_chars += len(block)
    return tallies, verdicts


def classify_timings_us(messages, *, business, services, repeat: int) -> list[float]:
    from agent.offline import read_message

    zone = ZoneInfo(business.time_zone)
    timings = []
    for _ in range(repeat):
        for text, _needs in messages:
            began = time.perf_counter()
            read_message(text, now=NOW, time_zone=zone, country=business.country, services=services)
            timings.append((time.perf_counter() - began) * 1e6)
    return timings


def print_table(with_classifier: dict, always: dict) -> None:
    header = (
        f"{'':<28}{'messages':>9}{'fetched':>9}{'skipped':>9}{'queries':>9}{'prompt chars':>14}"
    )
    print(header)
    print("-" * len(header))
    rows = [
        ("needs knowledge", with_classifier[True]),
        ("routine", with_classifier[False]),
        ("all, with the classifier", _sum(with_classifier)),
        ("all, fetching every turn", _sum(always)),
    ]
    for label, tally in rows:
        skipped = tally.messages - tally.fetched
        print(
            f"{label:<28}{tally.messages:>9}{tally.fetched:>9}{skipped:>9}{tally.queries:>9}"
            f"{tally.prompt_chars:>14,}"
        )


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
    parser.add_argument("--repeat", type=int, default=20, help="timed passes over the corpus")
    parser.add_argument("--budget", type=int, default=6000, help="KNOWLEDGE_BUDGET_CHARS")
    parser.add_argument("--database", default="ordina_bench_classifier")
    args = parser.parse_args(argv)

    media = tempfile.mkdtemp(prefix="ordina-bench-media-")
    os.environ["MEDIA_ROOT"] = media  # the uploaded documents, removed at the end
    try:
        harness.bench_database(args.database)
        from bookings.demo import seed_demo

        business = seed_demo(today=NOW.date()).business
        services = list(business.services.order_by("pk").values_list("pk", "name"))
        build_knowledge_base(business)
        messages = corpus()

        with_classifier, verdicts = run_turns(
            messages, business=business, services=services, budget=args.budget, classify=True
        )
        always, _ = run_turns(
            messages, business=business, services=services, budget=args.budget, classify=False
        )
        timings = classify_timings_us(
            messages, business=business, services=services, repeat=args.repeat
        )
    finally:
        shutil.rmtree(media, ignore_errors=True)

    print_table(with_classifier, always)
    questions_skipped = [text for text, needs in messages if needs and verdicts[text]]
    for text in questions_skipped:
        print(f"needs knowledge, yet skipped: {text!r}")
    routine = with_classifier[False]
    skipped = sum(verdicts.values())
    routine_skipped = routine.messages - routine.fetched
    total, baseline = _sum(with_classifier), _sum(always)
    saved_chars = baseline.prompt_chars - total.prompt_chars
    print(
        harness.summary(
            messages=len(messages),
            needs_knowledge=with_classifier[True].messages,
            routine=routine.messages,
            skipped=skipped,
            questions_skipped=len(questions_skipped),
            skip_share_of_routine=f"{100 * routine_skipped / routine.messages:.1f}",
            prompt_chars_saved=saved_chars,
            prompt_chars_saved_share=f"{100 * saved_chars / baseline.prompt_chars:.1f}",
            db_reads_saved=baseline.queries - total.queries,
            classify_p50_us=f"{statistics.median(timings):.0f}",
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
