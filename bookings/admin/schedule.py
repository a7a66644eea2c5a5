from django.contrib import admin

from bookings.models import BusyBlock, DateOverride, OpeningHours

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
