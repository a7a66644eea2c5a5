from django.contrib import admin
from django.contrib.admin.widgets import AdminTextareaWidget, AdminTextInputWidget
from django.db.models import Count, Q

from bookings.models import AppointmentStatus, Business, DateOverride, Membership, OpeningHours
from reminders.models import ReminderSetting

from .negotiation import BUSINESS_TERMS_HELP, NEGOTIATION_FIELDS, RADIO_FIELDS
from .schedule_formsets import DateOverrideFormSet, OpeningHoursFormSet
from .scoping import BusinessScopedAdmin, BusinessScopedInline


class OpeningHoursInline(BusinessScopedInline, admin.TabularInline):
    model = OpeningHours
    formset = OpeningHoursFormSet
    extra = 0


class DateOverrideInline(BusinessScopedInline, admin.TabularInline):
    model = DateOverride
    formset = DateOverrideFormSet
    extra = 0


class ReminderSettingInline(BusinessScopedInline, admin.TabularInline):
    model = ReminderSetting
    extra = 0
    verbose_name_plural = "reminder settings (kinds not listed follow the defaults)"


@admin.register(Business)
class BusinessAdmin(BusinessScopedAdmin):
    list_display = [
        "name",
        "slug",
        "time_zone",
        "currency",
        "capacity",
        "deposit_rule",
        "no_show_rate",
    ]
    search_fields = ["name", "slug"]
    inlines = [OpeningHoursInline, DateOverrideInline, ReminderSettingInline]
    radio_fields = RADIO_FIELDS

    def get_queryset(self, request):
        outcome = Q(
            appointments__status__in=[AppointmentStatus.ATTENDED, AppointmentStatus.NO_SHOW]
        )
        return (
            super()
            .get_queryset(request)
            .annotate(
                visits_with_outcome=Count("appointments", filter=outcome),
                no_shows=Count(
                    "appointments", filter=Q(appointments__status=AppointmentStatus.NO_SHOW)
                ),
            )
        )

    @admin.display(description="no-show rate")
    def no_show_rate(self, business) -> str:
        total = getattr(business, "visits_with_outcome", 0)
        if not total:
            return "—"
        return f"{business.no_shows / total:.0%} of {total}"

    fieldsets = [
        (
            None,
            {
                "fields": [
                    "name",
                    "slug",
                    "time_zone",
                    "country",
                    "currency",
                    "language",
                    "website",
                ]
            },
        ),
        (
            "Booking rules",
            {
                "fields": [
                    "capacity",
                    "min_notice_minutes",
                    "booking_horizon_days",
                    "slot_interval_minutes",
                    "hold_minutes",
                ]
            },
        ),
        ("Deposits", {"fields": ["deposit_rule", "deposit_amount", "deposit_percent"]}),
        ("Refunds", {"fields": ["refund_window_days", "max_refund"]}),
        (
            "Price negotiation (default terms)",
            {"description": BUSINESS_TERMS_HELP, "fields": NEGOTIATION_FIELDS},
        ),
        ("Booking page and embed", {"fields": ["accent_colour", "embed_origins"]}),
    ]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        # Both are typed, not picked: a colour input cannot be left empty (empty means
        # Ordina's accent), and origins are addresses, one per line.
        if db_field.name == "accent_colour":
            kwargs["widget"] = AdminTextInputWidget(
                attrs={"placeholder": "#2563eb", "size": 9, "spellcheck": "false"}
            )
        elif db_field.name == "embed_origins":
            kwargs["widget"] = AdminTextareaWidget(
                attrs={
                    "rows": 3,
                    "cols": 50,
                    "placeholder": "https://www.example.com",
                    "spellcheck": "false",
                    "autocapitalize": "none",
                }
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        # The slug is in public URLs; only Ordina changes it once a business exists.
        if obj is not None and not request.user.is_superuser:
            return ["slug"]
        return []


@admin.register(Membership)
class MembershipAdmin(BusinessScopedAdmin):
    list_display = ["user", "business", "role"]
    list_filter = ["role", "business"]
    search_fields = ["user__username", "user__email"]
    raw_id_fields = ["user"]
