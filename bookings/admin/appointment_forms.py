"""Dashboard forms for appointments. They book and move through the core's services (the one
door) as the last step of the form's validation, after every field and model check passed, so
a refusal (the time was just taken, outside hours) is shown on the form with real alternatives
instead of surfacing as an error page."""

from django import forms
from django.utils import timezone

from bookings.availability import Interval
from bookings.errors import AppointmentNotChangeable, InvalidBooking, SlotUnavailable
from bookings.models import Appointment
from bookings.services import appointment_create, appointment_reschedule


def describe_alternatives(alternatives: list[Interval], tz) -> str:
    if not alternatives:
        return "No other time is open in the following week."
    times = ", ".join(f"{slot.start.astimezone(tz):%a %d %b %H:%M}" for slot in alternatives)
    return f"Open nearby: {times}."


class _BookingForm(forms.ModelForm):
    actor = "owner"  # set per request by the admin

    def _refuse(self, exc: Exception, *, tz) -> None:
        if isinstance(exc, InvalidBooking):
            for field, message in exc.errors.items():
                self.add_error(field if field in self.fields else None, message)
        elif isinstance(exc, SlotUnavailable):
            self.add_error(
                "starts_at",
                f"That time cannot be booked: it is taken or outside the booking rules. "
                f"{describe_alternatives(exc.alternatives, tz)}",
            )
        else:
            self.add_error(None, str(exc))


class AppointmentAddForm(_BookingForm):
    price = forms.DecimalField(
        required=False, max_digits=10, decimal_places=2, help_text="Empty: the list price."
    )

    class Meta:
        model = Appointment
        fields = ["business", "service", "client", "starts_at", "price", "notes"]

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
                actor=self.actor,
            )
        except (InvalidBooking, SlotUnavailable) as exc:
            self._refuse(exc, tz=service.business.tzinfo)
            return
        outcome.appointment.notes = data.get("notes", "")
        self.instance = outcome.appointment


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
                actor=self.actor,
                now=timezone.now(),
            )
        except (InvalidBooking, SlotUnavailable, AppointmentNotChangeable) as exc:
            self._refuse(exc, tz=self.instance.business.tzinfo)
            return
        moved.notes = self.cleaned_data.get("notes", "")
        self.instance = moved
