"""A person of the business answers in a conversation from the dashboard: owners and staff of
that business only; the client reads it in the chat; the conversation keeps its stage."""

import pytest
from django.test import Client as HttpClient

from agent.conversation.turns import conversation_start, turn_take
from agent.llm.prompts import chat_messages
from agent.models import Conversation, Message
from agent.offline.model import OfflineModel
from bookings.models import Role
from tests.agent.conversation.chat_http import read
from tests.factories import BusinessFactory, MembershipFactory

pytestmark = pytest.mark.usefixtures("frozen_now")


@pytest.fixture
def escalated(shop):
    _conversation, token, _greeting = conversation_start(business=shop)
    turn_take(token=token, text="I want to talk to a person", model=OfflineModel())
    conversation = Conversation.objects.get()
    assert conversation.state == "escalated"
    return token, conversation


def reply_url(conversation) -> str:
    return f"/admin/agent/conversation/{conversation.pk}/reply/"


@pytest.mark.parametrize("role", [Role.OWNER, Role.STAFF])
def test_the_business_s_people_reply_and_the_client_reads_it(shop, escalated, login, role):
    token, conversation = escalated
    member = MembershipFactory(business=shop, role=role).user
    http = login(member)

    page = http.get(f"/admin/agent/conversation/{conversation.pk}/change/")
    assert b"Reply as staff" in page.content
    sent = http.post(reply_url(conversation), {"text": "  Hi Ana, Rita here. Thursday works.  "})

    assert sent.status_code == 302
    reply = Message.objects.get(role="staff")
    assert (reply.text, reply.author) == ("Hi Ana, Rita here. Thursday works.", member)
    transcript = read(HttpClient(), token).json()
    assert transcript["messages"][-1]["role"] == "staff"
    assert transcript["messages"][-1]["text"] == "Hi Ana, Rita here. Thursday works."
    assert transcript["state"] == "escalated"  # it stays with the team


def test_another_business_s_owner_cannot_see_or_reply(shop, escalated, login):
    _token, conversation = escalated
    stranger = MembershipFactory(business=BusinessFactory(), role=Role.OWNER).user
    http = login(stranger)
    assert http.get(reply_url(conversation)).status_code == 404
    assert http.post(reply_url(conversation), {"text": "hello"}).status_code == 404
    assert not Message.objects.filter(role="staff").exists()


def test_an_empty_reply_is_refused_on_the_form(shop, escalated, login):
    _token, conversation = escalated
    http = login(MembershipFactory(business=shop, role=Role.OWNER).user)
    answer = http.post(reply_url(conversation), {"text": "   "})
    assert answer.status_code == 200
    assert b"This field is required" in answer.content
    assert not Message.objects.filter(role="staff").exists()


def test_a_model_reads_staff_replies_as_the_business_speaking():
    turns = chat_messages([("client", "Can someone help?"), ("staff", "Rita here.")], "Thanks")
    assert [turn.role for turn in turns] == ["user", "assistant", "user"]


def test_handing_back_lets_the_assistant_answer_again_from_where_it_was(shop, login):
    from agent.llm.base import Proposed
    from agent.llm.scripted import ScriptedModel

    _conversation, token, _greeting = conversation_start(business=shop)
    hold = {"action": "hold_slot", "service": "Haircut", "start": "2026-12-02T10:00:00+00:00"}
    turn_take(token=token, text="Wednesday 10", model=ScriptedModel([Proposed((hold,))]))
    turn_take(token=token, text="a person please", model=OfflineModel())
    conversation = Conversation.objects.get()
    assert conversation.state == "escalated"
    http = login(MembershipFactory(business=shop, role=Role.STAFF).user)

    assert (
        b"Hand back to the assistant"
        in http.get(f"/admin/agent/conversation/{conversation.pk}/change/").content
    )
    assert http.get(f"/admin/agent/conversation/{conversation.pk}/hand-back/").status_code == 405
    handed = http.post(f"/admin/agent/conversation/{conversation.pk}/hand-back/")

    assert handed.status_code == 302
    conversation.refresh_from_db()
    assert (conversation.state, conversation.escalation_reason) == ("slot_held", "")
    answered = turn_take(token=token, text="Ana Silva", model=OfflineModel())
    assert answered.outcomes[0].action == "collect_contact"


def test_another_business_cannot_hand_back(shop, escalated, login):
    _token, conversation = escalated
    stranger = MembershipFactory(business=BusinessFactory(), role=Role.OWNER).user
    answer = login(stranger).post(f"/admin/agent/conversation/{conversation.pk}/hand-back/")
    assert answer.status_code == 404
    conversation.refresh_from_db()
    assert conversation.state == "escalated"
