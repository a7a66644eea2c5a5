"""Conversation turns: a scripted chat through the widget's API, against a bare DRF request.

    .venv/bin/python bench/turns.py [--turns 100] [--repeats 3] [--profile] [--sql]
                                    [--transcript] [--negotiation] [--database ordina_bench_turns]

The chat uses the offline model; the bare request locks one row and writes it back. Both run in
one process, on one database (dropped and created, like every benchmark's), side by side.

A salon (Europe/Lisbon, open 09:00–19:00 every day, a 30-minute grid, three services, the
agent's default grants, no deposit) with a knowledge base of five written sources. Each repeat
starts a conversation (POST /api/v1/businesses/<slug>/conversations/, untimed) and sends
--turns client messages to POST /api/v1/conversations/<token>/messages/ with
django.test.Client, ORDINA_MODEL=offline. The messages cycle through CYCLE (19 of them, so
turn 5 and turn 100 are the same message at the same place in the cycle): choosing a service,
asking for a day and a window, picking an offered time, holding an exact time, a name, an
email, a phone, "yes" (the booking shown to confirm), questions the knowledge base answers,
changing the day, switching service and back. Nothing is confirmed, nothing is blocked three
turns running, so the conversation stays open: the script checks at the end that it is not
escalated and that every turn has its reply.

--negotiation: the haircut's price is negotiable (meet halfway, rounded up to 5.00, list 40.00,
floor 30.00), and two knowledge questions of the cycle become haggling (NEGOTIATED): at place 5
"Can you do it for 20?" (countered at 35.00) and at place 11 "35 ok?" (accepted), so from turn 5
to the switch to colour at place 13 (which starts the negotiation over) every turn carries an
active negotiation, and turn 5 and turn 100 are the same offer at the same point of it.

After each timed turn, one bare request: an APIView with no authentication, permissions or
throttles, in this script's own URLconf beside the real one, that parses the same JSON body,
locks one conversation row (SELECT … FOR UPDATE) and saves it, in one transaction — the least
a turn could cost through the same stack. One untimed warm-up conversation (one cycle) and 20
bare requests come first. The public API's rate limit is raised for the run (PUBLIC_API_RATE;
the throttle itself still runs).

Per request: wall time (time.perf_counter around the test client's call), SQL statements
(CaptureQueriesContext on the default connection, which lists BEGIN and COMMIT too: the bare
request is BEGIN, SELECT … FOR UPDATE, UPDATE, COMMIT = 4) and the time spent inside the
statements (an execute wrapper; BEGIN and COMMIT are not timed there).

Last line: turns (per conversation), p50_ms and p99_ms per turn (over all repeats),
queries_turn5 and queries_turn100 (queries_turn<N> for --turns N; must be equal: a turn must
not cost more as the conversation grows; when they differ the statements that differ are
printed above), db_p50_ms (per turn, inside SQL), bare_p50_ms, ratio_vs_bare (median turn /
median bare request; goal <= 3), and more figures. --profile prints where the turns of two
more conversations spend their time: one with timers wrapped around the turn's parts (PARTS),
one under cProfile. --sql prints turn 5's and a bare request's statements with their times;
--transcript the first cycle of the first conversation as stored.
"""

import argparse
import cProfile
import difflib
import functools
import importlib
import io
import json
import logging
import os
import pstats
import re
import sys
import time
import types
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

import harness

