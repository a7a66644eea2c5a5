"""Sentence plumbing shared by the guards: split, join, drop with an audit record."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from agent.guards.ledger import GuardResult, Rewrite, TurnFacts

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


def join_sentences(parts: Iterable[str]) -> str:
    return " ".join(part for part in parts if part)


def human_list(items: Iterable[str]) -> str:
    words = [item.replace("_", " ") for item in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def drop_sentences(
    text: str,
    facts: TurnFacts,
    guard: str,
    offending: Callable[[str], str | None],
) -> GuardResult:
    """Drop every sentence `offending` gives a reason for (never one the core itself said);
    fall back to the next step."""
    kept: list[str] = []
    rewrites: list[Rewrite] = []
    for sentence in sentences(text):
        reason = None if facts.is_core_said(sentence) else offending(sentence)
        if reason is None:
            kept.append(sentence)
        else:
            rewrites.append(Rewrite(guard=guard, reason=reason, before=sentence, after=""))
    if not rewrites:
        return GuardResult(text)
    if not kept:
        kept = [facts.next_step_text()]
        rewrites[-1] = Rewrite(guard, rewrites[-1].reason, rewrites[-1].before, kept[0])
    return GuardResult(join_sentences(kept), rewrites)
