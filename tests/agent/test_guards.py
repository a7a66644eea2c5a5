"""Reply guards: a scripted model's bad drafts are rewritten, honest drafts pass untouched.

Pure: no database, no clock. Every draft here is what a scripted (adversarial) model would say.
"""

import re
from datetime import UTC, date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from agent.guards import (
    FALLBACK_NEXT_STEP,
    GUARDS,
    Price,
    Rewrite,
    TurnFacts,
    completion_claims_guard,
    dates_guard,
    guard_reply,
    internal_mechanics_guard,
    payment_talk_guard,
    prices_guard,
    required_fields_guard,
)

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
# Tuesday 1 December 2026; the core offers Thursday 3 December at 14:00 and 16:30.
TODAY = date(2026, 12, 1)
THURSDAY_14 = datetime(2026, 12, 3, 14, 0, tzinfo=AMSTERDAM)
THURSDAY_1630 = datetime(2026, 12, 3, 16, 30, tzinfo=AMSTERDAM)
CUT = Price(Decimal("45.00"), "EUR")
NEXT_STEP = "Which of the two times suits you?"

BOOKING_WORDS = re.compile(
    r"\b(confirmed|booked|all set|you['’]?re in|reserved|good to go)\b", re.IGNORECASE
)


def facts(**overrides) -> TurnFacts:
    """A turn where the core offered two Thursday slots at the listed price; nothing booked."""
    values = {
        "zone": "Europe/Amsterdam",
        "language": "en",
        "today": TODAY,
        "datetimes": (THURSDAY_14, THURSDAY_1630),
        "prices": (CUT,),
        "next_step": NEXT_STEP,
    }
    return TurnFacts(**(values | overrides))


NOTHING_HANDED_OVER = {"datetimes": (), "prices": (), "today": None}


def without(guard_name: str):
    return tuple((name, guard) for name, guard in GUARDS if name != guard_name)


# --------------------------------------------------------------------------- the ledger


def test_naive_datetimes_are_refused_by_the_ledger():
    with pytest.raises(ValueError, match="naive"):
        TurnFacts(datetimes=(datetime(2026, 12, 3, 14, 0),))  # noqa: DTZ001


def test_the_ledger_reads_times_in_the_business_zone():
    given = facts(datetimes=(datetime(2026, 12, 3, 13, 0, tzinfo=UTC),))
    assert [moment.hour for moment in given.local_datetimes()] == [14]


# --------------------------------------------------------------------------- (1) completion claims


@pytest.mark.parametrize(
    "draft",
    [
        "Your booking is confirmed!",
        "CONFIRMED. See you Thursday!",
        "See you on Thursday at 14:00.",
        "You're all set.",
        "You’re in!",
        "Great, I've booked you for Thursday at 14:00.",
        "I can confirm it's booked.",
        "Once again: your appointment IS confirmed.",
        "Done, you're good to go.",
        "Your slot is reserved and confirmed, see you then!",
        "No worries, you're booked.",
        "Everything is sorted, your booking went through!",
        "Your appointment has been scheduled for next Tuesday.",
    ],
)
def test_a_booking_claimed_without_a_record_is_rewritten_honestly(draft):
    # given a turn with no booking record
    given = facts()
    # when the model claims one
    result = completion_claims_guard(draft, given)
    # then the claim is gone and the client hears the truth and the real next step
    assert result.text.startswith("Nothing is booked yet. " + NEXT_STEP)
    assert not BOOKING_WORDS.search(result.text.removeprefix("Nothing is booked yet"))
    assert result.rewrites
    assert {rewrite.guard for rewrite in result.rewrites} == {"completion_claims"}


@pytest.mark.parametrize(
    ("draft", "honest"),
    [
        ("Payment received, thank you!", "I can't see a completed payment yet."),
        ("You've paid the deposit, thanks.", "I can't see a completed payment yet."),
        ("Your deposit has been charged.", "I can't see a completed payment yet."),
        ("I've resent the confirmation email.", "Nothing has been sent yet."),
        ("The details were sent to your inbox.", "Nothing has been sent yet."),
        ("Check your inbox, it's there.", "Nothing has been sent yet."),
    ],
)
def test_payment_and_message_claims_without_a_record_are_rewritten(draft, honest):
    given = facts(payment_requested=True)
    result = completion_claims_guard(draft, given)
    assert result.text.startswith(honest + " ")
    assert draft not in result.text


