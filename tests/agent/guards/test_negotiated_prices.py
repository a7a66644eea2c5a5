"""Prices while a negotiation is active: every amount a reply states, however written, is the
core's figure — any other is rewritten to it, and the rewrite is recorded.

Pure: no database, no clock. The core countered at 50.00 EUR this turn.
"""

from decimal import Decimal

import pytest

from agent.guards import Price, Rewrite, guard_reply, prices_guard
from agent.guards.prices import MONEY_MOVED_AMOUNT, NOT_THE_FIGURE, UNBACKED_DISCOUNT
from tests.agent.guards.common import NEXT_STEP, facts

COUNTER = Price(Decimal("50.00"), "EUR")
DEPOSIT = Price(Decimal("15.00"), "EUR")


def negotiating(**overrides):
    """A turn where the core countered a client's offer at 50.00 EUR."""
    return facts(**({"prices": (COUNTER,), "negotiation": COUNTER} | overrides))


@pytest.mark.parametrize(
    ("draft", "stated", "told"),
    [
        ("OK, €40 is fine.", "€40", "OK, €50.00 is fine."),
        ("I can do 40 euros.", "40 euros", "I can do €50.00."),
        ("Let's say EUR 40.", "EUR 40", "Let's say €50.00."),
        ("I can do it for 40.00.", "40.00", "I can do it for €50.00."),
        ("The price is forty.", "forty", "The price is €50.00."),
        ("Forty-five euros it is.", "Forty-five euros", "€50.00 it is."),
        ("Fine, 40,00 € then.", "40,00 €", "Fine, €50.00 then."),
        ("OK, 20 is fine, deal!", "20", "OK, €50.00 is fine, deal!"),
        ("Sure, I can do it for 20.", "20", "Sure, I can do it for €50.00."),
        ("A hundred and twenty euros is too much.", "A hundred and twenty euros", None),
        ("That is $50.", "$50", "That is €50.00."),  # the figure's number, another currency
    ],
)
def test_given_a_negotiation_when_a_reply_states_another_amount_then_it_is_rewritten_to_the_figure(
    draft, stated, told
):
    result = prices_guard(draft, negotiating())

    assert result.text == (told or draft.replace(stated, "€50.00"))
    assert result.rewrites == [Rewrite("prices", NOT_THE_FIGURE, stated, "€50.00")]


def test_given_a_negotiation_when_a_reply_states_several_amounts_then_each_is_rewritten():
    result = prices_guard("Not €30, not thirty euros, but 45.00.", negotiating())

    assert result.text == "Not €50.00, not €50.00, but €50.00."
    assert [r.before for r in result.rewrites] == ["€30", "thirty euros", "45.00"]


@pytest.mark.parametrize(
    "draft",
    [
        "I can do €50.00 for you.",
        "I can do 50 euros.",
        "Fifty euros, then?",
        "That costs fifty.",
        "50,00 € it is.",
        "OK, 50 is fine.",
    ],
)
def test_given_a_negotiation_the_core_figure_however_written_passes_untouched(draft):
    result = prices_guard(draft, negotiating())

    assert (result.text, result.rewrites) == (draft, [])


def test_given_a_negotiation_at_a_figure_in_the_hundreds_the_figure_in_words_passes_untouched():
    figure = Price(Decimal("150.00"), "EUR")
    draft = "One hundred and fifty euros, then. The price is a hundred fifty."

    result = prices_guard(draft, negotiating(prices=(figure,), negotiation=figure))

    assert (result.text, result.rewrites) == (draft, [])


@pytest.mark.parametrize(
    "draft",
    [
        "Two hundred euros is the list price.",
        "The price is nine hundred and ninety-nine.",
    ],
)
def test_given_a_negotiation_amounts_in_words_up_to_hundreds_are_rewritten(draft):
    result = prices_guard(draft, negotiating())

    assert "€50.00" in result.text
    assert len(result.rewrites) == 1


@pytest.mark.parametrize(
    "draft",
    [
        "Thursday at 14.00 suits you?",  # a dotted clock time
        "Shall I keep 16.30 for you?",
        "Come at 10:30.",
        "I can do Thursday at 3 for you.",
        "Thursday at 3 works for me.",  # an acceptance, but of a time
        "December 3 is fine.",
        "It is for 2 people and takes 45 minutes.",
        "It is for two people, then.",
        "I can do 3 December or 3/12.",
        "I can do it on 2026-12-03.",
        "Call us for 020 123 4567 or +31 20 123 4567.",
        "Either one works.",
        "The 2 slots are fine.",
        "We have been open for twelve years.",
        "Studio Lumen has 3 chairs.",  # no price word next to it: a plain number is no amount
    ],
)
def test_given_a_negotiation_times_dates_counts_and_phone_numbers_are_not_amounts(draft):
    result = prices_guard(draft, negotiating())

    assert (result.text, result.rewrites) == (draft, [])


def test_given_no_negotiation_a_plain_number_is_no_amount_as_before():
    draft = "OK, 20 is fine, deal! I can do it for 40.00."

    result = prices_guard(draft, facts(prices=(COUNTER,)))

    assert (result.text, result.rewrites) == (draft, [])


def test_given_a_negotiation_the_cores_own_sentence_is_never_rewritten():
    refusal = "An offer of €0 is not a price: offers are more than €1."
    given = negotiating(core_said=(refusal,))

    result = prices_guard(f"{refusal} Sure, €20 then.", given)

    assert result.text == f"{refusal} Sure, €50.00 then."
    assert [r.before for r in result.rewrites] == ["€20"]


