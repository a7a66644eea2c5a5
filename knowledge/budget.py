"""How a business's knowledge fits a prompt: a fixed character budget shared fairly, so one
long document cannot crowd out the rest. Pure: plain values in, plain values out.

Fair share is max-min fairness ("water filling"): the budget is split evenly across the
sources; a source shorter than its share takes only what it needs, and what it leaves is split
evenly again among the longer ones. So every source gets at least min(its length, budget // n),
and while any source is cut, the whole budget is used.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from knowledge.extract import cut_at_word

SEPARATOR = "\n\n"


@dataclass(frozen=True)
class Passage:
    title: str
    text: str


def fair_shares(lengths: Sequence[int], budget: int) -> list[int]:
    """The characters each of ``lengths`` may have, in the same order, summing to at most
    ``budget`` (exactly ``budget`` when any is cut)."""
    shares = [0] * len(lengths)
    remaining_budget = max(budget, 0)
    waiting = sorted(range(len(lengths)), key=lambda index: (lengths[index], index))
    while waiting:
        level = remaining_budget // len(waiting)
        shortest = waiting[0]
        if lengths[shortest] <= level:
            shares[shortest] = lengths[shortest]
            remaining_budget -= lengths[shortest]
            waiting.pop(0)
            continue
        # Everyone left is longer than an even split: each is cut to it, and the characters
        # the division leaves over go one each to the first in the original order.
        leftover = remaining_budget - level * len(waiting)
        for rank, index in enumerate(sorted(waiting)):
            shares[index] = level + (1 if rank < leftover else 0)
        break
    return shares


def heading(title: str) -> str:
    return f"## {title}\n"


def compose_knowledge(passages: Sequence[Passage], budget: int) -> str:
    """The passages as one block of at most ``budget`` characters: each headed by its title,
    its text cut at a word boundary with an ellipsis to its fair share of what the headings
    leave. Passages whose heading no longer fits are left out, last first."""
    kept = list(passages)
    while kept and _overhead(kept) >= budget:
        kept.pop()
    shares = fair_shares([len(passage.text) for passage in kept], budget - _overhead(kept))
    return SEPARATOR.join(
        heading(passage.title) + cut_at_word(passage.text, share)
        for passage, share in zip(kept, shares, strict=True)
    )


def _overhead(passages: Sequence[Passage]) -> int:
    headings = sum(len(heading(passage.title)) for passage in passages)
    return headings + len(SEPARATOR) * max(len(passages) - 1, 0)
