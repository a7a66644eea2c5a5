"""A negotiation is read under the owner's terms as they are now (agent.conversation.bargaining):
a stored ask or agreed price that the owner's new list price, floor or switch no longer allows
is dropped — the client is told, shown and booked the list price — and never booked. And while a
counter is open, the price the client is told is the price the card books. The salon's haircut
lists at €60.00 with a floor of €50.00; its terms meet halfway, rounded to €1, for at most three
counters."""

import datetime as dt
from decimal import Decimal

import pytest

from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import Conversation
from agent.offline.model import OfflineModel
from bookings.models import Appointment, Service
from tests.agent.conversation.chat_http import shown_card
from tests.agent.conversation.conftest import WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")

TEN = lisbon(WEDNESDAY, "10:00")
THURSDAY_11 = lisbon(WEDNESDAY + dt.timedelta(days=1), "11:00")


@pytest.fixture
def haggling(shop):
    """The shop, negotiating: meet halfway, rounded to 1.00, three counters at most."""
    shop.negotiable = True
    shop.concession_rule = "halfway"
    shop.concession_rounding = Decimal("1.00")
    shop.concession_max_rounds = 3
    shop.save()
    return shop


def say(token, text, model=None):
    return turn_take(token=token, text=text, model=model or OfflineModel())


def ready_to_confirm(business) -> str:
    """A conversation holding Wednesday at 10 for a haircut, with the client's details."""
    _conversation, token, _greeting = conversation_start(business=business)
    for text in ("I'd like a haircut", "Wednesday at 10", "Ana Silva", "ana@example.com"):
        say(token, text)
    return token


def agreed_at_55(business) -> str:
    token = ready_to_confirm(business)
    say(token, "can you do 50?")  # countered at 55
    assert "Agreed: the Haircut for €55.00." in say(token, "55 ok?").reply.text
    return token


def haircut_terms(**changed) -> None:
    Service.objects.filter(name="Haircut").update(**changed)


def confirmed(token):
    return conversation_confirm(token=token, idempotency_key="press", card=shown_card(token))


# --- what the owner changes after the price was given -----------------------------------------


def test_a_list_price_lowered_below_the_agreed_price_drops_the_agreement_and_books_the_new_list(
    haggling,
):
    token = agreed_at_55(haggling)
    stale_card = shown_card(token)

    haircut_terms(list_price=Decimal("52.00"))
    result = say(token, "hello")

    assert result.reply.choices["confirm"]["price"] == "52.00"
    assert "55.00" not in result.reply.text
    refused = conversation_confirm(token=token, idempotency_key="stale", card=stale_card)
    assert not Appointment.objects.exists(), refused.reply.text
    confirmed(token)
    appointment = Appointment.objects.get()
    assert (appointment.price, appointment.list_price) == (Decimal("52.00"), Decimal("52.00"))


def test_an_offer_after_the_list_price_fell_below_the_ask_starts_over_from_the_new_list(
    haggling,
):
    token = ready_to_confirm(haggling)
    say(token, "can you do 50?")  # countered at 55
    haircut_terms(list_price=Decimal("52.00"))

    result = say(token, "54 ok?")

    # The old ask of 55 no longer stands: 54 is above the list price, which is what is agreed.
    assert "Agreed: the Haircut for €52.00." in result.reply.text
    stored = Conversation.objects.get()
    assert (stored.agreed_price, stored.negotiation_ask) == (Decimal("52.00"), Decimal("52.00"))


def test_a_floor_raised_above_the_ask_drops_it_so_no_price_below_the_floor_is_told_or_booked(
    haggling,
):
    token = ready_to_confirm(haggling)
    for _ in range(3):
        say(token, "can you do 50?")  # 55, 53, 52
    assert Conversation.objects.get().negotiation_ask == Decimal("52.00")

    haircut_terms(price_floor=Decimal("58.00"))
    answered = say(token, "52 ok?")

    # Answered afresh from the list price under the new floor, never "agreed" at 52.
    assert "52.00" not in answered.reply.text
    assert Conversation.objects.get().agreed_price is None
    shown = Decimal(answered.reply.choices["confirm"]["price"])
    assert Decimal("58.00") <= shown < Decimal("60.00")  # a counter under the new terms
    booked = confirmed(token)
    assert Appointment.objects.get().price == shown, booked.reply.text


def test_negotiation_switched_off_after_an_agreement_books_the_list_price(haggling):
    token = agreed_at_55(haggling)

    haggling.negotiable = False
    haggling.save()
    result = say(token, "hello")

    assert result.reply.choices["confirm"]["price"] == "60.00"
    confirmed(token)
    assert Appointment.objects.get().price == Decimal("60.00")


# --- a counter is the business's offer: told and booked alike --------------------------------


def test_while_a_counter_is_open_the_price_told_is_the_price_the_card_books(haggling):
    token = ready_to_confirm(haggling)
    say(token, "can you do 50?")  # countered at 55
    dutiful = ScriptedModel(
        [Proposed(({"action": "request_confirmation"},))], drafts=["The Haircut is €55.00."]
    )

    result = say(token, "ok, please book it", dutiful)

    assert "€55.00" in result.reply.text
    assert result.reply.choices["confirm"]["price"] == "55.00"
    confirmed(token)  # the client's press accepts the counter
    appointment = Appointment.objects.get()
    assert (appointment.price, appointment.list_price) == (Decimal("55.00"), Decimal("60.00"))


# --- a last-minute price is for its time only, also once booked --------------------------------


def booked_at(business, offer: str) -> str:
    token = ready_to_confirm(business)
    say(token, offer)
    confirmed(token)
    return token


def move_asked(token):
    appointment = Appointment.objects.get()
    move = {
        "action": "reschedule_appointment",
        "appointment": appointment.reference.reference,
        "start": THURSDAY_11.isoformat(),
    }
    model = ScriptedModel([Proposed((move,))], drafts=[None])
    return say(token, "could I reschedule to Thursday at 11?", model)


def test_a_booking_made_at_a_last_minute_price_is_not_moved_and_the_client_is_told_why(haggling):
    haggling.last_minute_hours = 72  # Wednesday is within 72 hours: the floor at once
    haggling.save()
    token = booked_at(haggling, "can you do 50?")
    assert Appointment.objects.get().price == Decimal("50.00")

    result = move_asked(token)

    assert "last-minute price for its time only, so it can't be moved" in result.reply.text
    assert "effect" not in result.reply.choices
    assert Appointment.objects.get().starts_at == TEN


def test_a_booking_at_a_price_negotiated_without_last_minute_terms_moves_as_any_other(haggling):
    token = booked_at(haggling, "can you do 50?")  # the counter of 55, for any time
    assert Appointment.objects.get().price == Decimal("55.00")

    result = move_asked(token)

    assert result.reply.choices["effect"]["button"] == "Move appointment"
