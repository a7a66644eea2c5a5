from django.contrib import admin

from bookings.models import Appointment, AppointmentEvent

from .scoping import BusinessScopedAdmin, BusinessScopedInline


class AppointmentEventInline(BusinessScopedInline, admin.TabularInline):
    model = AppointmentEvent
    extra = 0
    readonly_fields = ("occurred_at", "kind", "actor", "data")
    fields = readonly_fields
    can_delete = False


@admin.register(Appointment)
class AppointmentAdmin(BusinessScopedAdmin):
    list_display = ["starts_at", "service", "client", "status", "price", "business"]
    list_filter = ["status", "business", "service"]
    search_fields = ["client__name", "client__email", "client__phone", "public_id"]
    date_hierarchy = "starts_at"
    readonly_fields = ["public_id", "idempotency_key", "created_at", "updated_at"]
    list_select_related = ["service", "client", "business"]
    inlines = [AppointmentEventInline]


@admin.register(AppointmentEvent)
class AppointmentEventAdmin(BusinessScopedAdmin):
    """History, browsable by owners (their business) and operators (every business), never
    edited."""

    list_display = ["occurred_at", "kind", "actor", "appointment", "business"]
    list_filter = ["kind", "business"]
    search_fields = ["actor", "appointment__public_id"]
    date_hierarchy = "occurred_at"
    list_select_related = [
        "appointment__service",
        "appointment__client",
        "appointment__business",
        "business",
    ]
