"""The ledger of a turn: what the guards believe, and nothing else.

Pure: no database, no clock.
"""

from datetime import UTC, datetime

import pytest

from agent.guards import (
    TurnFacts,
)
from tests.agent.guards.common import (
    facts,
)


def test_naive_datetimes_are_refused_by_the_ledger():
    with pytest.raises(ValueError, match="naive"):
        TurnFacts(datetimes=(datetime(2026, 12, 3, 14, 0),))  # noqa: DTZ001


def test_the_ledger_reads_times_in_the_business_zone():
    given = facts(datetimes=(datetime(2026, 12, 3, 13, 0, tzinfo=UTC),))
    assert [moment.hour for moment in given.local_datetimes()] == [14]
