from django.core.management.base import BaseCommand

from orchestration.deposit_settlement import reconcile_pending, release_unpaid_expired


class Command(BaseCommand):
    help = (
        "Ask Stripe about payments still pending a few minutes after their Checkout opened, and "
        "release appointments whose deposit hold ran out (the scheduled jobs, run by hand)."
    )

    def handle(self, *args, **options) -> None:
        result = reconcile_pending()
        released = release_unpaid_expired()
        self.stdout.write(
            f"checked {result.checked}, paid {result.paid}, expired {result.expired}, "
            f"released {released}"
        )
        for error in result.errors:
            self.stderr.write(error)
        if result.errors:
            raise SystemExit(1)
