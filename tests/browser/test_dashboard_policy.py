"""The owner's dashboard (Django admin) works under the project's strict Content-Security-Policy:
signing in and opening the pages with styles of their own (the business form, a service's
negotiation terms, the audit list's containment table, an escalated conversation's hand-back
button, a knowledge source's text) raises no policy violation. Chromium reports each violation
as a console error, which fails the test (tests/browser/conftest.py)."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Page, expect

from agent.models import Conversation
from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from tests.factories import PASSWORD, BusinessFactory, ServiceFactory, owner_of


def sign_in(page: Page, site: str, user) -> None:
    page.goto(f"{site}{reverse('admin:login')}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your business")).to_be_visible()


def test_the_dashboard_pages_raise_no_policy_violation(page, site):
    business = BusinessFactory(accent_colour="#1d6b3c", embed_origins="https://shop.example")
    conversation = Conversation.objects.create(
        business=business, token_hash="c" * 64, state="escalated"
    )
    source = KnowledgeSource.objects.create(
        business=business,
        kind=SourceKind.TEXT,
        title="Prices",
        body="Haircut 60 euros",
        text="Haircut 60 euros",
        status=SourceStatus.READY,
    )
    sign_in(page, site, owner_of(business))

    page.goto(f"{site}{reverse('admin:bookings_business_change', args=[business.pk])}")
    expect(page.get_by_label("Accent colour")).to_have_value("#1d6b3c")

    # The negotiation terms: rules chosen from a list of radio buttons, each explained
    service = ServiceFactory(business=business)
    page.goto(f"{site}{reverse('admin:bookings_service_change', args=[service.pk])}")
    expect(page.get_by_label("Meet halfway")).to_be_visible()

    page.goto(f"{site}{reverse('admin:agent_auditentry_changelist')}")
    expect(page.locator("#containment")).to_be_visible()

    page.goto(f"{site}{reverse('admin:agent_conversation_change', args=[conversation.pk])}")
    hand_back = page.get_by_role("button", name="Hand back to the assistant")
    expect(hand_back).to_be_visible()
    # The form around it keeps to the line of links (display: inline from the dashboard's sheet)
    assert page.locator("form.inline-form").evaluate("form => getComputedStyle(form).display") == (
        "inline"
    )

    page.goto(f"{site}{reverse('admin:knowledge_knowledgesource_change', args=[source.pk])}")
    text_read = page.locator(".text-read")
    expect(text_read).to_have_text("Haircut 60 euros")
    assert text_read.evaluate("block => getComputedStyle(block).whiteSpace") == "pre-wrap"
