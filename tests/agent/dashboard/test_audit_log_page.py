"""The audit log's page speaks to owners in sentences, each linked to its conversation; the
gate and the raw reason are columns for Ordina's operators, and on each entry's own page for
everyone who reads it. An owner never sees another business's entries or conversations, and
the list's queries do not grow with its rows."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from agent.models import AuditEntry, Conversation
from tests.factories import BusinessFactory, ServiceFactory, UserFactory, operator, owner_of

LIST = reverse("admin:agent_auditentry_changelist")
REFUSED_REFUND = {
    "proposal": {"action": "refund", "appointment": "A-1001", "amount": "150.00"},
    "action": "refund",
    "result": "BLOCK",
    "stage": "POLICY",
    "reason": "150.00 EUR is more than the 12.00 EUR still refundable.",
    "money_contained": Decimal("150.00"),
}


def entry_of(business, conversation=None, **fields) -> AuditEntry:
    values = {**REFUSED_REFUND, **fields}
    return AuditEntry.objects.create(
        business=business,
        conversation=str(conversation.public_id) if conversation else None,
        **values,
    )


def conversation_of(business, name="Ana") -> Conversation:
    return Conversation.objects.create(
        business=business, token_hash=f"audit-{business.pk}-{name}", name=name
    )


@pytest.fixture
def shop(db):
    return BusinessFactory(currency="EUR")


def test_an_owner_reads_each_entry_as_a_sentence_linked_to_its_conversation(shop, login):
    conversation = conversation_of(shop, name="Ana <Silva>")
    entry_of(shop, conversation)

    html = login(owner_of(shop)).get(LIST).content.decode()

    assert (
        "The assistant tried to refund €150.00 — refused: only €12.00 is still refundable" in html
    )
    page = reverse("admin:agent_conversation_change", args=[conversation.pk])
    assert f'<a href="{page}">Ana &lt;Silva&gt;</a>' in html


def test_a_hold_names_the_service_by_its_name(shop, login):
    haircut = ServiceFactory(business=shop, name="Haircut")
    entry_of(
        shop,
        proposal={"action": "hold_slot", "service": str(haircut.pk), "start": "2026-12-03T10:00Z"},
        action="hold_slot",
        result="EXECUTE",
        stage="",
        reason="approved",
        money_contained=Decimal("0"),
    )

    html = login(owner_of(shop)).get(LIST).content.decode()

    assert "The assistant held Thu 3 Dec 10:00 for Haircut" in html  # Lisbon: UTC in winter


def test_the_gate_and_raw_reason_are_columns_for_operators_not_for_owners(shop, login):
    entry_of(shop, conversation_of(shop))

    owner = login(owner_of(shop)).get(LIST)
    ops = login(operator()).get(LIST)

    assert "column-stage" not in owner.content.decode()
    assert "POLICY" not in owner.content.decode().split('id="result_list"')[1]
    assert {"action", "result", "stage", "reason"} <= set(ops.context["cl"].list_display)
    assert "column-stage" in ops.content.decode()
    # An operator reads no chat: the entry links to no conversation page for them.
    assert "/agent/conversation/" not in ops.content.decode().split('id="result_list"')[1]


def test_each_entry_s_page_keeps_the_gate_and_the_reason_for_everyone(shop, login):
    entry = entry_of(shop, conversation_of(shop))

    html = (
        login(owner_of(shop))
        .get(reverse("admin:agent_auditentry_change", args=[entry.pk]))
        .content.decode()
    )

    assert "only €12.00 is still refundable" in html
    assert "POLICY" in html or "Policy" in html
    assert "150.00 EUR is more than the 12.00 EUR still refundable." in html


def test_an_owner_sees_no_entry_and_no_conversation_of_another_business(shop, login):
    other = BusinessFactory()
    theirs = conversation_of(other, name="Not yours")
    entry_of(other, theirs)
    # An entry of this shop naming the other business's conversation never links to it.
    entry_of(shop, theirs)
    superuser_sees = login(UserFactory(is_superuser=True)).get(LIST).context["cl"].result_count

    response = login(owner_of(shop)).get(LIST)

    assert superuser_sees == 2
    assert [entry.business_id for entry in response.context["cl"].result_list] == [shop.pk]
    assert "Not yours" not in response.content.decode()
    theirs_page = reverse("admin:agent_conversation_change", args=[theirs.pk])
    assert theirs_page not in response.content.decode()
    entry = AuditEntry.objects.filter(business=other).get()
    detail = login(owner_of(shop)).get(reverse("admin:agent_auditentry_change", args=[entry.pk]))
    assert detail.status_code == 404


def queries_of_the_list(http) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = http.get(LIST)
    assert response.status_code == 200
    return len(captured)


def test_the_list_s_queries_do_not_grow_with_its_rows(shop, login):
    haircut = ServiceFactory(business=shop, name="Haircut")
    http = login(owner_of(shop))

    def add(count: int) -> None:
        """Entries of both kinds: a refused refund with its conversation, a service chosen."""
        for _ in range(count):
            entry_of(shop, conversation_of(shop, name=f"Client {AuditEntry.objects.count()}"))
            entry_of(
                shop,
                proposal={"action": "choose_service", "service": str(haircut.pk)},
                action="choose_service",
                result="EXECUTE",
                stage="",
                reason="approved",
                money_contained=Decimal("0"),
            )

    add(3)
    with_few = queries_of_the_list(http)
    add(12)
    with_many = queries_of_the_list(http)

    assert AuditEntry.objects.count() >= 30
    assert with_many == with_few
