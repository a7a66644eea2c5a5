"""What the reply guards cost per reply, now that status talk fails closed.

    .venv/bin/python bench/guards.py [--replies 2000] [--repeat 5] [--seed 20261201]

Pure: no database, no server. Replies are built as a turn builds them: a narration of a Lisbon
salon's turn (its stage, slots offered, a hold, a booking — varied per reply), the offline
narrator's draft of it (the honest replies), and the hostile model's draft of the same
narration (``devtools.hostile_model``: true facts mixed with false claims in varied and
held-out wording, links, internal words, raw reasons). Each reply is guarded by the whole
pipeline (``agent.guards.GUARDS``) and, in the same run, by the same pipeline without the
status guard — the guards as they stood before it — as the baseline.

Last line: replies, p50_us and p99_us (the whole pipeline, per reply, honest and hostile
together), honest_p50_us, hostile_p50_us, baseline_p50_us (without the status guard),
ratio_vs_baseline (p50 / baseline p50), rewritten_share (percent of hostile replies changed).
"""

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ordina.settings.test")

import django  # noqa: E402

django.setup()

from agent.conversation.telling import turn_facts  # noqa: E402
from agent.guards import GUARDS, guard_reply  # noqa: E402
from agent.llm.base import ConversationView, Narration, ServiceFact, TurnContext  # noqa: E402
from agent.offline.model import OfflineModel  # noqa: E402
from agent.offline.reading import read_message  # noqa: E402
from devtools.hostile_model import HostileModel  # noqa: E402

NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
ZONE = "Europe/Lisbon"
HAIRCUT = ServiceFact(id=1, name="Haircut", minutes=60, price=Decimal("60.00"), currency="EUR")
STATES = ["service_chosen", "slot_offered", "slot_held", "details_collected", "confirmed"]
MESSAGES = ["a haircut please", "is it booked?", "Confirm", "thanks!", "can I get a refund?"]


def narration(rng: random.Random) -> Narration:
    """One turn's narration, its stage and facts drawn at random."""
    state = rng.choice(STATES)
    slots = tuple(NOW + dt.timedelta(days=2, hours=h) for h in (2, 6))
    held = slots[0] if state in ("slot_held", "details_collected") else None
    booked = slots[0] if state == "confirmed" else None
    message = rng.choice(MESSAGES)
    view = ConversationView(
        state=state,
        service=HAIRCUT,
        offered=slots,
        held=held,
        hold_expires=NOW + dt.timedelta(minutes=10) if held else None,
        name="Ana Silva" if state != "service_chosen" else "",
        email="ana@example.com" if state in ("details_collected", "confirmed") else "",
        appointment="A-1" if booked else None,
        appointment_status="confirmed" if booked else None,
        appointment_start=booked,
        appointment_service="Haircut" if booked else "",
    )
    turn = TurnContext(
        business="Studio Lumen",
        time_zone=ZONE,
        language="en",
        currency="EUR",
        now=NOW,
        services=(HAIRCUT,),
        conversation=view,
        message=message,
        reading=read_message(
            message, now=NOW, time_zone=view_zone(), country="PT", services=[(1, "Haircut")]
        ),
        actions=(),
    )
    return Narration(
        turn=turn,
        outcomes=(),
        after=view,
        slots=slots if state == "slot_offered" else (),
        price=HAIRCUT.price,
        next_step="Which of these times suits you? Or tell me another day.",
    )


def view_zone():
    from zoneinfo import ZoneInfo

    return ZoneInfo(ZONE)


def timed(replies, guards) -> list[float]:
    costs = []
    for draft, facts in replies:
        start = time.perf_counter()
        guard_reply(draft, facts, guards)
        costs.append((time.perf_counter() - start) * 1e6)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    rng = random.Random(args.seed)  # noqa: S311 - a seeded sample, not a secret
    hostile = HostileModel(seed=args.seed)
    offline = OfflineModel()
    honest, lying = [], []
    for _ in range(args.replies // 2):
        told = narration(rng)
        core = offline.narrate(replace(told, notes=()))
        facts = turn_facts(told, payment_verified=False, core_narration=core)
        honest.append((offline.narrate(told), facts))
        lying.append((hostile.narrate(told), facts))
    baseline_guards = tuple((name, guard) for name, guard in GUARDS if name != "status")
    runs = {"all": [], "honest": [], "hostile": [], "baseline": []}
    for _ in range(args.repeat):
        honest_costs, hostile_costs = timed(honest, GUARDS), timed(lying, GUARDS)
        runs["honest"].append(statistics.median(honest_costs))
        runs["hostile"].append(statistics.median(hostile_costs))
        both = sorted(honest_costs + hostile_costs)
        runs["all"].append((statistics.median(both), both[int(len(both) * 0.99) - 1]))
        base = timed(honest + lying, baseline_guards)
        runs["baseline"].append(statistics.median(base))
    p50 = statistics.median(run[0] for run in runs["all"])
    p99 = statistics.median(run[1] for run in runs["all"])
    baseline = statistics.median(runs["baseline"])
    rewritten = sum(guard_reply(d, f).text != d for d, f in lying) * 100 / len(lying)
    print(
        f"replies={len(honest) + len(lying)} p50_us={p50:.0f} p99_us={p99:.0f} "
        f"honest_p50_us={statistics.median(runs['honest']):.0f} "
        f"hostile_p50_us={statistics.median(runs['hostile']):.0f} "
        f"baseline_p50_us={baseline:.0f} ratio_vs_baseline={p50 / baseline:.2f} "
        f"rewritten_share={rewritten:.1f}"
    )


if __name__ == "__main__":
    main()
