"""The module's capstone, reproduced on Ordina: build its world in an empty database, then
replay its twelve proposals through the gates and print the table and summary.

Refunds go through ``payments.services.refund_issue`` and the real Stripe SDK, pointed at the
local fake Stripe the payments tests use, started here in-process: nothing leaves the machine.
"""

import logging
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import override_settings

from agent.capstone.world import PROPOSALS, SLUG, capstone_world
from bookings.models import Business


class Command(BaseCommand):
    help = "Seed the capstone's world into an empty database and replay its proposals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        # A development tool, imported only when the capstone runs.
        from devtools.fake_stripe import SECRET_KEY, start_fake_stripe

        if Business.objects.filter(slug=SLUG).exists():
            raise CommandError(
                f"business {SLUG!r} already exists; the capstone needs a fresh database",
                returncode=2,
            )
        # The SDK logs every request at INFO; the capstone's output is its table.
        logging.getLogger("stripe").setLevel(logging.WARNING)
        fake, server = start_fake_stripe(checks_expiry=False)  # its orders were paid days ago
        try:
            with override_settings(STRIPE_API_BASE=fake.base_url, STRIPE_SECRET_KEY=SECRET_KEY):
                capstone_world(pay=fake.pay)
                call_command(
                    "replay_proposals",
                    str(PROPOSALS),
                    business=SLUG,
                    json=options["json"],
                    stdout=self.stdout,
                )
        finally:
            server.shutdown()
            server.server_close()
