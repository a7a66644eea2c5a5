"""The knowledge budget is shared fairly: no source crowds out the others, nothing is wasted
while a source is cut, and the block never exceeds the budget. No database."""

from hypothesis import given
from hypothesis import strategies as st

from knowledge.budget import Passage, compose_knowledge, fair_shares

lengths_and_budget = st.tuples(
    st.lists(st.integers(min_value=0, max_value=5000), max_size=12),
    st.integers(min_value=0, max_value=20_000),
)


@given(lengths_and_budget)
def test_the_shares_never_exceed_the_budget_nor_any_source(case):
    lengths, budget = case

    shares = fair_shares(lengths, budget)

    assert sum(shares) <= budget
    assert all(0 <= share <= length for share, length in zip(shares, lengths, strict=True))


@given(lengths_and_budget)
def test_every_source_gets_at_least_its_length_or_an_even_split(case):
    lengths, budget = case

    shares = fair_shares(lengths, budget)

    even_split = budget // len(lengths) if lengths else 0
    assert all(
        share >= min(length, even_split) for share, length in zip(shares, lengths, strict=True)
    )


@given(lengths_and_budget)
def test_no_budget_is_wasted_while_any_source_is_cut(case):
    lengths, budget = case

    shares = fair_shares(lengths, budget)

    if any(share < length for share, length in zip(shares, lengths, strict=True)):
        assert sum(shares) == budget


@given(lengths_and_budget)
def test_a_cut_source_gets_no_less_than_any_other_source_save_a_leftover_character(case):
    lengths, budget = case

    shares = fair_shares(lengths, budget)

    cut = [share for share, length in zip(shares, lengths, strict=True) if share < length]
    for share in cut:
        assert all(share >= other - 1 for other in shares)


def test_what_short_sources_leave_goes_to_the_long_ones():
    assert fair_shares([100, 5000, 300, 8000], 2000) == [100, 800, 300, 800]
    assert fair_shares([10, 10, 10], 7) == [3, 2, 2]
    assert fair_shares([10, 20], 1000) == [10, 20]


def test_one_long_document_cannot_crowd_out_the_short_sources():
    passages = [
        Passage("Handbook", "policy " * 10_000),
        Passage("Parking", "Free parking behind the building."),
        Passage("Payment", "Cards, cash and MB Way."),
    ]

    block = compose_knowledge(passages, 600)

    assert len(block) <= 600
    assert "## Parking\nFree parking behind the building." in block
    assert "## Payment\nCards, cash and MB Way." in block
    handbook = block.split("\n\n")[0]
    assert handbook.startswith("## Handbook\npolicy policy")
    assert handbook.endswith("policy…")


@given(
    st.lists(
        st.tuples(st.text(min_size=1, max_size=30), st.text(max_size=400)), min_size=0, max_size=8
    ),
    st.integers(min_value=0, max_value=3000),
)
def test_the_composed_block_never_exceeds_the_budget(sources, budget):
    block = compose_knowledge([Passage(title, text) for title, text in sources], budget)

    assert len(block) <= budget


def test_sources_whose_headings_do_not_fit_are_left_out_from_the_end():
    passages = [Passage("Parking", "Free."), Passage("Payment", "Cards.")]

    assert compose_knowledge(passages, 20) == "## Parking\nFree."
    assert compose_knowledge(passages, 5) == ""
