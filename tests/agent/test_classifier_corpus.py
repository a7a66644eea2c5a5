"""The routine-turn classifier's proof over a labelled corpus of client messages.

Each line of ``corpus/client_messages.jsonl`` is a message a client might send a salon, clinic
or studio, labelled ``needs_knowledge`` when skipping the business's knowledge base could give
a worse answer (prices, parking, policies, "do you do X", anything unsure). The label judges the
message alone: a bare "yes" is labelled routine although, answering the assistant's offer to
explain a policy, it would want the knowledge — the shell, which knows its own last turn, must
fetch then whatever the classifier says.

The guarantee is one-sided: not one message that needs knowledge is classified routine. The
saving is the share of the routine ones that are skipped (measured 112 of 134, 83.6 %).
"""

import json
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from agent.offline import read_message

CORPUS = Path(__file__).parent / "corpus" / "client_messages.jsonl"
NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)
LISBON = ZoneInfo("Europe/Lisbon")
SERVICES = [(1, "Haircut"), (2, "Colour"), (3, "Beard trim")]
MIN_SKIPPED_SHARE_OF_ROUTINE = 0.80  # measured 0.836, less a margin for small rewordings


def labelled_messages() -> list[tuple[str, bool]]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    return [(row["text"], row["needs_knowledge"]) for row in map(json.loads, lines)]


def is_routine(text: str) -> bool:
    reading = read_message(text, now=NOW, time_zone=LISBON, country="PT", services=SERVICES)
    return reading.is_routine


def test_the_corpus_is_large_varied_and_labelled_both_ways():
    messages = labelled_messages()
    texts = [text for text, _ in messages]

    assert len(messages) >= 220
    assert len(set(texts)) == len(texts)
    assert sum(needs for _, needs in messages) >= 100
    assert sum(not needs for _, needs in messages) >= 100


def test_no_message_that_needs_knowledge_is_classified_routine():
    questions = [text for text, needs_knowledge in labelled_messages() if needs_knowledge]

    skipped_questions = [text for text in questions if is_routine(text)]

    assert skipped_questions == []


def test_most_routine_messages_skip_the_knowledge_fetch():
    routine = [text for text, needs_knowledge in labelled_messages() if not needs_knowledge]
    skipped = [text for text in routine if is_routine(text)]
    share = len(skipped) / len(routine)
    print(f"routine skipped: {len(skipped)}/{len(routine)} ({share:.1%})")

    assert share >= MIN_SKIPPED_SHARE_OF_ROUTINE, sorted(set(routine) - set(skipped))