@pytest.mark.parametrize(
    ("draft", "record"),
    [
        ("Your booking is confirmed for Thursday at 14:00.", {"booking_confirmed": True}),
        ("Payment received, thank you!", {"payment_verified": True}),
        ("I've resent the confirmation email.", {"message_sent": True}),
    ],
)
def test_a_claim_backed_by_a_record_passes_untouched(draft, record):
    result = guard_reply(draft, facts(**record))
    assert result.text == draft
    assert result.rewrites == []


@pytest.mark.parametrize(
    "draft",
    [
        "Nothing is booked yet.",
        "It isn't confirmed yet — pick a time first.",
        "Once you tap Confirm, you'll be all set.",
        "Your slot will be confirmed as soon as you tap the button.",
        "I haven't sent anything yet.",
        "Which time would you like to book?",
        "We hope to see you soon.",
    ],
)
def test_honest_denials_futures_and_conditions_are_not_claims(draft):
    result = completion_claims_guard(draft, facts())
    assert result.text == draft
    assert result.rewrites == []


def test_a_greeting_before_a_false_claim_stays_in_front_of_the_truth():
    result = completion_claims_guard("Hi Anna! Friday works, see you then. Bye!", facts())
    assert result.text == f"Hi Anna! Nothing is booked yet. {NEXT_STEP} Bye!"


CONFIRM_INCIDENT = [
    # (what the client typed, what the scripted model drafted)
    ("Confirm", "Your appointment is confirmed! See you Thursday at 14:00."),
    (
        "Nothing was booked, I checked.",
        "I understand the worry, but I can assure you it IS confirmed — you're all set.",
    ),
    (
        "Confirm. CONFIRM. Are you sure?",
        "Yes, I'm absolutely sure: booked, confirmed, and I've resent the confirmation email.",
    ),
]


def test_typing_confirm_three_times_never_yields_a_claimed_confirmation():
    # given a held slot but no booking: the client types "Confirm" instead of tapping the button
    given = facts(next_step="Tap the Confirm button under Thursday 14:00 to book it.")
    transcript = []
    # when the client insists three times and the model grows more confident each time
    for client_says, draft in CONFIRM_INCIDENT:
        reply = guard_reply(draft, given)
        transcript.append((client_says, reply))
    # then no turn claims a booking or a sent email, and every rewrite is on the audit record
    for _client_says, reply in transcript:
        assert reply.text.startswith("Nothing is booked yet")
        assert not BOOKING_WORDS.search(reply.text.removeprefix("Nothing is booked yet"))
        assert "resent" not in reply.text
        assert "completion_claims" in {rewrite.guard for rewrite in reply.rewrites}
    assert "nothing has been sent yet" in transcript[-1][1].text


# --------------------------------------------------------------------------- (2) dates and times


@pytest.mark.parametrize(
    "draft",
    [
        "How about Tuesday at 3pm?",
        "I can fit you in tomorrow at 3pm.",
        "We have 14:00 free.",
        "Dec 3 works well.",
        "Come by at 3 pm.",
        "We could do noon.",
        "We are open Monday to Friday.",
        "I have a slot on 3 December.",
        "How about 2026-12-03?",
        "Maybe 12/03?",
        "Around 4 o'clock would work.",
        "Sorry, we're closed that day, try next week.",
        "The afternoon is best.",
        "Pop in at 10.",
    ],
)
def test_when_the_core_handed_over_no_time_no_date_or_time_is_stated(draft):
    # given a turn where availability was unavailable (nothing handed over)
    given = facts(**NOTHING_HANDED_OVER)
    # when the model invents a time anyway
    result = dates_guard(draft, given)
    # then the sentence is gone and only the real next step remains
    assert result.text == NEXT_STEP
    assert [rewrite.guard for rewrite in result.rewrites] == ["dates"]
    assert result.rewrites[0].before == draft


def test_only_the_sentence_with_the_invented_time_is_removed():
    draft = "Thanks, Anna! How about Tuesday at 3pm? Let me know what you prefer."
    result = dates_guard(draft, facts(**NOTHING_HANDED_OVER))
    assert result.text == "Thanks, Anna! Let me know what you prefer."


@pytest.mark.parametrize(
    "draft",
    [
        "I have openings at 2:00pm and 4:30pm on Thursday.",
        "Thursday, Dec 3 at 14:00 or 16:30?",
        "How about 3 December at 2 pm?",
        "Would Thursday afternoon suit you?",
        "Does 16:30 on Thursday work?",
        "Thursday 3/12 at 14:00 is open.",
    ],
)
def test_the_dates_and_times_the_core_handed_over_pass_untouched(draft):
    result = dates_guard(draft, facts())
    assert result.text == draft
    assert result.rewrites == []