CYCLE = [
    ("choose service", "Hi! I'd like to book a haircut, please."),
    ("ask day + window", "Do you have anything on Friday afternoon?"),
    ("pick offered", "The first one, please."),
    ("give name", "Ana Silva"),
    ("question (knowledge)", "Is there parking near the salon?"),
    ("give email", "ana.silva@example.com"),
    ("agree", "Yes, that's right"),
    ("change day", "Actually, could we do Saturday instead?"),
    ("hold exact time", "Saturday at 11:00 would be perfect"),
    ("question (knowledge)", "What is your cancellation policy?"),
    ("question (knowledge)", "Can I pay by card or cash?"),
    ("give phone", "My phone is 912 345 678"),
    ("switch service", "Could I get a colour instead?"),
    ("question (service)", "How long does the colour take?"),
    ("ask day + window", "Tomorrow morning?"),
    ("pick offered", "The second one"),
    ("question (knowledge)", "Thanks! Do you have wifi there?"),
    ("agree", "Yes please"),
    ("ask next week", "Hmm, can you show me times next week instead?"),
]
# --negotiation: the places of CYCLE (1-based) that become haggling over the haircut's price.
NEGOTIATED = {
    5: ("offer price", "Can you do it for 20?"),
    11: ("accept price", "35 ok?"),
}
WARM_UP_BARE = 20
SLUG = "studio-turns"

KNOWLEDGE = {
    "Finding us": (
        "Studio Turns is at Rua da Prata 120, in Baixa, two minutes from the Baixa-Chiado metro "
        "station (green and blue lines).\n\n"
        "Parking: there is no parking at the salon itself. The nearest car park is the "
        "Praça da Figueira underground car park, a five-minute walk; street parking near the "
        "salon is paid and limited to two hours.\n\n"
        "The salon is on the ground floor with step-free access; the washbasins are adjustable "
        "for wheelchair users. Guide dogs are welcome."
    ),
    "Cancellations and lateness": (
        "Our cancellation policy: you can cancel or move an appointment free of charge up to "
        "24 hours before it starts, with the link in your confirmation email or by replying "
        "here. Later cancellations and no-shows may be charged half the service price.\n\n"
        "If you are running late, let us know: we keep your time for 15 minutes; after that we "
        "may need to shorten the service or move it so the next client is not kept waiting."
    ),
    "Payments": (
        "We take card (Visa, Mastercard, American Express), MB Way and cash. Payment is made "
        "at the salon after your appointment; no deposit is taken for online bookings.\n\n"
        "Gift cards can be bought at the front desk in any amount and are valid for one year. "
        "We do not offer refunds on gift cards, but they can be transferred to someone else."
    ),
    "Services": (
        "Haircut: a consultation, wash, cut and finish, about 45 minutes. Colour: full colour "
        "or roots, including a wash and blow-dry, about 90 minutes; a patch test is needed 48 "
        "hours before a first colour with us. Beard trim: shape-up and hot towel, 20 minutes.\n\n"
        "Children under 12 get 20% off a haircut. We use vegan products from local suppliers."
    ),
    "While you are here": (
        "Free wifi is available in the salon: the network is StudioTurns-Guest and the "
        "password is on the card at the front desk. We offer coffee, tea and water while you "
        "wait. There is a toilet for clients on the ground floor."
    ),
}


@dataclass(frozen=True)
class Sample:
    repeat: int
    turn: int  # 1-based
    kind: str
    ms: float
    queries: int
    db_ms: float
    statements: tuple[str, ...]
    timed_statements: tuple[tuple[float, str], ...]  # BEGIN and COMMIT are not among them


