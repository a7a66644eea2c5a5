"""Dashboard forms for appointments. They book and move through the core's services (the one
door) as the last step of the form's validation, after every field and model check passed, so
a refusal (the time was just taken, outside hours, a price below the service's floor) is shown
on the form — on the field it concerns, with real alternatives for a time — instead of
surfacing as an error page. Each form books as the real actor: the admin gives it the user's
role at the appointment's business (``bookings.admin.acting``)."""

from collections.abc import Callable

from django import forms
from django.utils import timezone

from bookings.actors import Actor
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
                actor=self._actor(service.business_id),
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
                actor=self._actor(self.instance.business_id),
                now=timezone.now(),
            )
        except (InvalidBooking, SlotUnavailable, AppointmentNotChangeable) as exc:
            self._refuse(exc, tz=self.instance.business.tzinfo)
            return
        moved.notes = self.cleaned_data.get("notes", "")
        self.instance = moved
