"""What a client reads after a turn: refusals in plain words (never a gate's or a validator's
text), days in words in the business's zone, what is wrong with a detail they typed, the truth
about their appointment as it stands now, and only times open for the service they are being
offered for. Each test drives a real turn through the pipeline (real database, real gates)."""

import datetime as dt
import re
from decimal import Decimal

import pytest
import time_machine

from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import AgentGrant, AuditEntry, Conversation, GuardRewrite
from agent.offline.model import OfflineModel
from bookings.actors import Actor
from bookings.models import Appointment, AppointmentStatus, DepositRule
from bookings.selectors import open_slots_for
from bookings.services import ClientDetails, appointment_create
from payments.services import refund_issue
from payments.services.reconcile import payment_verify
from tests.agent.conversation.chat_http import shown_card
from tests.agent.conversation.conftest import NOW, WEDNESDAY, lisbon
from tests.factories import ServiceFactory, owner_of

pytestmark = pytest.mark.usefixtures("frozen_now")

INTERNAL = re.compile(
    r"hold_slot|collect_contact|confirm_booking|capabilit|STRUCTURE|CAPABILITY|POLICY|"
    r"String should|field|\d{4}-\d\d-\d\dT",
)


def started(shop) -> str:
    _conversation, token, _greeting = conversation_start(business=shop)
    return token


def offline(token: str, *texts: str):
    return [turn_take(token=token, text=text, model=OfflineModel()) for text in texts]


# --- plain words (items 11 and 13) ----------------------------------------------------------


def test_a_business_without_grants_refuses_in_plain_words(shop):
    AgentGrant.objects.filter(business=shop).delete()
    token = started(shop)

    [answer] = offline(token, "a haircut on Wednesday at 10 please")

    assert all(outcome.stage == "CAPABILITY" for outcome in answer.outcomes)
    assert not INTERNAL.search(answer.reply.text), answer.reply.text
    assert "a member of the team can help" in answer.reply.text


def test_a_business_made_with_the_orm_gets_the_default_grants(salon):
    from agent.actions import DEFAULT_GRANTS
    from agent.services import granted_actions
    from tests.factories import BusinessFactory

    created = BusinessFactory()

    assert granted_actions(business=created) == DEFAULT_GRANTS
    assert granted_actions(business=salon) == DEFAULT_GRANTS


def test_a_date_past_the_horizon_is_refused_in_words_and_the_refusal_survives_the_guards(shop):
    token = started(shop)
    beyond = (NOW + dt.timedelta(days=shop.booking_horizon_days + 5)).date()
    model = ScriptedModel(
        [Proposed(({"action": "offer_slots", "service": "Haircut", "day": beyond.isoformat()},))]
    )

    answer = turn_take(token=token, text=f"a haircut on {beyond:%d %B}", model=model)

    [outcome] = answer.outcomes
    assert outcome.reason.endswith("is beyond the booking horizon")
    assert answer.reply.text.startswith(
        "We take bookings up to Wednesday 30 December, so that day is too far ahead."
    )
    assert not re.search(r"\d{4}-\d\d-\d\d", answer.reply.text)
    assert not GuardRewrite.objects.filter(guard="dates").exists()


def test_a_confirm_pressed_on_an_empty_card_is_refused_without_validation_text(shop):
    token = started(shop)
    offline(token, "a haircut on Wednesday at 10", "Ana Silva")

    result = conversation_confirm(token=token, idempotency_key="k-1", card="")

    assert not result.executed[0].verdict.passed
    assert not INTERNAL.search(result.reply.text), result.reply.text
    assert "I still need your email address" in result.reply.text


# --- details the client typed (items 12 and 14) -----------------------------------------------


@pytest.mark.parametrize(
    ("typed", "told"),
    [
        ("my email is name@example", "That email address looks incomplete"),
        ("ana.example.com", None),  # no @: not an email at all, nothing to tell about it
        ("@example.com", "That email address has nothing before the @."),
        ("my phone is 12", "That phone number is too short."),
    ],
)
def test_a_detail_that_cannot_be_used_is_explained_and_never_stored(shop, typed, told):
    token = started(shop)
    offline(token, "a haircut on Wednesday at 10", "Ana Silva")

    [answer] = offline(token, typed)

    conversation = Conversation.objects.get()
    assert (conversation.email, conversation.phone) == ("", "")
    if told:
        assert told in answer.reply.text
        assert "I don't have that information" not in answer.reply.text


