from django.core.management.base import BaseCommand

from orchestration.deposit_settlement import webhook_reprocess
from payments.models import WebhookEvent, WebhookOutcome


class Command(BaseCommand):
    help = "Process stored Stripe events again: the failed ones, or those named."

    def add_arguments(self, parser) -> None:
        parser.add_argument("event_ids", nargs="*", help="Stripe event ids (default: all failed)")

    def handle(self, *args, event_ids: list[str], **options) -> None:
        events = WebhookEvent.objects.order_by("received_at")
        events = (
            events.filter(stripe_event_id__in=event_ids)
            if event_ids
            else events.filter(outcome=WebhookOutcome.FAILED)
        )
        still_failing = 0
        for event in events:
            after = webhook_reprocess(event)
            still_failing += after.outcome == WebhookOutcome.FAILED
            detail = f": {after.error}" if after.error else ""
            self.stdout.write(f"{after.stripe_event_id} {after.type}: {after.outcome}{detail}")
        if still_failing:
            self.stderr.write(f"{still_failing} event(s) still failing.")
            raise SystemExit(1)
