import datetime as dt

from django.conf import settings
from django.core.management.base import BaseCommand
from django.urls import reverse
from django.utils import timezone

from bookings.demo import CLINIC_OWNER_USERNAME, EMBED_EXAMPLE_ORIGIN, seed_demo, seed_demo_clinic
from bookings.selectors import open_slots_for

WEEK = dt.timedelta(days=7)


class Command(BaseCommand):
    help = "Create (or reset) the demo salon and its owner login, and say how to open it."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--password",
            help=(
                "The owner's password (default: a new random one each run; `make demo` "
                "passes the demo's fixed one)."
            ),
        )

    def handle(self, *args, password: str | None, **options) -> None:
        setup = seed_demo(today=timezone.localdate(), owner_password=password)
        clinic = seed_demo_clinic(owner_password=setup.owner_password)
        business = setup.business
        out = self.stdout.write
        out(self.style.SUCCESS(f"Demo business ready: {business.name} ({business.slug})"))
        out(
            f"  time zone {business.time_zone}, currency {business.currency}, "
            f"capacity {business.capacity} at a time"
        )
        out(
            f"  booking rules: {business.min_notice_minutes} min notice, "
            f"{business.booking_horizon_days}-day horizon, {business.slot_interval_minutes}-min "
            f"slots, holds last {business.hold_minutes} min"
        )
        out(
            f"  deposit: {business.deposit_percent}% of the price unless a service says otherwise; "
            f"refunds up to {business.max_refund} {business.currency} within "
            f"{business.refund_window_days} days"
        )
        out("  weekly hours:")
        for hours in business.opening_hours.all():
            out(f"    {hours}")
        out(
            f"  closed {setup.closed_on:%a %d %b %Y}; "
            f"special hours {setup.special_hours_on:%a %d %b %Y} 09:00-13:00"
        )
        out("  services (list price / floor / deposit):")
        for service in business.services.order_by("name"):
            deposit = "business rule" if service.deposit_amount is None else service.deposit_amount
            out(
                f"    {service.name:<11} {service.duration_minutes:>3} min  "
                f"{service.list_price} / {service.price_floor} / {deposit}"
            )
        haircut = business.services.select_related("business").get(name="Haircut")
        now = timezone.now()
        today = timezone.localdate(now, business.tzinfo)
        slots = open_slots_for(haircut, first_day=today, last_day=today + WEEK, now=now)
        out("  next open Haircut slots (computed by the core):")
        for slot in slots[:5]:
            out(f"    {slot.start.astimezone(business.tzinfo):%a %d %b %H:%M}")
        out("")
        out("Open the owner's dashboard:")
        out("  make run        (starts the server at http://127.0.0.1:8000/)")
        out("  then visit      http://127.0.0.1:8000/admin/")
        out(f"  and sign in as  {setup.owner_username} / {setup.owner_password}")
        out("")
        out("Book as a client:")
        booking_page = reverse("booking-page", kwargs={"slug": business.slug})
        out(f"  the booking page    {settings.PUBLIC_URL}{booking_page}")
        # The example page exists only while DEBUG is on (pages.embed.views.embed_example).
        if settings.DEBUG:
            example = f"{EMBED_EXAMPLE_ORIGIN}{reverse('embed-example')}"
            out(f"  embedded on a site  {example}  (the widget from another origin)")
        out("")
        out(f"And a business whose assistant speaks Spanish: {clinic.name} ({clinic.slug}),")
        out(f"  {clinic.time_zone}, open 09:00-13:00 and 15:00-19:00 on weekdays")
        clinic_page = reverse("booking-page", kwargs={"slug": clinic.slug})
        out(f"  its booking page    {settings.PUBLIC_URL}{clinic_page}")
        out(f"  its owner signs in  {CLINIC_OWNER_USERNAME} / {setup.owner_password}")
