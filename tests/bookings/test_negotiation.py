"""The negotiation arithmetic, with no model and no database: each rule's answers by example,
then the guarantees over random terms and offer sequences (hypothesis) — never below the floor,
never above the list price, the ask never rises, rounds bounded, the same inputs the same
number — and offers that are not money refused with a reason."""

from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bookings.negotiation import (
    Kind,
    OfferRefused,
    Rule,
    State,
    Terms,
    negotiate,
    offer_amount,
    terms_problems,
)

D = Decimal
HALFWAY = Terms(list_price=D("60.00"), floor=D("45.00"), rule=Rule.HALFWAY, rounding=D("5.00"))
STEPS = Terms(list_price=D("60.00"), floor=D("45.00"), rule=Rule.STEPS, step_amount=D("5.00"))


def haggle(terms: Terms, offers: list[str], **slot) -> list[tuple[str, str]]:
    state, said = State(), []
    for offer in offers:
        outcome = negotiate(terms, state, D(offer), **slot)
        said.append((outcome.kind.value, str(outcome.price)))
        state = outcome.state
    return said


def test_fixed_terms_answer_every_offer_with_the_list_price():
    fixed = Terms(list_price=D("60.00"), floor=D("45.00"), rule=Rule.FIXED)

    assert haggle(fixed, ["30", "50", "60"]) == [
        ("firm", "60.00"),
        ("firm", "60.00"),
        ("accept", "60.00"),
    ]


def test_meeting_halfway_counters_between_offer_and_ask_rounded_up_to_the_step():
    # 60 and 40 → 50; then 50 and 47 → 48.50 → 50 (no movement) holds firm; 50 is accepted.
    assert haggle(HALFWAY, ["40", "47", "50"]) == [
        ("counter", "50.00"),
        ("firm", "50.00"),
        ("accept", "50.00"),
    ]


def test_meeting_halfway_below_the_floor_names_the_floor():
    # 60 and 20 → 40, under the floor of 45: the answer is the floor itself.
    outcome = negotiate(HALFWAY, State(), D("20"))

    assert (outcome.kind, outcome.price, outcome.is_floor) == (Kind.COUNTER, D("45.00"), True)


def test_steps_concede_a_fixed_amount_a_round_down_to_the_floor_then_hold():
    assert haggle(STEPS, ["30", "30", "30", "30"]) == [
        ("counter", "55.00"),
        ("counter", "50.00"),
        ("counter", "45.00"),
        ("firm", "45.00"),
    ]


def test_steps_of_a_percentage_concede_that_share_of_the_room_above_the_floor():
    terms = Terms(list_price=D("60.00"), floor=D("40.00"), rule=Rule.STEPS, step_percent=D("25"))

    assert haggle(terms, ["10", "10"]) == [("counter", "55.00"), ("counter", "50.00")]


def test_a_concession_that_reaches_the_offer_accepts_the_offer():
    assert haggle(STEPS, ["56"]) == [("accept", "56.00")]


def test_after_the_last_round_the_ask_holds_firm():
    one_round = Terms(
        list_price=D("60.00"), floor=D("30.00"), rule=Rule.STEPS, step_amount=D("5"), max_rounds=1
    )

    assert haggle(one_round, ["30", "30"]) == [("counter", "55.00"), ("firm", "55.00")]


def test_an_offer_above_the_ask_is_charged_the_ask_not_more():
    assert haggle(STEPS, ["30", "70"]) == [("counter", "55.00"), ("accept", "55.00")]


def test_last_minute_names_the_floor_at_once_and_takes_an_offer_at_or_above_it():
    terms = Terms(
        list_price=D("60.00"),
        floor=D("45.00"),
        rule=Rule.STEPS,
        step_amount=D("5"),
        last_minute_hours=4,
    )

    close = negotiate(terms, State(), D("30"), hours_to_start=D("2"))
    taken = negotiate(terms, State(), D("47"), hours_to_start=D("2"))
    early = negotiate(terms, State(), D("30"), hours_to_start=D("30"))

    assert (close.kind, close.price, close.is_floor) == (Kind.FIRM, D("45.00"), True)
    assert (taken.kind, taken.price) == (Kind.ACCEPT, D("47"))
    assert (early.kind, early.price, early.is_floor) == (Kind.COUNTER, D("55.00"), False)


@pytest.mark.parametrize(
    ("amount", "currency", "reason"),
    [
        ("0", None, "more than 0"),
        ("-5", None, "more than 0"),
        ("1e309", None, "not a price"),
        ("NaN", None, "not a price"),
        ("Infinity", None, "not a price"),
        ("free", None, "amount of money"),
        ("", None, "amount of money"),
        (None, None, "amount of money"),
        (True, None, "amount of money"),
        (45.5, None, "amount of money"),  # a float is not money: its cents are not exact
        ("45.555", None, "whole cents"),
        ("45", "USD", "in EUR"),
    ],
)
def test_an_offer_that_is_not_money_of_the_business_is_refused_with_a_reason(
    amount, currency, reason
):
    with pytest.raises(OfferRefused, match=reason):
        offer_amount(amount, currency=currency, business_currency="EUR")