class TimeInSql:
    """An execute wrapper adding up the time spent inside the statements Django sends."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.each: list[tuple[float, str]] = []  # (ms, SQL) of each statement

    def __call__(self, execute, sql_text, params, many, context):
        began = time.perf_counter()
        try:
            return execute(sql_text, params, many, context)
        finally:
            took = time.perf_counter() - began
            self.seconds += took
            self.each.append((took * 1000, sql_text))


# --- the data -------------------------------------------------------------------------------


def salon(*, negotiation: bool = False):
    """The business, its three services, its agent's grants and its knowledge base; with
    ``negotiation``, the haircut's price is negotiable by its own terms."""
    import datetime as dt

    from agent.services import grants_set
    from bookings.models import Service
    from knowledge.services import knowledge_source_create

    business = harness.open_salon(
        slug=SLUG,
        time_zone="Europe/Lisbon",
        opens=dt.time(9),
        closes=dt.time(19),
        capacity=1,
        min_notice_minutes=60,
        booking_horizon_days=365,
        slot_interval_minutes=30,
    )
    haircut = Service(
        business=business,
        name="Haircut",
        duration_minutes=45,
        list_price=Decimal("40.00"),
        price_floor=Decimal("30.00"),
    )
    if negotiation:
        haircut.negotiation_terms = "own"
        haircut.negotiable = True
        haircut.concession_rule = "halfway"
        haircut.concession_rounding = Decimal("5.00")
        haircut.concession_max_rounds = 3
        haircut.full_clean()
    haircut.save()
    Service.objects.create(
        business=business,
        name="Colour",
        duration_minutes=90,
        list_price=Decimal("70.00"),
        price_floor=Decimal("60.00"),
    )
    Service.objects.create(
        business=business,
        name="Beard trim",
        duration_minutes=20,
        list_price=Decimal("15.00"),
        price_floor=Decimal("12.00"),
    )
    grants_set(business=business)
    for title, body in KNOWLEDGE.items():
        knowledge_source_create(business=business, kind="text", title=title, body=body)
    return business


# --- the bare request -----------------------------------------------------------------------


def bare_urlconf() -> str:
    """A URLconf of this script's own: the bare endpoint under /api/ (so the middleware treats
    it like the public API), then the project's routes unchanged. Returns its module name."""
    from django.db import transaction
    from django.urls import include, path
    from django.utils import timezone
    from rest_framework.parsers import JSONParser
    from rest_framework.renderers import JSONRenderer
    from rest_framework.response import Response
    from rest_framework.views import APIView

    from agent.models import Conversation

    class BareApi(APIView):
        authentication_classes = ()
        permission_classes = ()
        throttle_classes = ()
        renderer_classes = (JSONRenderer,)
        parser_classes = (JSONParser,)

        def post(self, request, pk: int) -> Response:
            if not isinstance(request.data.get("text"), str):  # the body is read, as a turn's
                return Response({"detail": "text is required"}, status=400)
            with transaction.atomic():
                row = Conversation.objects.select_for_update().get(pk=pk)
                row.turns += 1
                row.last_message_at = timezone.now()
                row.save()
            return Response({"id": row.pk, "turns": row.turns})

    module = types.ModuleType("bench_turns_urls")
    module.urlpatterns = [
        path("api/bench/bare/<int:pk>/", BareApi.as_view()),
        path("", include("ordina.urls")),
    ]
    sys.modules[module.__name__] = module
    return module.__name__


# --- one conversation -----------------------------------------------------------------------


def start(http) -> str:
    response = http.post(
        f"/api/v1/businesses/{SLUG}/conversations/", content_type="application/json"
    )
    assert response.status_code == 201, response.content
    return response.json()["token"]


def message(turn: int) -> tuple[str, str]:
    return CYCLE[(turn - 1) % len(CYCLE)]


