"""Internal mechanics: the client talks to staff, never to a system."""

from __future__ import annotations

import re

from agent.guards.ledger import GuardResult, Rewrite, TurnFacts
from agent.guards.links import LINK
from agent.guards.sentences import drop_sentences

# --------------------------------------------------------------------------- (6) internal mechanics

# Replaced in place: the staff way of saying the same thing.
_MECHANICS_RENAMED = [
    (
        re.compile(r"\b(the |our |my )?confirm(ation)? cards?\b", re.IGNORECASE),
        "the Confirm button",
    ),
    (re.compile(r"\b(the |our |my )?databases?\b", re.IGNORECASE), "our records"),
    (re.compile(r"\b(a |the )?system messages?\b", re.IGNORECASE), "a note"),
]
# No staff equivalent: the sentence goes.
_MECHANICS_HIDDEN = re.compile(
    r"\b(advisory locks?|row locks?|(the|a|our) lock|locking|mutex|tool[ -]?calls?|"
    r"(my|the|a) tools?|function[ -]?calls?|instructions I was given|"
    r"(system|my|the) prompt(?!\s+(reply|response|service|attention))|"
    r"json|api|endpoint|backend|webhook|(language|ai) model|the model|llm|as an ai|"
    r"i am an ai|i['’]?m an ai|schema)\b",
    re.IGNORECASE,
)


def internal_mechanics_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """The client talks to staff: no system messages, cards, databases, locks, tools or prompts."""
    text = reply
    rewrites: list[Rewrite] = []
    for pattern, staff_words in _MECHANICS_RENAMED:
        for match in pattern.finditer(text):
            rewrites.append(Rewrite("internal_mechanics", "internal term", match[0], staff_words))
        text = pattern.sub(staff_words, text)
    dropped = drop_sentences(
        text,
        facts,
        "internal_mechanics",
        # A link left here is one the core handed over (the links guard ran first): its path
        # ("/api/v1/manage/…") is no mechanic told.
        lambda s: (
            "internal mechanics revealed" if _MECHANICS_HIDDEN.search(LINK.sub(" ", s)) else None
        ),
    )
    return GuardResult(dropped.text, rewrites + dropped.rewrites)
