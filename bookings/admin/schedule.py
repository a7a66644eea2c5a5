from django.contrib import admin

from bookings.models import BusyBlock, CalendarFeed, DateOverride, OpeningHours, SlotHold

from .scoping import BusinessScopedAdmin


@admin.register(OpeningHours)
class OpeningHoursAdmin(BusinessScopedAdmin):
    list_display = ["business", "weekday", "opens_at", "closes_at"]
    list_filter = ["business", "weekday"]


@admin.register(DateOverride)
class DateOverrideAdmin(BusinessScopedAdmin):
    list_display = ["business", "date", "opens_at", "closes_at", "note"]
    list_filter = ["business"]
    date_hierarchy = "date"
    search_fields = ["note"]


@admin.register(BusyBlock)
class BusyBlockAdmin(BusinessScopedAdmin):
    list_display = ["business", "summary", "starts_at", "ends_at", "source_uid"]
    list_filter = ["business"]
    date_hierarchy = "starts_at"
    search_fields = ["summary", "source_uid"]


@admin.register(CalendarFeed)
class CalendarFeedAdmin(BusinessScopedAdmin):
    """The connected calendar: its events become busy blocks at each sync."""

    list_display = ["business", "url", "last_synced_at", "last_error"]
    list_filter = ["business"]
    readonly_fields = ["last_synced_at", "last_error", "last_error_at"]


@admin.register(SlotHold)
class SlotHoldAdmin(BusinessScopedAdmin):
    """Slots held by conversations right now; read-only, they expire on their own."""

    list_display = ["business", "service", "starts_at", "expires_at"]
    list_filter = ["business", "service"]
    date_hierarchy = "starts_at"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
