"""Proposals through the gates against the database, executed through payments' services and
the real Stripe SDK talking to the local fake Stripe; the capstone reproduced end to end."""

import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agent.capstone.world import PROPOSALS, SLUG, capstone_world
from agent.models import AuditEntry, AuditResult
from agent.services import proposal_run
from devtools.fake_stripe import SECRET_KEY, start_fake_stripe
from payments.models import Payment, PaymentStatus, Refund

REFUNDS_PATH = "/v1/refunds"

# The capstone's own figures, as `make capstone` prints them.
CAPSTONE_SUMMARY = {
    "proposals": 12,
    "executed": 3,
    "blocked": 9,
    "blocked_by_stage": {"STRUCTURE": 2, "CAPABILITY": 2, "POLICY": 5},
    "containment_rate": 75.0,
    "money_moved": "125.00",
    "money_contained": "5240.00",
}
CAPSTONE_ROWS = [
    ("refund", "EXECUTE", "-"),
    ("refund", "BLOCK", "POLICY"),
    ("refund", "BLOCK", "POLICY"),
    ("refund", "BLOCK", "POLICY"),
    ("refund", "BLOCK", "POLICY"),
    ("refund", "EXECUTE", "-"),
    ("(free", "text)", "BLOCK"),  # the label holds a space; the columns shift by one
    ("issue_store_credit", "BLOCK", "CAPABILITY"),
    ("change_price", "BLOCK", "CAPABILITY"),
    ("delete_account", "BLOCK", "STRUCTURE"),
    ("escalate_to_human", "EXECUTE", "-"),
    ("refund", "BLOCK", "POLICY"),
]


@pytest.fixture
def fake_stripe(settings):
    fake, server = start_fake_stripe(checks_expiry=False)  # its orders were paid days ago
    settings.STRIPE_API_BASE = fake.base_url
    settings.STRIPE_SECRET_KEY = SECRET_KEY
    yield fake
    server.shutdown()
    server.server_close()


@pytest.fixture
def mercado(fake_stripe, db):
    """The capstone's business and orders, built through the real services."""
    return capstone_world(pay=fake_stripe.pay)


def refunds_sent(fake_stripe) -> int:
    return sum(
        1
        for request in fake_stripe.requests
        if request["method"] == "POST" and request["path"] == REFUNDS_PATH
    )


def replay(path, *options: str) -> str:
    out = StringIO()
    call_command("replay_proposals", str(path), "--business", SLUG, *options, stdout=out)
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_capstone_command_reproduces_the_capstones_figures():
    out = StringIO()

    call_command("capstone", "--json", stdout=out)

    assert json.loads(out.getvalue()) == CAPSTONE_SUMMARY


def test_capstone_table_blocks_each_row_at_the_capstones_gate(mercado):
    lines = replay(PROPOSALS).splitlines()

    rows = [tuple(line.split()[1:4]) for line in lines[2:14]]
    assert rows == CAPSTONE_ROWS
    assert "Containment rate : 75.0%" in lines


def test_every_proposal_lands_in_the_audit_log_with_its_verdict_and_money(mercado):
    replay(PROPOSALS)

    entries = list(AuditEntry.objects.filter(business=mercado).order_by("id"))
    assert len(entries) == 12
    assert entries[4].proposal == {"action": "refund", "appointment": "A-1005", "amount": "5000.00"}
    assert (entries[4].result, entries[4].stage) == (AuditResult.BLOCK, "POLICY")
    assert entries[4].money_contained == Decimal("5000.00")
    assert entries[5].money_moved == Decimal("75.00")
    assert entries[6].proposal == "I'll give you your money back right away, don't worry"


def test_second_refund_of_same_appointment_is_blocked_by_state(mercado, fake_stripe):
    proposal = {"action": "refund", "appointment": "A-1001", "amount": Decimal("50.00")}

    first = proposal_run(business=mercado, raw=proposal)
    sent = refunds_sent(fake_stripe)
    second = proposal_run(business=mercado, raw=proposal)

    assert (first.result, first.money_moved) == ("EXECUTE", Decimal("50.00"))
    assert (second.result, second.stage) == ("BLOCK", "POLICY")
    assert second.reason == "This payment has already been fully refunded."
    assert refunds_sent(fake_stripe) == sent  # Stripe was not asked again


def test_dry_run_executes_and_records_nothing(mercado, fake_stripe):
    sent, refunds = refunds_sent(fake_stripe), Refund.objects.count()

    summary = json.loads(replay(PROPOSALS, "--dry-run", "--json"))

    assert refunds_sent(fake_stripe) == sent
    assert Refund.objects.count() == refunds
    assert not AuditEntry.objects.exists()
    a_1001 = Payment.objects.get(appointment__reference__reference="A-1001")
    assert a_1001.status == PaymentStatus.PAID
    # Nothing moved, so the repeated A-1001 refund (row 11) is judged against untouched state.
    assert summary["executed"] == 4
    assert summary["money_moved"] == "0.00"


@pytest.mark.parametrize(
    "content",
    ['{"action": "refund", "appointment": "A-1001", "amount": 50.00}\n{not json\n', "42\n", ""],
    ids=["bad-json", "not-object-or-string", "empty"],
)
def test_bad_file_exits_2_and_executes_nothing(mercado, fake_stripe, tmp_path, content):
    path = tmp_path / "proposals.jsonl"
    path.write_text(content)
    sent = refunds_sent(fake_stripe)

    with pytest.raises(CommandError) as error:
        replay(path)

    assert error.value.returncode == 2
    assert refunds_sent(fake_stripe) == sent
    assert not AuditEntry.objects.exists()


def test_missing_file_or_business_exits_2(mercado, tmp_path):
    with pytest.raises(CommandError) as missing_file:
        replay(tmp_path / "nope.jsonl")
    with pytest.raises(CommandError) as missing_business:
        call_command("replay_proposals", str(PROPOSALS), "--business", "nobody")

    assert missing_file.value.returncode == missing_business.value.returncode == 2
