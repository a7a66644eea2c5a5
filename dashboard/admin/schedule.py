from django.contrib import admin, messages

from bookings.access import Action
from bookings.calendar_sync import calendar_sync
from bookings.models import BusyBlock, CalendarFeed, DateOverride, OpeningHours, SlotHold
from bookings.scoped_admin import BusinessScopedAdmin


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
    """Busy time: entered by hand, or synced from the connected calendar. Synced blocks are
    read-only here, since the next sync replaces them; change them in the calendar itself."""

    list_display = ["business", "summary", "starts_at", "ends_at", "is_synced"]
    list_filter = ["business"]
    date_hierarchy = "starts_at"
    search_fields = ["summary", "source_uid"]

    @admin.display(boolean=True, description="from calendar")
    def is_synced(self, block: BusyBlock) -> bool:
        return block.feed_id is not None

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is not None and obj.feed_id is not None:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        if obj is not None and obj.feed_id is not None:
            return False
        return super().has_delete_permission(request, obj)


@admin.register(CalendarFeed)
class CalendarFeedAdmin(BusinessScopedAdmin):
    """The connected calendar: its events become busy blocks at each sync."""

    list_display = ["business", "url", "last_synced_at", "last_error"]
    list_filter = ["business"]
    readonly_fields = ["last_synced_at", "last_error", "last_error_at"]
    actions = ["sync_now"]

    @admin.action(description="Sync the selected calendars now")
    def sync_now(self, request, queryset) -> None:
        for feed in self.scope(request, queryset, Action.CHANGE).select_related("business"):
            result = calendar_sync(feed)
            if result.error:
                self.message_user(request, f"{feed.business}: {result.error}", messages.WARNING)
            else:
                self.message_user(request, f"{feed.business}: {result.created} busy blocks.")


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