def test_details_the_client_never_typed_are_refused_at_policy_and_not_stored(shop):
    token = started(shop)
    invented = {"action": "collect_contact", "name": "Mallory Evil", "email": "m@evil.example"}

    answer = turn_take(token=token, text="hi there", model=ScriptedModel([Proposed((invented,))]))

    [outcome] = answer.outcomes
    assert (outcome.result, outcome.stage) == ("BLOCK", "POLICY")
    assert outcome.reason == "the client did not write this name"
    conversation = Conversation.objects.get()
    assert (conversation.name, conversation.email) == ("", "")


@pytest.mark.parametrize(
    ("typed", "proposed"),
    [
        ("I'm ANA  SILVA", {"name": "Ana Silva"}),
        ("I'm José Álvarez", {"name": "Jose Alvarez"}),
        ("mail: Ana@Example.COM", {"email": "ana@example.com"}),
        ("call me on 912-345-678", {"phone": "+351 912 345 678"}),
    ],
)
def test_details_typed_by_the_client_are_recognised_however_they_were_normalised(
    shop, typed, proposed
):
    token = started(shop)
    model = ScriptedModel([Proposed(({"action": "collect_contact", **proposed},))])

    answer = turn_take(token=token, text=typed, model=model)

    assert answer.outcomes[0].result == "EXECUTE", answer.outcomes[0].reason


def test_a_request_the_assistant_cannot_act_on_is_told_what_it_can_do(shop):
    token = started(shop)

    [answer] = offline(token, "please send me an invoice for last year")

    # What it can do at this stage, and a person offered (test_offer_person).
    assert "I can't help with that here. In this chat I can book Haircut." in answer.reply.text
    assert "Would you like a member of the team to take over?" in answer.reply.text


# --- the truth about the appointment now (items 9 and 15) -------------------------------------


def test_a_past_refunded_visit_is_told_as_past_and_refunded_never_as_confirmed(shop, fake_stripe):
    shop.deposit_rule, shop.deposit_percent = DepositRule.PERCENT, 20
    shop.save()
    token = started(shop)
    offline(token, "a haircut on Wednesday at 10", "Ana Silva", "ana@example.com")
    conversation_confirm(token=token, idempotency_key="k-1", card=shown_card(token))
    appointment = Appointment.objects.get()
    fake_stripe.pay(appointment.payment.checkout_session_id)
    payment_verify(appointment.payment)
    owner = Actor.of_user(owner_of(shop), "owner")
    refund_issue(appointment=appointment, amount=Decimal("12.00"), actor=owner)

    with time_machine.travel(NOW + dt.timedelta(days=5), tick=False):
        [answer] = offline(token, "can I get a refund for my visit?")

    assert "confirmed" not in answer.reply.text
    assert (
        "Your Haircut on Wednesday 2 December at 10:00 has passed. Its deposit has been refunded."
        in answer.reply.text
    )


def test_a_lapsed_hold_is_read_back_without_its_card_and_told_at_the_next_reply(shop):
    token = started(shop)
    offline(token, "a haircut on Wednesday at 10", "Ana Silva", "ana@example.com")
    later = NOW + dt.timedelta(minutes=shop.hold_minutes + 1)

    with time_machine.travel(later, tick=False):
        [answer] = offline(token, "hello?")

    assert answer.conversation.state == "slot_offered"
    assert answer.conversation.held_start is None
    assert "confirm" not in answer.reply.choices
    assert "Wednesday 2 December at 10:00, was released when the hold ran out" in (
        answer.reply.text
    )
    assert "It is still free: shall I hold it again?" in answer.reply.text
    assert [slot["label"] for slot in answer.reply.choices["slots"]] == [
        "Wednesday 2 December at 10:00"
    ]


# --- times for the service they are offered for (item 18) -------------------------------------


