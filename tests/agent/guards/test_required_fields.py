"""No confirmation, offered or claimed, while required details are missing.

Pure: no database, no clock.
"""

import pytest

from agent.guards import (
    required_fields_guard,
)
from tests.agent.guards.common import (
    facts,
)


@pytest.mark.parametrize(
    "draft",
    [
        "Your booking is confirmed!",
        "Shall I confirm Thursday at 14:00 for you?",
        "Great, I'll lock that in now.",
        "Perfect, you're all set for Thursday.",
    ],
)
def test_a_confirmation_is_blocked_while_required_fields_are_missing(draft):
    # given the client has not yet given a name or an email
    given = facts(missing_fields=("name", "email"))
    # when the model confirms, or offers to
    result = required_fields_guard(draft, given)
    # then it asks for the missing ones instead
    assert result.text == "Before I can book this for you, I still need your name and email."
    assert result.rewrites[0].reason == "confirmation while missing: name, email"


@pytest.mark.parametrize(
    ("draft", "missing"),
    [
        ("Shall I confirm Thursday at 14:00 for you?", ()),
        ("Could you share your email address?", ("email",)),
    ],
)
def test_no_block_when_nothing_is_missing_or_nothing_is_confirmed(draft, missing):
    result = required_fields_guard(draft, facts(missing_fields=missing))
    assert result.text == draft
    assert result.rewrites == []