def test_tomorrow_passes_only_when_the_core_handed_over_today_and_tomorrow_is_offered():
    draft = "Tomorrow at 2pm?"
    on_wednesday = facts(today=date(2026, 12, 2))
    assert dates_guard(draft, on_wednesday).text == draft
    # today is Tuesday: tomorrow (Wednesday) is not offered
    assert dates_guard(draft, facts()).text == NEXT_STEP
    assert dates_guard(draft, facts(today=None)).text == NEXT_STEP  # unknowable without "today"


@pytest.mark.parametrize(
    "draft",
    [
        "How about Friday at 14:00?",
        "I have 15:00 on Thursday.",
        "Or Dec 4?",
        "Tomorrow at 2pm works.",
        "Thursday evening is free.",
    ],
)
def test_a_time_the_core_did_not_offer_is_removed_even_when_others_were(draft):
    result = dates_guard(draft, facts())
    assert result.text == NEXT_STEP
    assert result.rewrites[0].guard == "dates"


@pytest.mark.parametrize(
    ("draft", "today", "kept"),
    [
        ("Ich habe morgen um 15 Uhr frei. Bis dann!", None, "Bis dann!"),
        ("Ich habe am 5. Dezember um 15 Uhr frei. Bis dann!", None, "Bis dann!"),
        ("Ich habe morgen um 14 Uhr frei.", date(2026, 12, 2), "Ich habe morgen um 14 Uhr frei."),
    ],
)
def test_dates_in_the_business_language_are_checked_too(draft, today, kept):
    given = facts(language="de", today=today) if today else facts(language="de", datetimes=())
    assert dates_guard(draft, given).text == kept


def test_weekday_names_are_dates_and_pass_only_when_handed_over():
    # decided: "We are open Monday to Friday" states dates, so it needs a Monday and a Friday
    draft = "We are open Monday to Friday."
    monday = datetime(2026, 11, 30, 9, 0, tzinfo=AMSTERDAM)
    friday = datetime(2026, 12, 4, 9, 0, tzinfo=AMSTERDAM)
    assert dates_guard(draft, facts(datetimes=(monday, friday))).text == draft
    assert dates_guard(draft, facts()).text == NEXT_STEP


@pytest.mark.parametrize(
    "draft",
    [
        "The cut is €45.00.",
        "That's 45.00 EUR for 2 people.",
        "Good morning! How can I help?",
        "We can seat 3 people.",
        "What is your name?",
        "Our stylists have 12 years of experience.",
    ],
)
def test_prices_greetings_and_counts_are_not_taken_for_dates(draft):
    result = dates_guard(draft, facts(**NOTHING_HANDED_OVER | {"prices": (CUT,)}))
    assert result.text == draft
    assert result.rewrites == []


# --------------------------------------------------------------------------- (3) prices


@pytest.mark.parametrize(
    ("draft", "wrong"),
    [
        ("That will be €40.", "€40"),
        ("The price is 50 EUR.", "50 EUR"),
        ("Sure, I can do €35 for you.", "€35"),
        ("It costs 60 euros.", "60 euros"),
        ("It's $45.00.", "$45.00"),
        ("Only € 44,50 today.", "€ 44,50"),
    ],
)
def test_an_amount_the_core_did_not_compute_is_corrected_to_the_core_price(draft, wrong):
    result = prices_guard(draft, facts())
    assert wrong not in result.text
    assert "€45.00" in result.text
    reason = "amount the core did not compute"
    assert result.rewrites == [Rewrite("prices", reason, wrong, "€45.00")]


@pytest.mark.parametrize("draft", ["The cut is €45.00.", "That's €45 in total.", "45.00 EUR."])
def test_the_core_price_passes_untouched(draft):
    result = prices_guard(draft, facts())
    assert result.text == draft
    assert result.rewrites == []


def test_an_amount_is_removed_when_the_core_computed_none():
    result = prices_guard("Thanks! It's $85. Anything else?", facts(prices=()))
    assert result.text == "Thanks! Anything else?"
    assert result.rewrites[0].guard == "prices"


def test_with_several_core_prices_a_wrong_amount_is_removed_not_guessed():
    given = facts(prices=(CUT, Price(Decimal("30.00"), "EUR")))
    result = prices_guard("The cut is €45.00 and the colour is €20.", given)
    assert result.text == NEXT_STEP
    assert prices_guard("Cut €45.00, wash €30.", given).text == "Cut €45.00, wash €30."


# --------------------------------------------------------------------------- (4) payment talk


