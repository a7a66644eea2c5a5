from django.contrib import admin

from bookings.models import Client, Service

from .scoping import BusinessScopedAdmin


@admin.register(Service)
class ServiceAdmin(BusinessScopedAdmin):
    list_display = [
        "name",
        "business",
        "duration_minutes",
        "list_price",
        "price_floor",
        "deposit_amount",
        "is_active",
    ]
    list_filter = ["business", "is_active"]
    search_fields = ["name", "description"]


@admin.register(Client)
class ClientAdmin(BusinessScopedAdmin):
    list_display = ["name", "email", "phone", "business"]
    list_filter = ["business"]
    search_fields = ["name", "email", "phone"]
