"""As an owner, in Chromium: an escalated conversation's alert arrives by email (sent by the
real task path: the turn's commit queues the Celery task, which runs eagerly in the live
server's process and sends through Django's mail outbox), the owner reads the conversation as a
chat, replies as staff — the reply is in the transcript and in the database — and hands it
back. The conversation page and the audit list pass axe (no serious or critical violation),
light and dark."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from agent.conversation.turns import conversation_start, turn_take
from agent.llm.base import Proposed
from agent.llm.scripted import ScriptedModel
from agent.models import Conversation, Message, MessageRole
from agent.services import grants_set
from ordina.celery import app as celery_app
from tests.browser.conftest import violations_text
from tests.factories import PASSWORD, BusinessFactory, owner_of

ESCALATE = {"action": "escalate_to_human", "reason": "the client asks about an allergy"}
CLIENT_SAYS = "Is the <b>dye</b> safe with my allergy?"
REPLY = "Yes: we use a dye without PPD. Rita"


@pytest.fixture
def tasks_run_at_once() -> Iterator[None]:
    """Celery tasks run where they are queued (no worker in this test): the alert goes the
    same way as in production — on commit, through ``alert_escalation.delay`` — and its mail
    lands in this process's outbox."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def sign_in(page: Page, site: str, user) -> None:
    page.goto(f"{site}{reverse('admin:login')}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your business")).to_be_visible()


def serious(found: list[dict]) -> list[dict]:
    return [v for v in found if v["impact"] in ("serious", "critical")]


def test_an_owner_is_alerted_reads_replies_and_hands_back(
    site, open_page, axe_violations, mailoutbox, tasks_run_at_once
):
    business = BusinessFactory(name="Studio Lumen")
    grants_set(business=business)
    owner = owner_of(business, user__email="rita@example.com", user__first_name="Rita")
    conversation, token, _greeting = conversation_start(business=business)
    turn_take(token=token, text=CLIENT_SAYS, model=ScriptedModel([Proposed((ESCALATE,))]))
    conversation.refresh_from_db()
    assert conversation.state == "escalated"

    # The alert: one email to the owner, naming why and linking to the conversation's page.
    (alert,) = mailoutbox
    assert alert.to == ["rita@example.com"]
    conversation_url = f"{site}{reverse('admin:agent_conversation_change', args=[conversation.pk])}"
    assert conversation_url in alert.body
    assert "allergy" in alert.body

    page = open_page(scheme="dark")
    sign_in(page, site, owner)
    expect(page.locator("#escalations-waiting .count")).to_have_text("1")
    page.goto(conversation_url)
    expect(page.locator("#conversation-stage")).to_have_text(
        "With your team: the client asks about an allergy"
    )
    client_line = page.locator(".chat-client .chat-text")
    expect(client_line).to_have_text(CLIENT_SAYS)  # the markup as text, not bold
    assert page.locator(".chat-client b").count() == 0
    assert serious(found := axe_violations(page)) == [], violations_text(found)

    page.get_by_label("Reply as staff").fill(REPLY)
    page.get_by_role("button", name="Send reply").click()
    expect(page.locator(".chat-staff .chat-text")).to_have_text(REPLY)
    expect(page.locator(".chat-staff .chat-who")).to_contain_text("Rita")
    staff = Message.objects.get(conversation=conversation, role=MessageRole.STAFF)
    assert (staff.text, staff.author_id) == (REPLY, owner.pk)

    page.get_by_role("button", name="Hand back to the assistant").click()
    expect(page.get_by_text("The assistant answers again")).to_be_visible()
    expect(page.get_by_role("button", name="Hand back to the assistant")).to_have_count(0)
    assert Conversation.objects.get(pk=conversation.pk).state != "escalated"

    page.goto(f"{site}{reverse('admin:agent_auditentry_changelist')}")
    expect(page.get_by_text("The assistant handed the conversation to your team")).to_be_visible()
    assert serious(found := axe_violations(page)) == [], violations_text(found)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_conversation_and_the_audit_pass_axe_in_the_light_too(
    site, open_page, axe_violations, viewport
):
    business = BusinessFactory()
    grants_set(business=business)
    owner = owner_of(business)
    conversation, token, _greeting = conversation_start(business=business)
    turn_take(token=token, text=CLIENT_SAYS, model=ScriptedModel([Proposed((ESCALATE,))]))

    page = open_page(viewport=viewport, scheme="light")
    sign_in(page, site, owner)
    page.goto(f"{site}{reverse('admin:agent_conversation_change', args=[conversation.pk])}")
    expect(page.get_by_label("Reply as staff")).to_be_visible()
    assert serious(found := axe_violations(page)) == [], violations_text(found)
    page.goto(f"{site}{reverse('admin:agent_auditentry_changelist')}")
    assert serious(found := axe_violations(page)) == [], violations_text(found)