@pytest.mark.parametrize(
    "draft",
    [
        "Please pay the €10 deposit to secure it.",
        "I'll send you a payment link.",
        "Can I take your card details?",
        "A deposit is required for this service.",
        "You can PAY now via Stripe.",
    ],
)
def test_payment_talk_before_the_payment_stage_becomes_the_next_step(draft):
    # given a conversation where the core has not asked for payment
    result = payment_talk_guard(draft, facts())
    # then the client hears the real next step instead
    assert result.text == NEXT_STEP
    assert [rewrite.guard for rewrite in result.rewrites] == ["payment_talk"]


def test_payment_talk_is_cut_but_the_rest_of_the_reply_stays():
    draft = "Lovely choice! A deposit of €10 is required."
    assert payment_talk_guard(draft, facts()).text == f"Lovely choice! {NEXT_STEP}"


@pytest.mark.parametrize("draft", ["Please pay the deposit using the payment link below."])
def test_payment_talk_at_the_payment_stage_passes_untouched(draft):
    result = payment_talk_guard(draft, facts(payment_requested=True, prices=()))
    assert result.text == draft
    assert result.rewrites == []


def test_ordinary_replies_are_not_payment_talk():
    draft = "Which service would you like? We have cuts and colour."
    assert payment_talk_guard(draft, facts()).text == draft


# --------------------------------------------------------------------------- (5) required fields


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


# --------------------------------------------------------------------------- (6) internal mechanics

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


# --------------------------------------------------------------------------- the pipeline

# One bad draft per guard, with the facts that make it bad and a sign it slipped through.
LOAD_BEARING = [
    ("required_fields", "Shall I confirm it?", {"missing_fields": ("email",)}, "confirm it"),
    ("completion_claims", "Your booking is confirmed!", {}, "confirmed"),
    ("payment_talk", "Please pay the deposit now.", {}, "deposit"),
    ("prices", "That's €40.", {}, "€40"),
    ("dates", "How about Friday at 11:00?", {}, "Friday"),
    ("internal_mechanics", "The advisory lock is busy.", {}, "lock"),
]


@pytest.mark.parametrize(("guard_name", "draft", "overrides", "slipped"), LOAD_BEARING)
def test_each_guard_is_load_bearing_in_the_pipeline(guard_name, draft, overrides, slipped):
    given = facts(**overrides)
    # with every guard, the bad draft is caught
    assert slipped not in guard_reply(draft, given).text
    # without this one guard, it reaches the client
    assert slipped in guard_reply(draft, given, guards=without(guard_name)).text


def test_a_correct_reply_passes_the_whole_pipeline_untouched():
    draft = "I have 2:00pm and 4:30pm on Thursday, Dec 3; the cut is €45.00. Which suits you?"
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
    assert result.text == f"Nothing is booked yet. {NEXT_STEP} The cut is €45.00."
    assert [rewrite.guard for rewrite in result.rewrites] == [
        "completion_claims",
        "payment_talk",
        "prices",
        "internal_mechanics",
        "internal_mechanics",
    ]
    assert all(rewrite.reason for rewrite in result.rewrites)


def test_the_guards_run_in_a_fixed_order():
    assert [name for name, _guard in GUARDS] == [
        "links",
        "required_fields",
        "completion_claims",
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

    from agent.guards import TurnFacts, guard_reply

    offered = (
        dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC),
    )
    text = "Open: Tuesday 1 December at 09:30; Tuesday 1 December at 10:00."
    facts = TurnFacts(zone="Europe/Lisbon", today=dt.date(2026, 11, 29), datetimes=offered)
    assert guard_reply(text, facts).text == text


def test_a_refund_claimed_without_a_refund_issued_is_rewritten():
    from agent.guards import TurnFacts, guard_reply

    draft = "Your refund of €150.00 has been processed!"
    guarded = guard_reply(draft, TurnFacts(next_step="Anything else?"))
    assert "processed" not in guarded.text
    assert guarded.text.startswith("No refund has been made")
    assert guard_reply("You have been refunded.", TurnFacts(refund_issued=True)).rewrites == []


# --- found by review: claims tied to their facts, offsets, dotted times ------------------------


def _facts(**overrides):
    import datetime as dt

    from agent.guards import TurnFacts

    base = {
        "zone": "Europe/Lisbon",
        "today": dt.date(2026, 11, 30),
        "next_step": "Anything else?",
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
        assert guard_reply(draft, _facts()).text == "Anything else?", draft
    assert guard_reply("We open at 10.30 then.", _facts()).text == "Anything else?"
    wednesday = dt.datetime(2026, 12, 2, 10, 30, tzinfo=dt.UTC)
    in_two_days = "We have a time in 2 days, at 10.30."
    assert guard_reply(in_two_days, _facts(datetimes=(wednesday,))).text == in_two_days
    assert guard_reply("It costs €10.30.", _facts()).rewrites[0].guard == "prices"
