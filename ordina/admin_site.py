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

    def get_urls(self):
        from django.urls import path

        from analytics.views import analytics_page

        analytics = self.admin_view(lambda request: analytics_page(request, site=self))
        return [path("analytics/", analytics, name="analytics"), *super().get_urls()]

    def get_app_list(self, request: HttpRequest, app_label=None) -> list[dict]:
        """The registered pages, and the booking funnel (a page, not a model) for whoever may
        read it: on the home page and in the side navigation."""
        from analytics.views import may_read_analytics

        app_list = super().get_app_list(request, app_label)
        if app_label is None and may_read_analytics(request):
            url = reverse(f"{self.name}:analytics", current_app=self.name)
            page = {"name": "Booking funnel", "object_name": "Funnel", "admin_url": url}
            app_list.append(
                {"name": "Analytics", "app_label": "analytics", "app_url": url, "models": [page]}
            )
        return app_list

    def index(self, request: HttpRequest, extra_context=None) -> TemplateResponse:
        if not _is_operator(request):
            context = {"hours_pages": _hours_pages(request), **(extra_context or {})}
            return super().index(request, context)
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
    from bookings.scoped_admin import tenant_access

    if not request.user.is_authenticated or not request.user.is_active:
        return 0
    businesses = tenant_access(request).businesses("agent.conversation", Action.VIEW)
    return escalations_waiting(business_ids=businesses)


def _hours_pages(request: HttpRequest) -> list[dict[str, str]]:
    """The weekly-hours page of each business whose hours the member may read, for the home
    page (a superuser, who belongs to no business, reaches them through the businesses list)."""
    from bookings.access import Action
    from bookings.models import Business
    from bookings.scoped_admin import tenant_access

    if request.user.is_superuser:
        return []
    allowed = tenant_access(request).businesses("bookings.openinghours", Action.VIEW)
    businesses = Business.objects.filter(pk__in=allowed).order_by("name", "pk")
    return [
        {"name": business.name, "url": reverse("admin:bookings_business_hours", args=[business.pk])}
        for business in businesses.only("pk", "name")
    ]


def _is_operator(request: HttpRequest) -> bool:
    # Imported here: importing dashboard.admin registers its pages on this very site, which is
    # being built while this module is first imported.
    from bookings.scoped_admin import tenant_access

    return not request.user.is_superuser and tenant_access(request).is_operator
