from django import forms
from django.contrib import admin
from django.core.exceptions import NON_FIELD_ERRORS

from bookings.models import Business, Client, ConcessionRule, DepositRule, Service, TermsSource
from bookings.scoped_admin import BusinessScopedAdmin
from bookings.selectors import negotiation_terms

from .client_search import (
    clients_to_book,
    countries_of,
    is_appointment_client_search,
    looks_like_phone,
    phone_search,
)
from .negotiation import NEGOTIATION_FIELDS, PRICE_HELP, RADIO_FIELDS, TERMS_HELP

# What each box of the service form means for the owner, said where it is filled in.
SERVICE_HELP_TEXTS = {
    "is_active": "Off: clients can no longer book it; appointments already made stay.",
    "duration_minutes": "How long a visit takes, 5 to 720 minutes: the time a client books.",
    "buffer_before_minutes": "Kept free before each visit (preparation), up to 240 minutes.",
    "buffer_after_minutes": "Kept free after each visit (clean-up), up to 240 minutes.",
    "list_price": (
        "What a client is quoted and pays unless a lower price is agreed. No booking is ever "
        "above it."
    ),
    "price_floor": (
        "The lowest price this service is ever booked at: the assistant never agrees to a "
        "price below it, and every booking below it is refused, whether it comes from the "
        "assistant, the booking page or this dashboard. It is never told to a client as a "
        "floor; a client hears that amount only as an asking price, once a negotiation has come "
        "down to it. Equal to the list price: no discount is possible."
    ),
    "deposit_amount": (
        "Empty: the business's deposit rule applies. An amount: this service's deposit "
        "instead, whatever the business's rule; 0 means no deposit. Never more than the list "
        "price."
    ),
}

TIME_HELP = (
    "A booking holds its duration and both buffers: no other booking may overlap any of it. "
    "Clients see only the duration."
)

DEPOSIT_HELP = (
    "A deposit is paid by card through Stripe when the client books: the booking waits for it "
    "with its time held, and is released if it is not paid in time. It is never more than the "
    "price agreed. Left empty here, the business's deposit rule (set on the business) decides: "
    "no deposit, a fixed amount, or a percentage of the price agreed."
)

# The model's constraints say what is wrong with one box each; the form shows it on that box
# instead of above the form.
CONSTRAINT_FIELDS = {
    "A service lasts between 5 and 720 minutes.": ("duration_minutes",),
    "A buffer may be at most 240 minutes.": ("buffer_before_minutes", "buffer_after_minutes"),
    "The deposit must be between 0 and the list price.": ("deposit_amount",),
    "This business already has a service with that name.": ("name",),
}


class ServiceForm(forms.ModelForm):
    class Meta:
        # The model and its fields come from the admin's fieldsets (modelform_factory).
        help_texts = SERVICE_HELP_TEXTS

    def validate_constraints(self) -> None:
        super().validate_constraints()
        general = self.errors.pop(NON_FIELD_ERRORS, None)
        if general is None:
            return
        for message in general:
            for field in self._at_fault(CONSTRAINT_FIELDS.get(str(message), ())) or (None,):
                self.add_error(field, message)

    def _at_fault(self, fields: tuple[str, ...]) -> tuple[str, ...]:
        """Of a rule's boxes, the ones on the form; of the buffers, the one that is too long."""
        on_form = tuple(name for name in fields if name in self.fields)
        if len(on_form) < 2:
            return on_form
        too_long = tuple(name for name in on_form if (self.cleaned_data.get(name) or 0) > 240)
        return too_long or on_form


def deposit_rule_now(business: Business) -> str:
    """The business's deposit rule, as the service form says it."""
    if business.deposit_rule == DepositRule.FIXED and business.deposit_amount is not None:
        return f"a fixed {business.deposit_amount} {business.currency}"
    if business.deposit_rule == DepositRule.PERCENT and business.deposit_percent is not None:
        return f"{business.deposit_percent}% of the price agreed"
    return "no deposit"


@admin.register(Service)
class ServiceAdmin(BusinessScopedAdmin):
    form = ServiceForm
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
        ("What it is", {"fields": ["business", "name", "description", "is_active"]}),
        (
            "Time",
            {
                "description": TIME_HELP,
                "fields": ["duration_minutes", "buffer_before_minutes", "buffer_after_minutes"],
            },
        ),
        ("Price", {"description": PRICE_HELP, "fields": ["list_price", "price_floor"]}),
        (
            "Negotiation",
            {"description": TERMS_HELP, "fields": ["negotiation_terms", *NEGOTIATION_FIELDS]},
        ),
        ("Deposit", {"description": DEPOSIT_HELP, "fields": ["deposit_amount"]}),
    ]

    def get_fieldsets(self, request, obj=None):
        # On a saved service, the deposit section also says what its business's rule is now.
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        said = f"{DEPOSIT_HELP} {obj.business}'s rule now: {deposit_rule_now(obj.business)}."
        return [
            (name, {**options, "description": said} if name == "Deposit" else options)
            for name, options in fieldsets
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
    # Also the appointment form's client search (its autocomplete), see get_search_results.
    search_fields = ["name", "email", "phone"]

    def get_search_results(self, request, queryset, search_term):
        if is_appointment_client_search(request):
            queryset = clients_to_book(request, queryset)
        found, may_duplicate = super().get_search_results(request, queryset, search_term)
        if looks_like_phone(search_term):
            found |= queryset.filter(phone_search(search_term, countries_of(queryset)))
        return found, may_duplicate
