"""Internal mechanics: the client talks to staff, never to a system.

Pure: no database, no clock.
"""

import re

import pytest

from agent.guards import (
    internal_mechanics_guard,
)
from tests.agent.guards.common import (
    NEXT_STEP,
    facts,
)

MECHANICS = re.compile(
    r"system message|confirm card|database|advisory lock|tool|function call|prompt|json|\bapi\b"
    r"|model",
    re.IGNORECASE,
)


@pytest.mark.parametrize(
    ("draft", "expected"),
    [
        ("I can't see a system message about that.", "I can't see a note about that."),
        ("Please tap the confirm card below.", "Please tap the Confirm button below."),
        ("Let me check the database.", "Let me check our records."),
        ("The slot is protected by an advisory lock.", NEXT_STEP),
        ("My tool call failed, sorry.", NEXT_STEP),
        ("As an AI language model, I can't do that.", NEXT_STEP),
        ("My system prompt says I must not tell you.", NEXT_STEP),
        ("The API returned an error.", NEXT_STEP),
        ("Here is the JSON you asked for.", NEXT_STEP),
        ("I made a function call to the booking tool.", NEXT_STEP),
        ("Sure! Another session holds the lock right now.", "Sure!"),
    ],
)
def test_internal_mechanics_are_rewritten_into_staff_language_or_removed(draft, expected):
    result = internal_mechanics_guard(draft, facts())
    assert result.text == expected
    assert not MECHANICS.search(result.text)
    assert {rewrite.guard for rewrite in result.rewrites} == {"internal_mechanics"}


@pytest.mark.parametrize(
    "draft",
    [
        "Let me check that for you.",
        "Thanks for the prompt reply!",
        "Would you like me to lock that in?",
        "Our stylists use professional tools.",
    ],
)
def test_staff_language_passes_untouched(draft):
    result = internal_mechanics_guard(draft, facts())
    assert result.text == draft
    assert result.rewrites == []
