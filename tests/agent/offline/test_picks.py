"""Which of the offered times a message picks: an ordinal on its own or before an option word
picks ("la primera", "the second one"); an ordinal naming something else ("la primera semana de
diciembre", "the first visit") or refused ("not the first", "la primera no") does not, and a
refused one leaves the next to pick ("la primera no, la segunda")."""

import pytest

from agent.offline.reading import read_pick
from tests.agent.offline.test_reading_es import FRIDAY_TEN, OfflineModel, spanish_turn


@pytest.mark.parametrize(
    ("message", "language", "index"),
    [
        ("la primera", "es", 0),
        ("la primera opción, por favor", "es", 0),
        ("la segunda me va bien", "es", 1),
        ("la última", "es", -1),
        ("opción 2", "es", 1),
        ("la primera no, la segunda", "es", 1),
        ("no, la primera no", "es", None),
        ("la primera semana de diciembre", "es", None),
        ("el primer lunes de diciembre", "es", None),
        ("the first one", "en", 0),
        ("the second please", "en", 1),
        ("I'll take the last one", "en", -1),
        ("option 3", "en", 2),
        ("not the first, the second", "en", 1),
        ("no, the first one", "en", 0),
        ("the first week of december", "en", None),
        ("the first visit", "en", None),
    ],
)
def test_an_ordinal_picks_only_on_its_own_and_not_refused(message, language, index):
    assert read_pick(message, language) == index


@pytest.mark.parametrize("message", ["¿la primera visita es gratis?", "¿la primera?"])
def test_a_question_picks_no_offered_time(message):
    proposed = OfflineModel().propose(spanish_turn(message))

    assert not any(step.get("start") == FRIDAY_TEN.isoformat() for step in proposed.proposals)


def test_an_ordinal_that_names_something_else_holds_no_time():
    proposed = OfflineModel().propose(spanish_turn("la primera semana de diciembre"))

    assert "hold_slot" not in [step["action"] for step in proposed.proposals]