def converse(
    http, *, repeat: int, turns: int, bare_pk: int | None, token: str | None = None
) -> tuple[list, list, str]:
    """One conversation (``token``'s, or a new one) of ``turns`` timed turns, each followed by a
    timed bare request when ``bare_pk`` is given. Returns (turn samples, bare samples, token)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    token = token or start(http)
    url = f"/api/v1/conversations/{token}/messages/"
    samples: list[Sample] = []
    bare: list[Sample] = []

    def timed(path: str, body: str, turn: int, kind: str) -> Sample:
        in_sql = TimeInSql()
        with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(in_sql):
            began = time.perf_counter()
            response = http.post(path, body, content_type="application/json")
            ms = (time.perf_counter() - began) * 1000
        assert response.status_code == 200, (turn, kind, response.status_code, response.content)
        return Sample(
            repeat=repeat,
            turn=turn,
            kind=kind,
            ms=ms,
            queries=len(captured),
            db_ms=in_sql.seconds * 1000,
            statements=tuple(query["sql"] for query in captured.captured_queries),
            timed_statements=tuple(in_sql.each),
        )

    for turn in range(1, turns + 1):
        kind, text = message(turn)
        body = json.dumps({"text": text})
        samples.append(timed(url, body, turn, kind))
        if bare_pk is not None:
            bare.append(timed(f"/api/bench/bare/{bare_pk}/", body, turn, "bare"))
    return samples, bare, token


def check_open(token: str, turns: int) -> str:
    """The conversation is still open after ``turns`` turns, each answered; returns its state."""
    from agent.conversation.turns import conversation_for_token
    from agent.models import Message, MessageRole

    conversation = conversation_for_token(token)
    replies = Message.objects.filter(conversation=conversation, role=MessageRole.ASSISTANT)
    asked = Message.objects.filter(conversation=conversation, role=MessageRole.CLIENT)
    assert conversation.state != "escalated", conversation.escalation_reason
    assert conversation.turns == turns, conversation.turns
    assert asked.count() == turns, asked.count()
    assert replies.count() == turns + 1, replies.count()  # the greeting, then one per turn
    return conversation.state


# --- reporting ------------------------------------------------------------------------------


def transcript(token: str, turns: int) -> None:
    """The first ``turns`` exchanges of ``token``'s conversation, as stored."""
    from agent.conversation.turns import conversation_for_token
    from agent.models import Message

    conversation = conversation_for_token(token)
    stored = Message.objects.filter(conversation=conversation).order_by("id")[: 2 * turns + 1]
    for stored_message in stored:
        print(f"  {stored_message.role:>9}: {stored_message.text}")
    print()


NUMBERS = re.compile(r"'[^']*'|\b\d+(?:\.\d+)?\b")


def shape(statement: str) -> str:
    """A statement with its literals blanked, to compare two turns' SQL."""
    return NUMBERS.sub("?", statement)


def statements_diff(first: Sample, second: Sample) -> str:
    lines = difflib.unified_diff(
        [shape(s) for s in first.statements],
        [shape(s) for s in second.statements],
        f"turn {first.turn}",
        f"turn {second.turn}",
        lineterm="",
        n=0,
    )
    return "\n".join(lines)


def spread(values: list[int]) -> str:
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}..{high}"


def table(samples: list[Sample], bare: list[Sample]) -> None:
    by_kind: dict[str, list[Sample]] = defaultdict(list)
    for sample in samples:
        by_kind[sample.kind].append(sample)
    print(f"{'message kind':<22} {'n':>4} {'p50 ms':>8} {'max ms':>8} {'db ms':>7} {'queries':>9}")
    for kind, group in [*by_kind.items(), ("bare request", bare)]:
        print(
            f"{kind:<22} {len(group):>4}"
            f" {harness.median([s.ms for s in group]):>8.2f}"
            f" {max(s.ms for s in group):>8.2f}"
            f" {harness.median([s.db_ms for s in group]):>7.2f}"
            f" {spread([s.queries for s in group]):>9}"
        )
    print()
    print("queries by place in the cycle (one column per cycle of the first conversation):")
    first = [s for s in samples if s.repeat == samples[0].repeat]
    for place, (kind, _text) in enumerate(CYCLE, start=1):
        counts = [s.queries for s in first if (s.turn - 1) % len(CYCLE) + 1 == place]
        print(f"  {place:>2} {kind:<22} {' '.join(f'{c:>3}' for c in counts)}")
    print()


