from django.core.management.base import BaseCommand, CommandError, CommandParser

from bookings.calendar_sync import calendar_sync
from bookings.models import CalendarFeed


class Command(BaseCommand):
    help = (
        "Read every connected calendar (or one business's) into busy blocks, one line per "
        "feed. Exits with status 1 if any feed could not be synced."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--business", metavar="SLUG", help="Sync only this business's feed.")

    def handle(self, *args, business: str | None, **options) -> None:
        feeds = CalendarFeed.objects.select_related("business").order_by("business__slug")
        if business is not None:
            feeds = feeds.filter(business__slug=business)
            if not feeds.exists():
                raise CommandError(f"No connected calendar for a business with slug {business!r}.")
        failed = 0
        for feed in feeds:
            result = calendar_sync(feed)
            slug = feed.business.slug
            if result.error is None:
                self.stdout.write(self.style.SUCCESS(f"{slug}: ok, {result.created} busy blocks"))
            else:
                failed += 1
                self.stdout.write(self.style.ERROR(f"{slug}: failed: {result.error}"))
        if failed:
            raise CommandError(f"{failed} of {len(feeds)} calendars could not be synced.")