def test_alternatives_found_for_one_service_are_never_offered_for_another(shop, haircut):
    massage = ServiceFactory(
        business=shop, name="Massage", duration_minutes=90, list_price=Decimal("80.00")
    )
    appointment_create(
        service=haircut, start=lisbon(WEDNESDAY, "10:00"), client=ClientDetails("Bo", "b@x.pt")
    )
    token = started(shop)
    taken = {"action": "hold_slot", "service": "Haircut", "start": lisbon(WEDNESDAY, "10:00")}
    switch = {"action": "choose_service", "service": "Massage"}
    model = ScriptedModel([Proposed(({**taken, "start": taken["start"].isoformat()}, switch))])

    answer = turn_take(token=token, text="a haircut at 10, no, a massage", model=model)

    assert answer.conversation.service_id == massage.pk
    offered = answer.reply.choices.get("slots", [])
    massage_open = {
        slot.start
        for slot in open_slots_for(
            massage, first_day=WEDNESDAY, last_day=WEDNESDAY + dt.timedelta(days=7), now=NOW
        )
    }
    assert all(dt.datetime.fromisoformat(slot["start"]) in massage_open for slot in offered)
    assert offered == []  # the haircut's alternatives are not shown for the massage
    assert Conversation.objects.get().offered == []


# --- absurd amounts (item 17) -----------------------------------------------------------------


@pytest.mark.parametrize("amount", ["100000000", "1e308", "1e9999", "12.345", 1e400, "NaN"])
def test_a_refund_no_column_can_hold_is_refused_at_structure_and_audited(shop, amount):
    AgentGrant.objects.create(business=shop, action="refund")
    token = started(shop)
    proposal = {"action": "refund", "appointment": "A-1", "amount": amount}

    answer = turn_take(
        token=token, text="refund me everything", model=ScriptedModel([Proposed((proposal,))])
    )

    [outcome] = answer.outcomes
    assert (outcome.result, outcome.stage) == ("BLOCK", "STRUCTURE")
    entry = AuditEntry.objects.get(action="refund")
    assert entry.money_contained <= Decimal("99999999.99")
    assert entry.reason.startswith("refund: amount")
    assert answer.reply.text  # the client's turn is answered; their message is kept
    assert Conversation.objects.get().messages.filter(text="refund me everything").exists()


def test_an_overlong_or_unstorable_proposal_is_audited_not_a_server_error(shop):
    token = started(shop)
    proposals = (
        {"action": "x" * 5000},
        {"action": "send_message", "text": "nul\x00byte"},
        {"action": "offer_slots", "service": "Haircut", "day": {"deep": [[[[[[[1]]]]]]]}},
    )

    answer = turn_take(token=token, text="hi", model=ScriptedModel([Proposed(proposals)]))

    assert len(answer.outcomes) == 3
    assert AuditEntry.objects.count() == 3
    assert len(AuditEntry.objects.get(stage="STRUCTURE", reason__startswith="unknown").action) <= 64


def test_nothing_here_reaches_a_client_as_an_appointment_changed_without_a_record(shop):
    # Sanity for the suite: the appointment rows these tests rely on are untouched by refusals.
    token = started(shop)
    offline(token, "a haircut on Wednesday at 10", "Ana Silva", "ana@example.com")
    assert not Appointment.objects.filter(status=AppointmentStatus.CONFIRMED).exists()


# --- links (item 4) ---------------------------------------------------------------------------


def test_a_models_link_never_reaches_the_client_even_after_booking(shop):
    token = started(shop)
    offline(token, "a haircut on Wednesday at 10", "Ana Silva", "ana@example.com")
    conversation_confirm(token=token, idempotency_key="k-1", card=shown_card(token))
    model = ScriptedModel(
        [Proposed()],
        drafts=["Thanks, Ana! Pay any remainder at https://evil.example/pay. See you soon."],
    )

    answer = turn_take(token=token, text="thanks!", model=model)

    assert answer.conversation.state == "confirmed"
    assert "evil.example" not in answer.reply.text
    assert answer.reply.text.startswith("Thanks, Ana!")
    rewrite = GuardRewrite.objects.get(guard="links")
    assert rewrite.before == "Pay any remainder at https://evil.example/pay."


def test_the_business_own_site_and_the_clients_own_page_may_be_linked(shop):
    shop.website = "https://studio.example"
    shop.save()
    token = started(shop)
    offline(token, "a haircut on Wednesday at 10", "Ana Silva", "ana@example.com")
    conversation_confirm(token=token, idempotency_key="k-1", card=shown_card(token))
    from bookings.tokens import manage_url

    page = manage_url(Appointment.objects.get().public_id)
    model = ScriptedModel(
        [Proposed()],
        drafts=[f"Our prices are at https://studio.example/prices. Your booking: {page}"],
    )

    answer = turn_take(token=token, text="thanks!", model=model)

    assert "https://studio.example/prices" in answer.reply.text
    assert page in answer.reply.text
    assert not GuardRewrite.objects.filter(guard="links").exists()
