"""The audit log is append-only for the model and for any other writer; grants never include
the platform commands a booking agent must not have; operators read the log of every business."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, InternalError, connection, transaction
from django.urls import reverse

from agent.actions import DEFAULT_GRANTS, NEVER_GRANTED
from agent.models import AgentGrant, AuditEntry, AuditResult, AuditStage
from agent.services import granted_actions, grants_set
from tests.factories import BusinessFactory, operator

pytestmark = pytest.mark.django_db


def blocked_entry(business=None) -> AuditEntry:
    return AuditEntry.objects.create(
        business=business or BusinessFactory(),
        proposal={"action": "issue_store_credit", "amount": "200.00"},
        action="issue_store_credit",
        result=AuditResult.BLOCK,
        stage=AuditStage.CAPABILITY,
        reason="issue_store_credit is not in the agent's capabilities",
    )


def test_audit_entry_refuses_update_and_delete_through_the_model():
    entry = blocked_entry()
    entry.reason = "rewritten"

    with pytest.raises(ValidationError):
        entry.save()
    with pytest.raises(ValidationError):
        entry.delete()


@pytest.mark.parametrize("statement", ["UPDATE {} SET reason = 'rewritten'", "DELETE FROM {}"])
def test_audit_log_trigger_refuses_any_other_writer(statement):
    entry = blocked_entry()

    with (
        pytest.raises((IntegrityError, InternalError)),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement.format(AuditEntry._meta.db_table))

    assert AuditEntry.objects.get(pk=entry.pk).reason == entry.reason


def test_queryset_bulk_writes_are_refused_by_the_trigger():
    blocked_entry()

    with pytest.raises((IntegrityError, InternalError)), transaction.atomic():
        AuditEntry.objects.all().delete()


@pytest.mark.parametrize("action", sorted(NEVER_GRANTED))
def test_database_refuses_granting_a_dangerous_platform_command(action):
    with pytest.raises(IntegrityError), transaction.atomic():
        AgentGrant.objects.create(business=BusinessFactory(), action=action)


def test_default_grants_are_the_booking_flow_without_money_or_dangerous_commands():
    business = BusinessFactory()

    grants_set(business=business)

    assert granted_actions(business=business) == DEFAULT_GRANTS
    assert not DEFAULT_GRANTS & (NEVER_GRANTED | {"refund"})


def test_operator_reads_every_business_audit_log_and_cannot_change_it(login):
    first, second = blocked_entry(), blocked_entry()
    http = login(operator())

    listed = http.get(reverse("admin:agent_auditentry_changelist"))
    change = http.post(
        reverse("admin:agent_auditentry_change", args=[first.pk]), {"reason": "edited"}
    )

    assert listed.status_code == 200
    assert {first.pk, second.pk} <= {entry.pk for entry in listed.context["cl"].result_list}
    assert change.status_code == 403
    assert AuditEntry.objects.get(pk=first.pk).money_moved == Decimal("0")


def test_the_audit_log_page_sums_up_containment_of_the_rows_it_shows(db, login):
    from django.contrib.auth import get_user_model

    from agent.models import AuditEntry
    from tests.factories import BusinessFactory

    business = BusinessFactory()
    for result, stage, moved, contained in [
        ("EXECUTE", "", "125.00", "0"),
        ("BLOCK", "POLICY", "0", "5000.00"),
        ("BLOCK", "STRUCTURE", "0", "0"),
    ]:
        AuditEntry.objects.create(
            business=business,
            proposal={},
            action="refund",
            result=result,
            stage=stage,
            reason="r",
            money_moved=moved,
            money_contained=contained,
        )
    operator = get_user_model().objects.create_superuser("op", "op@example.com", "pw-Secret-1")
    from django.test import Client

    http = Client()
    http.force_login(operator)
    page = http.get("/admin/agent/auditentry/")
    assert page.status_code == 200
    summary = page.context["containment"]
    assert (summary.proposals, summary.executed, summary.blocked) == (3, 1, 2)
    assert str(summary.containment_rate) == "66.7"
    assert str(summary.money_contained) == "5000.00"
    assert b'id="containment"' in page.content
    filtered = http.get("/admin/agent/auditentry/?result__exact=BLOCK")
    assert filtered.context["containment"].proposals == 2
