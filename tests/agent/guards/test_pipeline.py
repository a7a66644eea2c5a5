"""The guards together, in their order: each load-bearing, a correct reply untouched.

Pure: no database, no clock.
"""

import pytest

from agent.guards import (
    FALLBACK_NEXT_STEP,
    GUARDS,
    TurnFacts,
    guard_reply,
)
from tests.agent.guards.common import (
    ASKED_ABOUT_EVERYTHING,
    BOOKING_WORDS,
    NEXT_STEP,
    facts,
)

# One bad draft per guard, with the facts that make it bad and a sign it slipped through.
LOAD_BEARING = [
    ("required_fields", "Shall I confirm it?", {"missing_fields": ("email",)}, "confirm it"),
    ("status", "Your booking is confirmed!", {}, "confirmed"),
    ("status", "Your slot is secured.", {}, "secured"),
    ("payment_talk", "Please pay the deposit now.", {}, "deposit"),
    ("prices", "That's €40.", {}, "€40"),
    ("dates", "How about Friday at 11:00?", {}, "Friday"),
    ("internal_mechanics", "The advisory lock is busy.", {}, "lock"),
]


@pytest.mark.parametrize(("guard_name", "draft", "overrides", "slipped"), LOAD_BEARING)
def test_each_guard_catches_its_kind_on_its_own_and_the_pipeline_catches_all(
    guard_name, draft, overrides, slipped
):
    given = facts(**overrides)
    alone = tuple((name, guard) for name, guard in GUARDS if name == guard_name)
    # with no guard at all, the bad draft reaches the client
    assert slipped in guard_reply(draft, given, guards=()).text
    # this guard alone catches it, and so does the whole pipeline (the guards overlap on
    # purpose: the status guard fails closed on much that the others catch by name)
    assert slipped not in guard_reply(draft, given, guards=alone).text
    assert slipped not in guard_reply(draft, given).text


def test_a_correct_reply_passes_the_whole_pipeline_untouched():
    draft = "I have 2:00pm and 4:30pm on Thursday, Dec 3; the haircut is €45.00. Which suits you?"
    result = guard_reply(draft, facts())
    assert result.text == draft
    assert result.rewrites == []


def test_a_reply_wrong_in_every_way_is_fully_rewritten_and_every_rewrite_is_recorded():
    draft = (
        "All set, you're booked for Friday at 11:00! "
        "The cut is €30. "
        "Please pay the deposit via the payment link. "
        "I checked the database and took an advisory lock."
    )
    result = guard_reply(draft, facts())
    assert result.text == (
        f"Nothing is booked yet, and I can't see a completed payment yet. {NEXT_STEP}"
    )
    assert [rewrite.guard for rewrite in result.rewrites] == ["status"] * 4
    assert all(rewrite.reason for rewrite in result.rewrites)


def test_the_guards_run_in_a_fixed_order():
    assert [name for name, _guard in GUARDS] == [
        "links",
        "status",
        "required_fields",
        "payment_talk",
        "prices",
        "dates",
        "internal_mechanics",
    ]


def test_without_a_next_step_from_the_core_the_fallback_is_neutral():
    result = guard_reply("Your booking is confirmed!", facts(next_step=""))
    assert result.text == f"Nothing is booked yet. {FALLBACK_NEXT_STEP}"
    assert not BOOKING_WORDS.search(FALLBACK_NEXT_STEP)


def test_a_clock_time_after_at_is_one_time_not_a_bare_hour_too():
    # "at 09:30" once read as "at 9" (09:00) as well, and dropped a sentence of real offers.
    import datetime as dt

    from agent.guards import guard_reply

    offered = (
        dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC),
    )
    text = "Open: Tuesday 1 December at 09:30; Tuesday 1 December at 10:00."
    facts = TurnFacts(zone="Europe/Lisbon", today=dt.date(2026, 11, 29), datetimes=offered)
    assert guard_reply(text, facts).text == text


def test_a_refund_claimed_without_a_refund_issued_is_rewritten():
    from agent.guards import guard_reply

    draft = "Your refund of €150.00 has been processed!"
    guarded = guard_reply(
        draft, TurnFacts(next_step="Anything else?", asked_topics=ASKED_ABOUT_EVERYTHING)
    )
    assert "processed" not in guarded.text
    assert guarded.text.startswith("No refund has been made")
    assert guard_reply("You have been refunded.", TurnFacts(refund_issued=True)).rewrites == []


# --- found by review: claims tied to their facts, offsets, dotted times ------------------------


def _facts(**overrides):
    import datetime as dt

    base = {
        "zone": "Europe/Lisbon",
        "today": dt.date(2026, 11, 30),
        "next_step": "Anything else?",
        "asked_topics": ASKED_ABOUT_EVERYTHING,
    }
    return TurnFacts(**{**base, **overrides})


def test_a_booking_claim_may_name_only_the_booked_time_not_an_offered_one():
    import datetime as dt

    from agent.guards import guard_reply

    booked = dt.datetime(2026, 12, 2, 10, tzinfo=dt.UTC)
    offered = dt.datetime(2026, 12, 3, 9, tzinfo=dt.UTC)
    facts = _facts(datetimes=(booked, offered), booking_confirmed=True, booked_at=booked)
    wrong = "Your booking is now confirmed for Thursday 3 December at 09:00."
    right = "Your booking is confirmed for Wednesday 2 December at 10:00."
    assert "Thursday" not in guard_reply(wrong, facts).text
    assert guard_reply(right, facts).text == right
    offer = "We also have Thursday 3 December at 09:00 open."
    assert guard_reply(offer, facts).text == offer


def test_cancel_and_move_claims_need_the_record():
    from agent.guards import guard_reply

    cancelled = guard_reply("Your appointment has been cancelled.", _facts())
    assert cancelled.text.startswith("Nothing has been cancelled")
    assert guard_reply("It is cancelled.", _facts(cancelled=True)).rewrites == []
    moved = guard_reply("I have rescheduled your visit.", _facts())
    assert moved.text.startswith("Nothing has been moved")


def test_relative_offsets_and_dotted_times_are_dates_too():
    import datetime as dt

    from agent.guards import guard_reply

    for draft in [
        "Come back in 3 hours.",
        "We can see you in 2 days.",
        "It opens 48 hours from now.",
    ]:
        assert guard_reply(draft, _facts()).text.endswith("Anything else?"), draft
        assert "hours" not in guard_reply(draft, _facts()).text
        assert "days" not in guard_reply(draft, _facts()).text
    assert guard_reply("We open at 10.30 then.", _facts()).text == "Anything else?"
    wednesday = dt.datetime(2026, 12, 2, 10, 30, tzinfo=dt.UTC)
    in_two_days = "We have a time in 2 days, at 10.30."
    assert guard_reply(in_two_days, _facts(datetimes=(wednesday,))).text == in_two_days
    # An amount the core handed over none of: a price claimed without a record.
    assert "10.30" not in guard_reply("It costs €10.30.", _facts()).text
