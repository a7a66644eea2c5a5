from django.contrib import admin

from bookings.models import Client, ConcessionRule, Service, TermsSource
from bookings.selectors import negotiation_terms

from .negotiation import NEGOTIATION_FIELDS, PRICE_AND_TERMS_HELP, RADIO_FIELDS
from .scoping import BusinessScopedAdmin


@admin.register(Service)
class ServiceAdmin(BusinessScopedAdmin):
    list_display = [
        "name",
        "business",
        "duration_minutes",
        "list_price",
        "price_floor",
        "negotiation",
        "deposit_amount",
        "is_active",
    ]
    list_filter = ["business", "is_active", "negotiation_terms"]
    list_select_related = ["business"]
    search_fields = ["name", "description"]
    radio_fields = RADIO_FIELDS | {"negotiation_terms": admin.VERTICAL}
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "business",
                    "name",
                    "description",
                    "duration_minutes",
                    "buffer_before_minutes",
                    "buffer_after_minutes",
                    "deposit_amount",
                    "is_active",
                ]
            },
        ),
        (
            "Price and negotiation",
            {
                "description": PRICE_AND_TERMS_HELP,
                "fields": ["list_price", "price_floor", "negotiation_terms", *NEGOTIATION_FIELDS],
            },
        ),
    ]

    @admin.display(description="negotiation")
    def negotiation(self, service: Service) -> str:
        """The rule offers for this service are answered by, and whose it is."""
        terms = negotiation_terms(service)
        if terms is None:
            return "Off"
        whose = "own" if service.negotiation_terms == TermsSource.OWN else "business's"
        return f"{ConcessionRule(terms.rule).label} ({whose} terms)"


@admin.register(Client)
class ClientAdmin(BusinessScopedAdmin):
    list_display = ["name", "email", "phone", "business"]
    list_filter = ["business"]
    search_fields = ["name", "email", "phone"]
