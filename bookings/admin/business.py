from django.contrib import admin

from bookings.models import Business, DateOverride, Membership, OpeningHours

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


@admin.register(Business)
class BusinessAdmin(BusinessScopedAdmin):
    list_display = ["name", "slug", "time_zone", "currency", "capacity", "deposit_rule"]
    search_fields = ["name", "slug"]
    inlines = [OpeningHoursInline, DateOverrideInline]
    fieldsets = [
        (None, {"fields": ["name", "slug", "time_zone", "country", "currency", "language"]}),
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
    ]

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