def test_an_offer_of_money_is_read_to_the_cent():
    assert offer_amount("45", currency="eur", business_currency="EUR") == D("45.00")
    assert offer_amount(D("45.5"), currency=None, business_currency="EUR") == D("45.50")


@pytest.mark.parametrize(
    ("terms", "problem"),
    [
        (Terms(list_price=D("40"), floor=D("50")), "above the list price"),
        (Terms(list_price=D("60"), floor=D("50"), max_rounds=0), "at least one round"),
        (
            Terms(list_price=D("60"), floor=D("50"), rule=Rule.HALFWAY, rounding=D("0")),
            "more than 0",
        ),
        (Terms(list_price=D("60"), floor=D("50"), rule=Rule.STEPS), "one of them"),
        (
            Terms(list_price=D("60"), floor=D("50"), rule=Rule.STEPS, step_amount=D("-1")),
            "more than 0",
        ),
        (
            Terms(list_price=D("60"), floor=D("50"), rule=Rule.STEPS, step_percent=D("150")),
            "at most 100",
        ),
    ],
)
def test_unusable_terms_are_named_in_words_an_owner_reads(terms, problem):
    assert any(problem in said for said in terms_problems(terms))


# --- the guarantees, over random terms and offers ---------------------------------------------

money = st.decimals(min_value=D("0.01"), max_value=D("5000"), places=2)


@st.composite
def usable_terms(draw) -> Terms:
    list_price = draw(money)
    floor = draw(st.decimals(min_value=D("0"), max_value=list_price, places=2))
    rule = draw(st.sampled_from(Rule))
    step_by_amount = draw(st.booleans())
    return Terms(
        list_price=list_price,
        floor=floor,
        rule=rule,
        rounding=draw(st.sampled_from([D("0.01"), D("0.50"), D("1"), D("5"), D("10")])),
        step_amount=draw(money) if step_by_amount else None,
        step_percent=None
        if step_by_amount
        else draw(st.decimals(min_value=D("0.01"), max_value=D("100"), places=2)),
        max_rounds=draw(st.integers(min_value=1, max_value=6)),
        last_minute_hours=draw(st.none() | st.integers(min_value=1, max_value=48)),
    )


@settings(max_examples=400, deadline=None)
@given(
    terms=usable_terms(),
    offers=st.lists(money, min_size=1, max_size=12),
    hours=st.none() | st.decimals(min_value=D("0"), max_value=D("200"), places=1),
)
def test_no_offer_sequence_moves_a_price_outside_floor_and_list_or_raises_the_ask(
    terms, offers, hours
):
    assert terms_problems(terms) == []
    state = State()
    for offer in offers:
        outcome = negotiate(terms, state, offer, hours_to_start=hours)
        again = negotiate(terms, state, offer, hours_to_start=hours)
        ask_before = terms.list_price if state.ask is None else state.ask
        ask_after = terms.list_price if outcome.state.ask is None else outcome.state.ask

        assert outcome == again  # the same inputs, the same number
        assert terms.floor <= outcome.price <= terms.list_price
        assert ask_after <= ask_before  # the ask never rises
        assert outcome.state.rounds <= terms.max_rounds
        assert outcome.is_floor == (outcome.price == terms.floor)
        if outcome.kind is Kind.ACCEPT:
            assert outcome.price == min(offer, ask_before)  # what was offered, or what was asked
        if outcome.kind is Kind.COUNTER:
            assert offer < outcome.price < ask_before
        if terms.rule is Rule.FIXED:
            assert outcome.price == terms.list_price
        state = outcome.state


@settings(max_examples=300, deadline=None)
@given(
    terms=usable_terms(),
    other_floor=st.decimals(min_value=D("0"), max_value=D("5000"), places=2),
    offer=money,
)
def test_a_counter_above_the_floor_does_not_depend_on_the_floor(terms, other_floor, offer):
    # The floor is the business's secret: an answer that is not the floor must not reveal it.
    # (Steps of a percentage of the room above the floor concede by the floor's distance, by
    # the owner's choice; the other rules must not.)
    if terms.step_percent is not None or other_floor > terms.list_price:
        return
    other = replace(terms, floor=other_floor)
    first = negotiate(terms, State(), offer)
    second = negotiate(other, State(), offer)
    if first.price > max(terms.floor, other_floor) and second.price > max(terms.floor, other_floor):
        assert (first.kind, first.price) == (second.kind, second.price)
