from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AdminTextareaWidget, AdminTextInputWidget
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from bookings.access import Action
from bookings.models import AppointmentStatus, Business, DateOverride, Membership, OpeningHours
from bookings.scoped_admin import BusinessScopedAdmin, BusinessScopedInline, TenantScopedPermissions
from reminders.models import ReminderSetting

from .hours_grid import (
    WeekHoursForm,
    describe_week,
    opening_hours_replace,
    ranges_per_day,
    saved_week,
)
from .negotiation import BUSINESS_TERMS_HELP, NEGOTIATION_FIELDS, RADIO_FIELDS
from .schedule_formsets import DateOverrideFormSet


class OpeningHoursAccess(TenantScopedPermissions):
    """Who may read or set a business's week: the access table's rows for opening hours."""

    model = OpeningHours

    def may_view(self, request: HttpRequest, business: Business) -> bool:
        return self.tenant_allows(request, Action.VIEW, business.pk)

    def may_replace(self, request: HttpRequest, business: Business) -> bool:
        # Saving the week adds, changes and removes rows: all three are needed.
        return all(
            self.tenant_allows(request, action, business.pk)
            for action in (Action.ADD, Action.CHANGE, Action.DELETE)
        )


OPENING_HOURS_ACCESS = OpeningHoursAccess()


class DateOverrideInline(BusinessScopedInline, admin.TabularInline):
    model = DateOverride
    formset = DateOverrideFormSet
    extra = 0


class ReminderSettingInline(BusinessScopedInline, admin.TabularInline):
    model = ReminderSetting
    extra = 0
    verbose_name_plural = "reminder settings (kinds not listed follow the defaults)"


@admin.register(Business)
class BusinessAdmin(BusinessScopedAdmin):
    list_display = [
        "name",
        "slug",
        "time_zone",
        "currency",
        "capacity",
        "deposit_rule",
        "no_show_rate",
        "opening_hours",
    ]
    search_fields = ["name", "slug"]
    inlines = [DateOverrideInline, ReminderSettingInline]

    radio_fields = RADIO_FIELDS

    def get_queryset(self, request):
        outcome = Q(
            appointments__status__in=[AppointmentStatus.ATTENDED, AppointmentStatus.NO_SHOW]
        )
        return (
            super()
            .get_queryset(request)
            .annotate(
                visits_with_outcome=Count("appointments", filter=outcome),
                no_shows=Count(
                    "appointments", filter=Q(appointments__status=AppointmentStatus.NO_SHOW)
                ),
            )
        )

    @admin.display(description="opening hours")
    def opening_hours(self, business: Business) -> str:
        url = reverse("admin:bookings_business_hours", args=[business.pk])
        return format_html('<a href="{}">Edit the week</a>', url)

    @admin.display(description="no-show rate")
    def no_show_rate(self, business) -> str:
        total = getattr(business, "visits_with_outcome", 0)
        if not total:
            return "—"
        return f"{business.no_shows / total:.0%} of {total}"

    fieldsets = [
        (
            None,
            {
                "fields": [
                    "name",
                    "slug",
                    "time_zone",
                    "country",
                    "currency",
                    "language",
                    "website",
                ]
            },
        ),
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
        (
            "Price negotiation (default terms)",
            {"description": BUSINESS_TERMS_HELP, "fields": NEGOTIATION_FIELDS},
        ),
        ("Opening hours", {"fields": ["weekly_hours"]}),
        ("Booking page and embed", {"fields": ["accent_colour", "embed_origins"]}),
    ]

    @admin.display(description="every week")
    def weekly_hours(self, business: Business) -> str:
        """The week at a glance, and the way to the page where it is set."""
        if business.pk is None:
            return "Set once the business is saved."
        days = format_html_join(
            "", "<li>{}</li>", ((line,) for line in describe_week(saved_week(business)))
        )
        url = reverse("admin:bookings_business_hours", args=[business.pk])
        return format_html(
            '<ul class="weekly-hours">{}</ul><p><a href="{}">Edit the week</a></p>', days, url
        )

    def get_urls(self):
        hours = path(
            "<path:object_id>/hours/",
            self.admin_site.admin_view(self.hours_view),
            name="bookings_business_hours",
        )
        return [hours, *super().get_urls()]

    def hours_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The week's opening hours on one screen, saved at once. Another business's page is
        a 404 (the scoped queryset); a member who may only read the hours sees them, unsaved."""
        business = self.get_object(request, unquote(object_id))
        if not OPENING_HOURS_ACCESS.may_view(request, business):
            raise PermissionDenied
        editable = OPENING_HOURS_ACCESS.may_replace(request, business)
        saved = saved_week(business)
        if request.method == "POST":
            if not editable:
                raise PermissionDenied
            form = WeekHoursForm(request.POST, ranges=ranges_per_day(saved, request.POST))
            if form.is_valid() and self._replace_week(request, business, form):
                return redirect(request.path)
        else:
            form = WeekHoursForm(
                initial=WeekHoursForm.initial_for(saved), ranges=ranges_per_day(saved)
            )
        context = {
            **self.admin_site.each_context(request),
            "title": "Opening hours",
            "subtitle": str(business),
            "opts": self.model._meta,
            "original": business,
            "form": form,
            "days": form.grid(),
            "editable": editable,
            "time_zone": business.time_zone,
        }
        return TemplateResponse(request, "admin/bookings/business/hours.html", context)

    def _replace_week(self, request: HttpRequest, business: Business, form: WeekHoursForm) -> bool:
        """Save the form's week with its line in the business's history, in one transaction;
        False (the form holding why) when the database refuses a range."""
        try:
            with transaction.atomic():
                changed = opening_hours_replace(business=business, week=form.week)
                if changed:
                    said = "; ".join(describe_week(form.week))
                    self.log_change(request, business, f"Set the opening hours: {said}.")
        except ValidationError as refused:
            form.add_error(None, refused)
            return False
        if changed:
            self.message_user(request, "The opening hours are saved.")
        else:
            self.message_user(request, "Those were already the opening hours; nothing changed.")
        return True

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        # The colour and the origins are typed, not picked: a colour input cannot be left
        # empty (empty means Ordina's accent), and origins are addresses, one per line.
        if db_field.name == "accent_colour":
            kwargs["widget"] = AdminTextInputWidget(
                attrs={"placeholder": "#2563eb", "size": 9, "spellcheck": "false"}
            )
        elif db_field.name == "language":
            # Picked from the languages the product speaks, not a code to mistype.
            kwargs["widget"] = forms.Select(choices=settings.LANGUAGES)
        elif db_field.name == "embed_origins":
            kwargs["widget"] = AdminTextareaWidget(
                attrs={
                    "rows": 3,
                    "cols": 50,
                    "placeholder": "https://www.example.com",
                    "spellcheck": "false",
                    "autocapitalize": "none",
                }
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        # The slug is in public URLs; only Ordina changes it once a business exists.
        if obj is not None and not request.user.is_superuser:
            return ["slug", "weekly_hours"]
        return ["weekly_hours"]


@admin.register(Membership)
class MembershipAdmin(BusinessScopedAdmin):
    list_display = ["user", "business", "role"]
    list_filter = ["role", "business"]
    search_fields = ["user__username", "user__email"]
    raw_id_fields = ["user"]
