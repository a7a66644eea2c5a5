from functools import partial

from django.contrib import admin, messages
from django.db.models import F
from django.utils import timezone

from bookings.access import Action
from bookings.dashboard_acting import dashboard_actor, offers_walk_ins
from bookings.errors import AppointmentNotChangeable
from bookings.models import Appointment, AppointmentEvent, AppointmentStatus
from bookings.scoped_admin import BusinessScopedAdmin, BusinessScopedInline
from bookings.services import appointment_notes_change
from orchestration.appointment_changes import appointment_cancel, appointment_record_outcome
from reminders.models import Reminder

from .appointment_forms import AppointmentAddForm, AppointmentChangeForm, WalkInAppointmentForm
from .calendar import calendar_urls, payment_word, upcoming_first


class AppointmentEventInline(BusinessScopedInline, admin.TabularInline):
    model = AppointmentEvent
    extra = 0
    readonly_fields = ("occurred_at", "kind", "acted_by", "data")
    fields = readonly_fields
    can_delete = False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("actor_user")

    @admin.display(description="by")
    def acted_by(self, event: AppointmentEvent) -> str:
        return event.actor_display


class ReminderInline(BusinessScopedInline, admin.TabularInline):
    model = Reminder
    extra = 0
    readonly_fields = ("kind", "due_at", "status", "attempts", "sent_at", "last_error")
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class NegotiatedFilter(admin.SimpleListFilter):
    """Appointments agreed below the list price of their service at booking. Reads only the
    rows' own columns, so it needs no tenant scoping of its own."""

    title = "negotiated"
    parameter_name = "negotiated"

    def lookups(self, request, model_admin):
        return [
            ("yes", "Below the list price"),
            ("no", "At the list price"),
            ("unrecorded", "List price not recorded"),
        ]

    def queryset(self, request, queryset):
        match self.value():
            case "yes":
                return queryset.filter(list_price__gt=F("price"))
            case "no":
                return queryset.filter(list_price__lte=F("price"))
            case "unrecorded":
                return queryset.filter(list_price__isnull=True)
        return queryset


@admin.register(Appointment)
class AppointmentAdmin(BusinessScopedAdmin):
    """Appointments are booked, moved and cancelled through the core's services, never saved
    directly: the same lock and rules as the widget's bookings."""

    list_display = [
        "starts_at",
        "service",
        "client",
        "status",
        "deposit",
        "list_price",
        "price",
        "discount",
        "business",
    ]
    list_filter = ["status", NegotiatedFilter, "business", "service"]
    search_fields = ["client__name", "client__email", "client__phone", "public_id"]
    date_hierarchy = "starts_at"
    list_select_related = ["service", "client", "business", "payment"]
    inlines = [ReminderInline, AppointmentEventInline]
    actions = ["cancel_selected", "mark_attended", "mark_no_show"]
    change_readonly = (
        "public_id",
        "business",
        "service",
        "client",
        "status",
        "price",
        "list_price",
        "discount",
        "ends_at",
        "idempotency_key",
        "created_at",
        "updated_at",
    )

    def get_urls(self):
        # Before the default URLs, whose "<object_id>/" would otherwise take "calendar/".
        return [*calendar_urls(self), *super().get_urls()]

    def get_ordering(self, request):
        # What is to come first, then the past; a column the user sorts by replaces it.
        return upcoming_first(timezone.now())

    @admin.display(description="deposit")
    def deposit(self, appointment: Appointment) -> str:
        return payment_word(appointment)

    # The client is searched (name, email, phone) among those the user may book for, not
    # listed: ClientAdmin.get_search_results.
    autocomplete_fields = ["client"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is not None:
            kwargs["form"] = AppointmentChangeForm
        else:  # only an owner's add form has the walk-in override
            kwargs["form"] = (
                WalkInAppointmentForm if offers_walk_ins(request) else AppointmentAddForm
            )
        form = super().get_form(request, obj, change, **kwargs)
        # The user's role at the business the form books at (chosen in the add form).
        form.acting_at = staticmethod(partial(dashboard_actor, request))  # type: ignore[attr-defined]
        return form

    def get_readonly_fields(self, request, obj=None):
        return self.change_readonly if obj is not None else ()

    def get_fields(self, request, obj=None):
        if obj is None:
            walk_in = ["override", "override_reason"] if offers_walk_ins(request) else []
            return [*AppointmentAddForm.Meta.fields, *walk_in]
        return [
            *self.change_readonly[:5],
            "starts_at",
            "ends_at",
            "list_price",
            "price",
            "discount",
            "notes",
        ]

    @admin.display(description="discount")
    def discount(self, appointment: Appointment) -> str:
        """What the client was let off the list price at booking ("—" where none was given, or
        the list price was not recorded)."""
        if not appointment.discount:
            return "—"
        return f"{appointment.discount} {appointment.business.currency}"

    def save_model(self, request, obj, form, change) -> None:
        # The booking or the move was made by the service in the form's validation; only the
        # free-text note is saved here, through its door, so its history records who wrote it.
        appointment_notes_change(
            appointment=obj, notes=obj.notes, actor=dashboard_actor(request, obj.business_id)
        )

    @admin.action(description="Mark the selected appointments attended")
    def mark_attended(self, request, queryset) -> None:
        self._record_outcome(request, queryset, AppointmentStatus.ATTENDED)

    @admin.action(description="Mark the selected appointments no-show (sends the follow-up)")
    def mark_no_show(self, request, queryset) -> None:
        self._record_outcome(request, queryset, AppointmentStatus.NO_SHOW)

    def _record_outcome(self, request, queryset, outcome: str) -> None:
        done = 0
        for appointment in self.scope(request, queryset, Action.CHANGE):
            try:
                appointment_record_outcome(
                    appointment=appointment,
                    outcome=outcome,
                    actor=dashboard_actor(request, appointment.business_id),
                )
                done += 1
            except AppointmentNotChangeable as exc:
                self.message_user(request, f"{appointment}: {exc.message}", messages.WARNING)
        if done:
            self.message_user(request, f"Recorded {done} appointment(s).")

    @admin.action(description="Cancel the selected appointments")
    def cancel_selected(self, request, queryset) -> None:
        cancelled, refused = 0, []
        for appointment in self.scope(request, queryset, Action.CHANGE):
            try:
                appointment_cancel(
                    appointment=appointment,
                    actor=dashboard_actor(request, appointment.business_id),
                )
                cancelled += 1
            except AppointmentNotChangeable as exc:
                refused.append(f"{appointment}: {exc.message}")
        if cancelled:
            self.message_user(request, f"Cancelled {cancelled} appointment(s).")
        for line in refused:
            self.message_user(request, line, level=messages.WARNING)


@admin.register(AppointmentEvent)
class AppointmentEventAdmin(BusinessScopedAdmin):
    """History, browsable by owners (their business) and operators (every business), never
    edited."""

    list_display = ["occurred_at", "kind", "acted_by", "appointment", "business"]
    list_filter = ["kind", "actor_kind", "business"]
    search_fields = ["actor_user__username", "appointment__public_id"]
    date_hierarchy = "occurred_at"
    list_select_related = [
        "appointment__service",
        "appointment__client",
        "appointment__business",
        "business",
        "actor_user",
    ]

    @admin.display(description="by", ordering="actor_kind")
    def acted_by(self, event: AppointmentEvent) -> str:
        return event.actor_display
