"""Replay a batch of model proposals through the gates against the current database.

One proposal per line: a JSON object is a structured proposal, a JSON string is free text the
model wrote instead of a command. The whole file is read and checked before the first proposal
is judged, so a bad line executes nothing.
"""

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agent.containment import ContainmentSummary, Outcome, containment_summary
from agent.services import proposal_run
from bookings.models import Business

BAD_INPUT = 2


def read_proposals(path: Path) -> list[Any]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read {path}: {error}", returncode=BAD_INPUT) from None
    proposals = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            # Amounts stay exact: 5000.00 is read as Decimal("5000.00"), never a float.
            proposal = json.loads(line, parse_float=Decimal)
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{path}:{number}: not JSON ({error})", returncode=BAD_INPUT
            ) from None
        if not isinstance(proposal, dict | str):
            raise CommandError(
                f"{path}:{number}: a proposal is a JSON object or a JSON string",
                returncode=BAD_INPUT,
            )
        proposals.append(proposal)
    if not proposals:
        raise CommandError(f"{path} holds no proposals", returncode=BAD_INPUT)
    return proposals


def table(outcomes: list[Outcome]) -> list[str]:
    lines = [f"{'#':<3}{'action':<20}{'result':<12}{'stage':<12}reason", "-" * 96]
    for number, outcome in enumerate(outcomes):
        lines.append(
            f"{number:<3}{outcome.action:<20}{outcome.result:<12}"
            f"{outcome.stage or '-':<12}{outcome.reason}"
        )
    return lines


def summary_lines(summary: ContainmentSummary) -> list[str]:
    stages = summary.blocked_by_stage
    return [
        f"LLM proposals : {summary.proposals}",
        f"Executed : {summary.executed}",
        f"Blocked (contained) : {summary.blocked}",
        f" by STRUCTURE : {stages['STRUCTURE']} by CAPABILITY : {stages['CAPABILITY']} "
        f"by POLICY : {stages['POLICY']}",
        f"Containment rate : {summary.containment_rate}%",
        f"Money moved (approved) : {summary.money_moved}",
        f"Money contained : {summary.money_contained} "
        "(refunds the LLM proposed that didn't go out)",
    ]


class Command(BaseCommand):
    help = "Run model proposals (one JSON per line) through the gates; execute what passes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--business", required=True, help="the business's slug")
        parser.add_argument(
            "--dry-run", action="store_true", help="judge only: execute and record nothing"
        )
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        business = Business.objects.filter(slug=options["business"]).first()
        if business is None:
            raise CommandError(f"no business {options['business']!r}", returncode=BAD_INPUT)
        proposals = read_proposals(options["file"])
        outcomes = [
            proposal_run(business=business, raw=raw, execute=not options["dry_run"])
            for raw in proposals
        ]
        summary = containment_summary(outcomes)
        if options["json"]:
            self.stdout.write(json.dumps(summary.as_json()))
            return
        self.stdout.write("\n".join([*table(outcomes), "", *summary_lines(summary)]))
