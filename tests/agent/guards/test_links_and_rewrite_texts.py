"""Two promises of the reply guards, pure (no database, no clock):

- a reply carries only the links the core handed over this turn — the Checkout, the client's
  appointment page, the business's own site — whatever the stage; any other takes its sentence;
- every rewrite reads as one coherent, honest message: the exact text of each kind is pinned.
"""

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from agent.guards import Price, TurnFacts, guard_reply
from agent.guards.links import links_guard

CHECKOUT = "https://checkout.stripe.com/c/pay/cs_test_a1"
MANAGE = "https://book.studio.example/manage/abc123/"
SITE = "https://studio.example"
NEXT = "Please check the details and press Confirm to book."
THURSDAY_14 = datetime(2026, 12, 3, 13, 0, tzinfo=UTC)  # 14:00 in Amsterdam

ASKED_ABOUT_EVERYTHING = frozenset(
    {"booking", "hold", "payment", "refund", "cancel", "move", "message", "discount"}
)


def facts(**overrides) -> TurnFacts:
    values = {
        "zone": "Europe/Amsterdam",
        "today": date(2026, 12, 1),
        "datetimes": (THURSDAY_14,),
        "prices": (Price(Decimal("45.00"), "EUR"),),
        "next_step": NEXT,
        "links": (CHECKOUT, MANAGE),
        "site": SITE,
        # As if the client had asked about every state: each dropped claim's denial is said.
        "asked_topics": ASKED_ABOUT_EVERYTHING,
        "names": ("Studio Lumen", "Haircut", "Ana"),
    }
    return TurnFacts(**(values | overrides))


# --- links (item 4) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "draft",
    [
        "Pay any remainder at https://evil.example/pay.",
        "Pay any remainder at evil.example/pay today.",
        "Visit www.evil.example for a discount.",
        "Your receipt: http://10.0.0.1/receipt",
        "Click javascript:alert(1) to continue.",
        "More at bit.ly/deal now.",
        "Pay at https://checkout.stripe.com.evil.example/c/pay/cs_test_a1",
    ],
)
@pytest.mark.parametrize("booked", [False, True], ids=["before booking", "once confirmed"])
def test_a_link_the_core_did_not_hand_over_takes_its_sentence_whatever_the_stage(draft, booked):
    given = facts(booking_confirmed=booked, payment_verified=booked)

    result = guard_reply(f"Thanks! {draft}", given)

    assert result.text == "Thanks!"
    assert [rewrite.guard for rewrite in result.rewrites] == ["links"]
    assert result.rewrites[0].before == draft


@pytest.mark.parametrize(
    "draft",
    [
        f"Pay the deposit here: {CHECKOUT}",
        f"See, move or cancel it at {MANAGE}.",
        f"Our price list is at {SITE}/prices and our address at https://www.studio.example/visit.",
    ],
)
def test_the_cores_own_links_stay(draft):
    result = links_guard(draft, facts(payment_requested=True))

    assert result.text == draft
    assert result.rewrites == []


def test_an_email_address_is_not_a_link():
    draft = "We'll write to ana@example.com."

    assert links_guard(draft, facts()).text == draft


# --- whole-message rewrites (item 10) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("draft", "given", "after"),
    [
        pytest.param(
            "Done! Your booking is confirmed.",
            {},
            f"Nothing is booked yet. {NEXT}",
            id="booking",
        ),
        pytest.param(
            "Payment received, thanks!",
            {"payment_requested": True, "next_step": "Pay the deposit with the link."},
            "I can't see a completed payment yet. Pay the deposit with the link.",
            id="payment",
        ),
        pytest.param(
            "Great news! Your refund has been processed.",
            {"booking_confirmed": True, "next_step": "Anything else?"},
            "No refund has been made. Anything else?",
            id="refund",
        ),
        pytest.param(
            "I've cancelled it for you. Is there anything else I can help you with?",
            {"booking_confirmed": True, "next_step": "Is there anything else I can help you with?"},
            "Nothing has been cancelled. Is there anything else I can help you with?",
            id="cancel keeps one next step",
        ),
        pytest.param(
            "Hi Ana! I've rescheduled you, and your refund is on its way.",
            {"booking_confirmed": True, "next_step": "Anything else?"},
            "Hi Ana! No refund has been made, and nothing has been moved. Anything else?",
            id="two kinds in one sentence",
        ),
        pytest.param(
            "All set, I've resent the confirmation email.",
            {"booking_confirmed": True, "next_step": "Anything else?"},
            "Nothing has been sent yet. Anything else?",
            id="message",
        ),
        pytest.param(
            "Shall I confirm it now?",
            {"missing_fields": ("email",)},
            "Nothing is booked yet. Before I can book this for you, I still need your email.",
            id="required fields",
        ),
        pytest.param(
            "Lovely. Please pay the deposit now.",
            {},
            f"Lovely. I can't see a completed payment yet. {NEXT}",
            id="payment talk",
        ),
        pytest.param(
            "It costs €30.",
            {},
            "It costs €45.00.",
            id="price corrected",
        ),
        pytest.param(
            "Sure. We could also do Friday at 9.",
            {},
            "Sure.",
            id="date dropped",
        ),
        pytest.param(
            "Sure. I checked the database.",
            {},
            f"Sure. {NEXT}",
            id="mechanics: words the guard does not know",
        ),
        pytest.param(
            "I asked the model. Anything else?",
            {},
            f"{NEXT} Anything else?",
            id="mechanics dropped",
        ),
    ],
)
def test_each_kind_of_rewrite_reads_as_one_coherent_honest_message(draft, given, after):
    result = guard_reply(draft, facts(**given))

    assert result.text == after
    assert result.rewrites
    assert " — " not in result.text


def test_the_cores_refusal_is_told_even_when_the_draft_leaves_it_out():
    refused = "We take bookings up to Wednesday 30 December, so that day is too far ahead."

    result = guard_reply("Which day would suit you?", facts(core_said=(refused,)))

    assert result.text == f"{refused} Which day would suit you?"
    assert [rewrite.guard for rewrite in result.rewrites] == ["refusals"]


def test_no_guard_removes_what_the_core_said_however_many_days_it_names():
    refused = "We take bookings up to Wednesday 30 December, so that day is too far ahead."

    result = guard_reply(refused, facts(core_said=(refused,), datetimes=()))

    assert result.text == refused
    assert result.rewrites == []
