"""The dashboard's site: Django's admin, whose home says whose dashboard it is. Owners and staff
land on "Your business"; Ordina's operators, who belong to no business and read only the audit
data of all of them (``bookings.access``), land on that audit."""

from django.apps import apps
from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse

OPERATOR_TITLE = "Across businesses"

# What an operator's home leads with, in this order: each page the access table lets them read,
# and what it holds.
OPERATOR_PAGES: tuple[tuple[str, str], ...] = (
    (
        "agent.auditentry",
        "every proposal the assistant made, in every business, and what the gates decided; "
        "the containment figures on top",
    ),
    ("agent.guardrewrite", "every reply a guard rewrote before a client read it"),
    ("bookings.appointmentevent", "the history of every appointment: who changed what, when"),
    ("payments.webhookevent", "every delivery from Stripe, and what became of it"),
)


class DashboardSite(admin.AdminSite):
    site_header = "Ordina dashboard"
    site_title = "Ordina"
    index_title = "Your business"
    site_url = None  # no public site to "view" yet

    def each_context(self, request: HttpRequest) -> dict:
        """Every dashboard page shows how many of the member's conversations wait for a person
        (the header's badge, templates/admin/base_site.html)."""
        context = super().each_context(request)
        context["escalations_waiting"] = _escalations_waiting(request)
        return context

    def index(self, request: HttpRequest, extra_context=None) -> TemplateResponse:
        if not _is_operator(request):
            return super().index(request, extra_context)
        context = {
            "title": OPERATOR_TITLE,
            "audit_pages": self._audit_pages(),
            **(extra_context or {}),
        }
        response = super().index(request, context)
        response.template_name = "admin/operator_index.html"
        return response

    def _audit_pages(self) -> list[dict[str, str]]:
        pages = []
        for label, holds in OPERATOR_PAGES:
            model = apps.get_model(label)
            if not self.is_registered(model):
                continue
            meta = model._meta
            url = reverse(
                f"{self.name}:{meta.app_label}_{meta.model_name}_changelist", current_app=self.name
            )
            pages.append(
                {"name": str(meta.verbose_name_plural).capitalize(), "url": url, "holds": holds}
            )
        return pages


def _escalations_waiting(request: HttpRequest) -> int:
    """Escalated conversations of the businesses whose conversations this member may read;
    none for an operator (they answer no client) or anyone signed out."""
    from agent.escalation_alerts import escalations_waiting
    from bookings.access import Action
    from bookings.admin.scoping import tenant_access

    if not request.user.is_authenticated or not request.user.is_active:
        return 0
    businesses = tenant_access(request).businesses("agent.conversation", Action.VIEW)
    return escalations_waiting(business_ids=businesses)


def _is_operator(request: HttpRequest) -> bool:
    # Imported here: importing bookings.admin registers its pages on this very site, which is
    # being built while this module is first imported.
    from bookings.admin.scoping import tenant_access

    return not request.user.is_superuser and tenant_access(request).is_operator