def test_given_a_negotiation_a_refund_with_another_amount_is_dropped_not_given_the_figure():
    result = prices_guard("Your refund of €20 is on its way. I can do €30.", negotiating())

    assert result.text == "I can do €50.00."
    assert result.rewrites == [
        Rewrite("prices", MONEY_MOVED_AMOUNT, "Your refund of €20 is on its way.", ""),
        Rewrite("prices", NOT_THE_FIGURE, "€30", "€50.00"),
    ]


def test_given_a_negotiation_a_reply_of_only_a_wrong_payment_claim_becomes_the_next_step():
    result = prices_guard("You paid €20.", negotiating())

    assert result.text == NEXT_STEP
    assert result.rewrites == [Rewrite("prices", MONEY_MOVED_AMOUNT, "You paid €20.", NEXT_STEP)]


def test_given_a_negotiation_the_deposit_keeps_its_amount_but_only_in_a_deposit_sentence():
    given = negotiating(prices=(COUNTER, DEPOSIT))

    told = prices_guard("The deposit is €15.00 of the €50.00.", given)
    conceded = prices_guard("Fine, I can do €15.", given)

    assert (told.text, told.rewrites) == ("The deposit is €15.00 of the €50.00.", [])
    assert conceded.text == "Fine, I can do €50.00."


def test_given_a_negotiation_the_whole_guard_pipeline_tells_the_figure_not_the_concession():
    # Words the status guard knows: only the price scan stands between the client and "20".
    result = guard_reply("Sure, I can do it for 20.", negotiating())

    assert result.text == "Sure, I can do it for €50.00."
    assert Rewrite("prices", NOT_THE_FIGURE, "20", "€50.00") in result.rewrites


LIST = Price(Decimal("60.00"), "EUR")


@pytest.mark.parametrize(
    "draft",
    [
        "How about 11 instead?",
        "I can do 11 tomorrow or 14:00.",
        "I can do 3 on Thursday.",
        "I can offer you 10 or 11 on Wednesday.",
        "We could make it 2 instead of 1.",
    ],
)
def test_given_a_negotiation_a_small_number_beside_a_day_or_instead_is_a_time_not_an_amount(
    draft,
):
    result = prices_guard(draft, negotiating(list_price=LIST))

    assert (result.text, result.rewrites) == (draft, [])


def test_given_a_negotiation_a_larger_number_instead_or_one_with_money_named_is_still_rewritten():
    given = negotiating(list_price=LIST)

    assert prices_guard("How about 45 instead?", given).text == "How about €50.00 instead?"
    assert prices_guard("How about €11 instead?", given).text == "How about €50.00 instead?"
    assert prices_guard("For the price, how about 11 instead?", given).text == (
        "For the price, how about €50.00 instead?"
    )


def test_given_a_negotiation_a_sentence_naming_the_real_list_price_keeps_it():
    draft = "The list price is €60.00, but I can do €55.00."

    result = prices_guard(draft, negotiating(list_price=LIST))

    assert result.text == "The list price is €60.00, but I can do €50.00."
    assert [r.before for r in result.rewrites] == ["€55.00"]


def test_given_a_negotiation_the_list_price_outside_a_list_price_sentence_is_rewritten():
    result = prices_guard("Sure, it costs €60.00.", negotiating(list_price=LIST))

    assert result.text == "Sure, it costs €50.00."


@pytest.mark.parametrize(
    ("draft", "stated"),
    [("Fine, forty.", "forty"), ("Deal at 45 bucks.", "45 bucks"), ("OK, 45!", "45")],
)
def test_given_a_negotiation_a_bare_acceptance_or_slang_amount_is_rewritten(draft, stated):
    result = prices_guard(draft, negotiating(list_price=LIST))

    assert result.text == draft.replace(stated, "€50.00")
    assert result.rewrites == [Rewrite("prices", NOT_THE_FIGURE, stated, "€50.00")]


@pytest.mark.parametrize(
    "claim",
    [
        "I can give you 20% off.",
        "Half price for you!",
        "That is €15 off the list price.",
        "You get a 10 percent discount.",
        "A discount of 5 euros, then.",
    ],
)
def test_given_a_negotiation_a_discount_the_core_did_not_give_is_replaced_by_the_figure(claim):
    # The core's €50.00 is €10.00 (a sixth) off the €60.00 list price: none of these.
    result = prices_guard(f"{claim} Shall I book it?", negotiating(list_price=LIST))

    assert result.text == "The price is €50.00. Shall I book it?"
    assert result.rewrites == [Rewrite("prices", UNBACKED_DISCOUNT, claim, "The price is €50.00.")]


@pytest.mark.parametrize(
    "draft", ["That is €10 off the list price.", "That is 10 euros off.", "A discount of €10.00."]
)
def test_given_a_negotiation_the_discount_the_core_gave_may_be_told(draft):
    result = prices_guard(draft, negotiating(list_price=LIST))

    assert (result.text, result.rewrites) == (draft, [])


def test_given_no_discount_yet_even_a_small_one_is_replaced_by_the_list_price():
    given = negotiating(prices=(LIST,), negotiation=LIST, list_price=LIST)

    result = prices_guard("I can do 10% off.", given)

    assert result.text == "The price is €60.00."
