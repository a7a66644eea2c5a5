"""When a conversation is handed to a person, the business's owners get one email per
escalation linking to it, and the dashboard counts what waits for a person, per business."""

import pytest
from django.conf import settings
from django.urls import reverse

from agent.conversation.staff import hand_back_to_assistant
from agent.conversation.turns import conversation_start, turn_take
from agent.escalation_alerts import escalation_alert
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import Conversation
from tests.factories import BusinessFactory, owner_of, staff_of

pytestmark = pytest.mark.usefixtures("frozen_now")

ESCALATE = {"action": "escalate_to_human", "reason": "the client asks about a allergy"}


def escalated(business, django_capture_on_commit_callbacks) -> Conversation:
    """A conversation the model handed to a person, its alert queued for after the commit."""
    conversation, token, _greeting = conversation_start(business=business)
    with django_capture_on_commit_callbacks() as queued:
        turn_take(
            token=token,
            text="Is it safe with my allergy?",
            model=ScriptedModel([Proposed((ESCALATE,))]),
        )
    conversation.refresh_from_db()
    assert conversation.state == "escalated"
    assert len(queued) == 1
    return conversation


def test_an_escalation_emails_each_owner_why_and_where(
    shop, mailoutbox, django_capture_on_commit_callbacks
):
    owner_of(shop, user__email="rita@example.com")
    owner_of(shop, user__email="joao@example.com")
    staff_of(shop, user__email="staff@example.com")
    conversation = escalated(shop, django_capture_on_commit_callbacks)
    Conversation.objects.filter(pk=conversation.pk).update(name="Ana Silva")

    alerted = escalation_alert(conversation_id=conversation.pk)

    assert alerted.sent == 2
    assert sorted(m.to[0] for m in mailoutbox) == ["joao@example.com", "rita@example.com"]
    message = mailoutbox[0]
    assert shop.name in message.subject
    assert "the client asks about a allergy" in message.body
    assert "Ana Silva" in message.body
    link = settings.PUBLIC_URL + reverse("admin:agent_conversation_change", args=[conversation.pk])
    assert link in message.body


def test_the_same_escalation_is_alerted_once_however_often_the_task_runs(
    shop, mailoutbox, django_capture_on_commit_callbacks
):
    owner_of(shop, user__email="rita@example.com")
    conversation = escalated(shop, django_capture_on_commit_callbacks)

    first = escalation_alert(conversation_id=conversation.pk)
    again = escalation_alert(conversation_id=conversation.pk)

    assert (first.sent, again.sent) == (1, 0)
    assert len(mailoutbox) == 1


def test_a_new_escalation_after_a_hand_back_is_alerted_again(
    shop, mailoutbox, django_capture_on_commit_callbacks
):
    owner_of(shop, user__email="rita@example.com")
    conversation = escalated(shop, django_capture_on_commit_callbacks)
    escalation_alert(conversation_id=conversation.pk)

    hand_back_to_assistant(conversation=conversation)
    Conversation.objects.filter(pk=conversation.pk).update(state="escalated")
    escalation_alert(conversation_id=conversation.pk)

    assert len(mailoutbox) == 2


@pytest.mark.parametrize(
    "members",
    [
        pytest.param(lambda b: owner_of(b, user__email=""), id="owner-without-email"),
        pytest.param(lambda b: owner_of(b, user__is_active=False), id="inactive-owner"),
        pytest.param(lambda b: staff_of(b), id="no-owner"),
    ],
)
def test_no_owner_to_write_to_sends_nothing_and_raises_nothing(
    shop, mailoutbox, django_capture_on_commit_callbacks, members
):
    members(shop)
    conversation = escalated(shop, django_capture_on_commit_callbacks)

    alerted = escalation_alert(conversation_id=conversation.pk)

    assert alerted.sent == 0
    assert mailoutbox == []


def test_the_dashboard_counts_only_the_members_own_waiting_conversations(shop, login):
    other = BusinessFactory()
    for n, state in enumerate(["escalated", "escalated", "greeting"]):
        Conversation.objects.create(business=shop, token_hash=f"shop{n}", state=state)
    for n in range(5):
        Conversation.objects.create(business=other, token_hash=f"other{n}", state="escalated")

    for member in (owner_of(shop), staff_of(shop)):
        response = login(member).get(reverse("admin:index"))
        assert response.context["escalations_waiting"] == 2
        assert "2</span>" in response.content.decode()
    elsewhere = login(owner_of(BusinessFactory())).get(reverse("admin:index"))
    assert elsewhere.context["escalations_waiting"] == 0
