"""Claims made only of words the guard knows, that a time is the client's ("Thursday at 14:00 is
yours", "ya tiene hora") or that nothing is left for them to do: booking claims, in English and
Spanish. They are dropped unless a booking is confirmed this turn — a live hold is not enough —
and kept in the model's words when it is (for the booked time only).

Pure: no database, no clock.
"""

import pytest

from agent.guards import guard_reply
from tests.agent.guards.common import NEXT_STEPS, THURSDAY_14, THURSDAY_1630, facts_in

DENIAL = {"en": "Nothing is booked yet.", "es": "Todavía no hay nada reservado."}
BOOKED_14 = {"booking_confirmed": True, "booked_at": THURSDAY_14}

CLAIMS = [
    ("es", "Ya es suyo el jueves a las 14:00."),
    ("es", "Perfecto, el jueves a las 14:00 es suyo."),
    ("es", "Tiene hora el jueves a las 14:00."),
    ("es", "Ya tiene hora el jueves a las 14:00."),
    ("es", "Ya tiene su hora."),
    ("es", "Ya no tiene que hacer nada más."),
    ("es", "Eso es todo lo que tiene que hacer."),
    ("es", "Ya está todo."),
    ("en", "Thursday at 14:00 is yours."),
    ("en", "There's nothing more you need to do."),
    ("en", "Nothing else to do."),
    ("en", "You don't need to do anything else."),
    ("en", "That's all you need to do."),
]
NOTHING_BOOKED = {"nothing": {}, "only a live hold": {"held_at": THURSDAY_14}}


@pytest.mark.parametrize("ledger", NOTHING_BOOKED.values(), ids=NOTHING_BOOKED.keys())
@pytest.mark.parametrize(("language", "draft"), CLAIMS)
def test_the_claim_is_replaced_by_the_truth_while_nothing_is_booked(language, draft, ledger):
    result = guard_reply(draft, facts_in(language, **ledger))

    assert result.text == f"{DENIAL[language]} {NEXT_STEPS[language]}"
    assert [rewrite.guard for rewrite in result.rewrites] == ["status"]


@pytest.mark.parametrize(("language", "draft"), CLAIMS)
def test_the_claim_is_kept_in_the_models_words_when_the_booking_is_confirmed(language, draft):
    result = guard_reply(draft, facts_in(language, **BOOKED_14))

    assert result.text == draft
    assert result.rewrites == []


@pytest.mark.parametrize(
    ("language", "draft"),
    [("es", "Ya es suyo el jueves a las 14:00."), ("en", "Thursday at 14:00 is yours.")],
)
def test_a_time_is_the_clients_only_at_the_booked_time(language, draft):
    booked_1630 = {"booking_confirmed": True, "booked_at": THURSDAY_1630}

    result = guard_reply(draft, facts_in(language, **booked_1630))

    assert result.text == NEXT_STEPS[language]
    assert [rewrite.guard for rewrite in result.rewrites] == ["status"]


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        # The completion claim's own "no" is not a denial; any other still is.
        ("es", "Ya no tiene que hacer nada más, pero todavía no hay nada reservado."),
        ("en", "There's nothing more you need to do, but nothing is booked yet."),
    ],
)
def test_a_denial_beside_a_completion_claim_is_still_the_cores_to_make(language, draft):
    result = guard_reply(draft, facts_in(language, **BOOKED_14))

    assert result.text == NEXT_STEPS[language]


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "Is there anything else I can do for you?"),
        ("en", "Both times are open on Thursday."),
        ("es", "Tenemos hora el jueves a las 14:00 o a las 16:30."),
        ("es", "¿Le puedo ayudar en algo más?"),
    ],
)
def test_offers_and_small_talk_with_the_same_words_still_pass(language, draft):
    result = guard_reply(draft, facts_in(language))

    assert result.text == draft
    assert result.rewrites == []