# Where a turn's time goes, measured without a profiler's overhead: each of these functions is
# wrapped with a timer for one more conversation (inclusive times; nested ones overlap).
PARTS = [
    ("request, whole", "django.test.client", "Client.post"),
    ("  view: turn_take", "api.conversations", "turn_take"),
    # The message view locks the row before the turn for the offline model (one label, both).
    ("    locked_conversation", "api.conversations", "locked_conversation"),
    ("    locked_conversation", "agent.conversation.turns", "locked_conversation"),
    ("    turn_context", "agent.conversation.facts", "turn_context"),
    ("      read_message", "agent.conversation.facts", "read_message"),
    ("      knowledge_for_prompt", "agent.conversation.facts", "knowledge_for_prompt"),
    ("    granted_actions", "agent.conversation.turns", "granted_actions"),
    ("      active_services", "agent.conversation.facts", "active_services"),
    ("    OfflineModel.propose", "agent.offline.model", "OfflineModel.propose"),
    ("    _run_proposals", "agent.conversation.turns", "_run_proposals"),
    ("      open_slots_for", "agent.conversation.execute", "open_slots_for"),
    ("      hold_slot", "agent.conversation.execute", "hold_slot"),
    ("      audit_entry", "agent.conversation.turns", "audit_entry"),
    ("    restage", "agent.conversation.facts", "restage"),
    ("    Model.save (any)", "django.db.models.base", "Model.save"),
    ("    narration_of", "agent.conversation.facts", "narration_of"),
    ("    payment_of", "agent.conversation.facts", "payment_of"),
    ("    narrated", "agent.conversation.turns", "narrated"),
    ("      OfflineModel.narrate", "agent.offline.model", "OfflineModel.narrate"),
    ("      guard_reply", "agent.conversation.turns", "guard_reply"),
    ("        dateparser search_dates", "dateparser.search", "search_dates"),
    ("      reply_store", "agent.conversation.turns", "reply_store"),
    ("  view: TurnSerializer .data", "api.conversations", "_turn"),
    ("  COMMIT (both transactions)", "django.db.backends.base.base", "BaseDatabaseWrapper.commit"),
]


