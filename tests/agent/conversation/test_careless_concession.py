"""A careless model concedes the client's figure while the core counters: the client reads the
core's number, the rewrite is stored, and the booking is made and charged at the core's price.

The salon's haircut lists at €60.00 with a floor of €50.00; its terms concede in steps of
€10.00, so the core's first counter to a lower offer is €50.00 (the floor: the one time it is
told). The deposit is 20 % of the price agreed."""

import re
from decimal import Decimal

import pytest

from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import GuardRewrite
from agent.offline.model import OfflineModel
from bookings.models import Appointment, DepositRule
from tests.agent.conversation.chat_http import shown_card

pytestmark = pytest.mark.usefixtures("frozen_now")


@pytest.fixture
def stepping(shop):
    """The shop, negotiating in steps of €10.00, with a 20 % deposit."""
    shop.negotiable = True
    shop.concession_rule = "steps"
    shop.concession_step_amount = Decimal("10.00")
    shop.concession_max_rounds = 3
    shop.deposit_rule = DepositRule.PERCENT
    shop.deposit_percent = 20
    shop.save()
    return shop


def say(token, text, model=None):
    return turn_take(token=token, text=text, model=model or OfflineModel())


def details_given(business) -> str:
    """A haircut chosen, Wednesday at 10:00 held, name and email given: only the price to go."""
    _conversation, token, _greeting = conversation_start(business=business)
    for text in ("I'd like a haircut", "Wednesday at 10", "Ana Silva", "ana@example.com"):
        say(token, text)
    return token


@pytest.mark.parametrize(
    ("draft", "guard"),
    [
        # Words the status guard does not vouch for: the sentence goes, the core's is told.
        ("OK, 20 is fine, deal!", "status"),
        # Words it knows: only the price scan stands between the client and "20".
        ("Sure, I can do it for 20.", "prices"),
    ],
)
def test_given_a_counter_of_50_when_a_careless_model_concedes_20_then_50_is_told_and_booked(
    stepping, fake_stripe, draft, guard
):
    token = details_given(stepping)
    careless = ScriptedModel(
        [Proposed(({"action": "offer_price", "amount": "20"},))], drafts=[draft]
    )

    told = say(token, "Can you do 20?", careless)

    assert "€50.00" in told.reply.text
    assert re.search(r"\b20\b", told.reply.text) is None  # the concession never reaches the client
    stored = GuardRewrite.objects.filter(conversation=str(told.conversation.public_id))
    assert stored.filter(guard=guard).exists()
    if guard == "prices":
        assert stored.filter(guard="prices", before="20", after="€50.00").exists()

    accepted = say(token, "50 ok?")
    assert accepted.reply.choices["confirm"]["price"] == "50.00"
    conversation_confirm(token=token, idempotency_key="careless", card=shown_card(token))

    appointment = Appointment.objects.get()
    assert (appointment.price, appointment.list_price) == (Decimal("50.00"), Decimal("60.00"))
    [session] = fake_stripe.sessions.values()
    assert session["amount_total"] == 1000  # 20 % of €50.00, in cents


def test_given_no_offer_yet_when_a_careless_model_concedes_unasked_then_the_list_price_is_told(
    stepping,
):
    token = details_given(stepping)
    careless = ScriptedModel([Proposed(())], drafts=["Sure, I can do it for 30."])

    told = say(token, "Can you do 30?", careless)

    assert told.reply.text.startswith("Sure, I can do it for €60.00.")
    assert re.search(r"\b30\b", told.reply.text) is None
    stored = GuardRewrite.objects.filter(conversation=str(told.conversation.public_id))
    assert stored.filter(guard="prices", before="30", after="€60.00").exists()
