"""Dashboard forms for appointments. They book and move through the core's services (the one
door) as the last step of the form's validation, after every field and model check passed, so
a refusal (the time was just taken, outside hours, a price below the service's floor) is shown
on the form — on the field it concerns, naming the rule a time breaks, with real alternatives —
instead of surfacing as an error page. Each form books as the real actor: the admin gives it the
user's role at the appointment's business (``bookings.dashboard_acting``).

An owner's add form carries the walk-in override (``WalkInAppointmentForm``); everyone else's
form has no such field, so a forged one is ignored — and the core refuses an override from
anyone but an owner of the business in any case."""

from collections.abc import Callable

from django import forms
from django.utils import timezone

from bookings.actors import Actor
from bookings.availability import Interval
from bookings.errors import AppointmentNotChangeable, InvalidBooking, SlotUnavailable
from bookings.models import Appointment
from bookings.services.booking import OVERRIDE_REASON_MAX, WalkInOverride
from orchestration.appointment_changes import appointment_create, appointment_reschedule

WALK_IN_LABEL = "Walk-in: book outside the rules"
WALK_IN_HINT = f"As an owner you can book it anyway: tick “{WALK_IN_LABEL}” and say why."


def describe_refusal(exc: SlotUnavailable, tz) -> str:
    """The form's words for a refused time: the rule it breaks, when the core named one, and
    the open times nearby."""
    why = exc.reason.message if exc.reason else "it is taken or outside the booking rules"
    return f"That time cannot be booked: {why}. {describe_alternatives(exc.alternatives, tz)}"


def describe_alternatives(alternatives: list[Interval], tz) -> str:
    if not alternatives:
        return "No other time is open in the following week."
    times = ", ".join(f"{slot.start.astimezone(tz):%a %d %b %H:%M}" for slot in alternatives)
    return f"Open nearby: {times}."


class _BookingForm(forms.ModelForm):
    # business id -> the actor the signed-in user is there; set per request by the admin.
    acting_at: Callable[[int], Actor] | None = None

    def _actor(self, business_id: int) -> Actor:
        if self.acting_at is None:
            raise RuntimeError("The admin sets acting_at before the form books anything.")
        return self.acting_at(business_id)

    def _refuse(self, exc: Exception, *, tz) -> None:
        if isinstance(exc, InvalidBooking):
            for field, message in exc.errors.items():
                self.add_error(field if field in self.fields else None, message)
        elif isinstance(exc, SlotUnavailable):
            self.add_error("starts_at", self._time_refusal(exc, tz))
        else:
            self.add_error(None, str(exc))

    def _time_refusal(self, exc: SlotUnavailable, tz) -> str:
        return describe_refusal(exc, tz)


class AppointmentAddForm(_BookingForm):
    price = forms.DecimalField(
        required=False, max_digits=10, decimal_places=2, help_text="Empty: the list price."
    )

    class Meta:
        model = Appointment
        fields = ["business", "service", "client", "starts_at", "price", "notes"]

    class Media:
        # After the admin's autocomplete (select2), which the client field brings.
        js = ["admin/js/jquery.init.js", "admin/js/autocomplete.js", "dashboard/booking.js"]

    def _post_clean(self) -> None:
        # After every field and model check passed, and only then, book through the service.
        super()._post_clean()  # type: ignore[misc]
        if self.errors:
            return
        data = self.cleaned_data
        service = data["service"]
        if service.business_id != data["business"].pk:
            self.add_error("service", "This service belongs to another business.")
            return
        try:
            outcome = appointment_create(
                service=service,
                start=data["starts_at"],
                client=data["client"],
                price=data.get("price"),
                actor=self._actor(service.business_id),
                override=self._override(),
            )
        except (InvalidBooking, SlotUnavailable) as exc:
            self._refuse(exc, tz=service.business.tzinfo)
            return
        outcome.appointment.notes = data.get("notes", "")
        self.instance = outcome.appointment

    def _override(self) -> WalkInOverride | None:
        return None


class WalkInAppointmentForm(AppointmentAddForm):
    """The add form as an owner has it: a walk-in may be booked outside the calendar's rules
    (hours, notice, horizon, slot grid, busy blocks), with a reason kept in its history; never
    over a full time and never below the price floor."""

    override = forms.BooleanField(
        required=False,
        label=WALK_IN_LABEL,
        help_text=(
            "For a client in front of you: books outside opening hours, the minimum notice, "
            "the booking horizon, the slot grid or a busy block. Never over a full time, never "
            "below the price floor."
        ),
    )
    override_reason = forms.CharField(
        required=False,
        max_length=OVERRIDE_REASON_MAX,
        label="Reason for the walk-in",
        widget=forms.TextInput(attrs={"class": "vTextField"}),  # the admin's wide text box
        help_text="Kept in the appointment's history.",
    )

    def clean(self):
        super().clean()
        data = self.cleaned_data  # the reason arrives stripped: spaces alone are no reason
        if data.get("override") and not data.get("override_reason"):
            self.add_error("override_reason", "Say why this walk-in is booked outside the rules.")
        return data

    def _override(self) -> WalkInOverride | None:
        if not self.cleaned_data.get("override"):
            return None
        return WalkInOverride(reason=self.cleaned_data["override_reason"])

    def _time_refusal(self, exc: SlotUnavailable, tz) -> str:
        words = describe_refusal(exc, tz)
        if exc.walk_in_would_book and not self.cleaned_data.get("override"):
            return f"{words} {WALK_IN_HINT}"
        return words


class AppointmentChangeForm(_BookingForm):
    class Meta:
        model = Appointment
        fields = ["starts_at", "notes"]

    def _post_clean(self) -> None:
        super()._post_clean()  # type: ignore[misc]
        if self.errors or "starts_at" not in self.changed_data:
            return
        try:
            moved = appointment_reschedule(
                appointment=self.instance,
                new_start=self.cleaned_data["starts_at"],
                actor=self._actor(self.instance.business_id),
                now=timezone.now(),
            )
        except (InvalidBooking, SlotUnavailable, AppointmentNotChangeable) as exc:
            self._refuse(exc, tz=self.instance.business.tzinfo)
            return
        moved.notes = self.cleaned_data.get("notes", "")
        self.instance = moved