class Breakdown:
    """Timers wrapped around PARTS while it is entered; restored on exit."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._restore: list[tuple[object, str, object]] = []

    def _timed(self, label: str, function):
        @functools.wraps(function)
        def timed(*args, **kwargs):
            began = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - began
                self.calls[label] += 1

        return timed

    def __enter__(self) -> "Breakdown":
        for label, module_name, dotted in PARTS:
            owner = importlib.import_module(module_name)
            *path, name = dotted.split(".")
            for step in path:
                owner = getattr(owner, step)
            original = owner.__dict__[name] if path else getattr(owner, name)
            self._restore.append((owner, name, original))
            setattr(owner, name, self._timed(label, original))
        return self

    def __exit__(self, *exc_info) -> None:
        for owner, name, original in reversed(self._restore):
            setattr(owner, name, original)
        self._restore.clear()

    def report(self, turns: int, in_sql_ms: float) -> None:
        whole = self.seconds["request, whole"] * 1000 / turns
        print(f"where a turn's time goes (one more conversation of {turns} turns, timers only):")
        print(f"  {'part':<34} {'calls/turn':>10} {'ms/turn':>8} {'share':>6}")
        for label in dict.fromkeys(label for label, _m, _f in PARTS):
            ms = self.seconds[label] * 1000 / turns
            calls = self.calls[label] / turns
            print(f"  {label:<34} {calls:>10.2f} {ms:>8.2f} {ms / whole:>6.0%}")
        print(f"  {'inside SQL statements (all)':<34} {'':>10} {in_sql_ms:>8.2f}")
        print(f"  {'':<34} {'':>10} {in_sql_ms / whole:>6.0%}")
        print()


def breakdown(http, turns: int) -> None:
    from django.db import connection

    token = start(http)
    in_sql = TimeInSql()
    with Breakdown() as parts, connection.execute_wrapper(in_sql):
        converse(http, repeat=-1, turns=turns, bare_pk=None, token=token)
    parts.report(turns, in_sql.seconds * 1000 / turns)


def profile(http, turns: int) -> None:
    """cProfile of one more conversation: the top functions by cumulative and by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    converse(http, repeat=-1, turns=turns, bare_pk=None)
    profiler.disable()
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(40)
        print(out.getvalue())


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100, help="per conversation")
    parser.add_argument("--repeats", type=int, default=3, help="timed conversations")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--sql", action="store_true", help="print turn 5's and a bare request's SQL"
    )
    parser.add_argument(
        "--transcript", action="store_true", help="print the first conversation's first cycle"
    )
    parser.add_argument(
        "--negotiation", action="store_true", help="haggle over the haircut's price (NEGOTIATED)"
    )
    parser.add_argument("--database", default="ordina_bench_turns")
    args = parser.parse_args(argv)
    if args.turns < 5:
        parser.error("--turns must be at least 5")
    if args.negotiation:
        # Same length, same places: turn 5 and turn 100 stay the same message.
        for place, replaced in NEGOTIATED.items():
            CYCLE[place - 1] = replaced

    os.environ["ORDINA_MODEL"] = "offline"
    os.environ["PUBLIC_API_RATE"] = "1000000/minute"
    harness.bench_database(args.database)
    # One INFO line per request on the console would drown the figures: the middleware still
    # runs for the turns and the bare requests alike, it only writes nothing below a warning.
    logging.getLogger("ordina.requests").setLevel(logging.WARNING)
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment

    from agent.conversation.turns import conversation_for_token

    setup_test_environment()  # lets django.test.Client's "testserver" host in
    salon(negotiation=args.negotiation)
    http = Client()
    with override_settings(ROOT_URLCONF=bare_urlconf()):
        # Untimed: the connection, the URL resolver, dateparser's data, the code paths.
        _, _, warm_token = converse(http, repeat=0, turns=len(CYCLE), bare_pk=None)
        bare_pk = conversation_for_token(warm_token).pk
        for _ in range(WARM_UP_BARE):
            http.post(f"/api/bench/bare/{bare_pk}/", json.dumps({"text": "hi"}), "application/json")

        samples: list[Sample] = []
        bare: list[Sample] = []
        states = []
        tokens = []
        for repeat in range(1, args.repeats + 1):
            done, bare_done, token = converse(
                http, repeat=repeat, turns=args.turns, bare_pk=bare_pk
            )
            states.append(check_open(token, args.turns))
            tokens.append(token)
            samples += done
            bare += bare_done
        if args.profile:
            breakdown(http, args.turns)
            profile(http, args.turns)

    if args.transcript:
        transcript(tokens[0], len(CYCLE))
    table(samples, bare)
    fifth = [s for s in samples if s.turn == 5]
    last = [s for s in samples if s.turn == args.turns]
    if message(5) != message(args.turns):
        print(f"note: turn 5 and turn {args.turns} are different messages in the cycle")
    for early, late in zip(fifth, last, strict=True):
        if early.queries != late.queries:
            print(f"conversation {early.repeat}: turn 5 sent {early.queries} statements, turn")
            print(f"{late.turn} sent {late.queries}; the statements that differ:")
            print(statements_diff(early, late))
    if args.sql:
        for sample in (fifth[0], bare[0]):
            print(f"{sample.kind} (turn {sample.turn}): {sample.queries} statements")
            for ms, statement in sample.timed_statements:
                print(f"    {ms:6.2f} ms  {statement[:140]}")
        print()
    turn_p50 = harness.median([s.ms for s in samples])
    bare_p50 = harness.median([s.ms for s in bare])
    print(f"conversations: {args.repeats}, each ending open ({', '.join(states)})")
    print(
        harness.summary(
            turns=args.turns,
            conversations=args.repeats,
            p50_ms=f"{turn_p50:.2f}",
            p99_ms=f"{harness.percentile([s.ms for s in samples], 0.99):.2f}",
            # With --turns 5 the fifth turn is the last: one key, not a repeated one.
            **{
                "queries_turn5": spread([s.queries for s in fifth]),
                f"queries_turn{args.turns}": spread([s.queries for s in last]),
            },
            queries_per_turn=f"{sum(s.queries for s in samples) / len(samples):.1f}",
            db_p50_ms=f"{harness.median([s.db_ms for s in samples]):.2f}",
            bare_p50_ms=f"{bare_p50:.2f}",
            bare_queries=spread([s.queries for s in bare]),
            ratio_vs_bare=f"{turn_p50 / bare_p50:.2f}",
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
