"""What the offline model reads as a price offer, and what it must never take for one: times,
dates, phone numbers and counts. A bare number is an offer only beside price words."""

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from agent.llm.base import ConversationView, TurnContext
from agent.offline.model import OfflineModel
from agent.offline.reading import read_message

NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
ZONE = "Europe/Lisbon"


def offers_in(text: str) -> list[dict]:
    """The offer_price proposals the offline model makes for ``text``, a haircut chosen."""
    reading = read_message(text, now=NOW, time_zone=ZoneInfo(ZONE), country="PT", services=[])
    context = TurnContext(
        business="Salon",
        time_zone=ZONE,
        language="en",
        currency="EUR",
        now=NOW,
        services=(),
        conversation=ConversationView(state="slot_offered"),
        message=text,
        reading=reading,
        actions=(),
    )
    proposed = OfflineModel().propose(context).proposals
    return [proposal for proposal in proposed if proposal["action"] == "offer_price"]


@pytest.mark.parametrize(
    ("message", "amount", "currency"),
    [
        ("can you do 30?", "30", None),
        ("€45", "45", "EUR"),
        ("45 euros", "45", "EUR"),
        ("55 ok?", "55", None),
        ("would you take 40 for it", "40", None),
        ("would you do it for 40", "40", None),
        ("$40", "40", "USD"),  # read as it is; the core refuses it at a EUR business
    ],
)
def test_a_price_offer_is_read_with_the_currency_only_when_the_client_named_one(
    message, amount, currency
):
    [offer] = offers_in(message)

    assert Decimal(offer["amount"]) == Decimal(amount)
    assert offer.get("currency") == currency


@pytest.mark.parametrize(
    "message",
    [
        "at 10",
        "14:00",
        "tomorrow at 10 ok?",
        "Wednesday 2/12 please",
        "the 14th ok?",
        "for 2 people",
        "my number is 912 345 678",
        "I'd like a refund of €20",  # money asked back is a request, not an offer
    ],
)
def test_times_dates_phone_numbers_counts_and_refunds_are_not_offers(message):
    assert offers_in(message) == []


@pytest.mark.parametrize(
    ("message", "amount"),
    [
        ("€1,200", "1200"),
        ("1.200 €", "1200"),
        ("€ 1,000,000", "1000000"),
        ("€1.200,50", "1200.50"),
        ("$1,200.50", "1200.50"),
        ("can you do 1,050?", "1050"),
        ("45,50 €", "45.50"),
    ],
)
def test_an_amount_grouped_in_thousands_is_read_whole(message, amount):
    [offer] = offers_in(message)

    assert Decimal(offer["amount"]) == Decimal(amount)


def test_a_number_in_scientific_notation_is_no_amount_not_its_first_digit():
    assert offers_in("can you do 1e309?") == []


@pytest.mark.parametrize(
    "message",
    ["I paid the €12 deposit", "The deposit of 15 euros is paid", "I was charged €20 twice"],
)
def test_money_that_moved_is_no_offer(message):
    assert offers_in(message) == []


def test_an_offer_after_a_sentence_about_the_deposit_is_still_read():
    [offer] = offers_in("I paid the €12 deposit. Can you do 40?")

    assert Decimal(offer["amount"]) == Decimal("40")
