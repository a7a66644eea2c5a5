"""Template tags of an appointment's dashboard page: the calendar day it sits on and the outcome
buttons it offers (decided in ``dashboard.admin.calendar``, shared with the calendar)."""

from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils import timezone

from bookings.models import Appointment
from dashboard.admin.calendar import outcomes_to_offer

register = template.Library()


@register.simple_tag
def outcomes_offered(appointment: Appointment) -> list[tuple[str, str]]:
    return outcomes_to_offer(appointment.status, appointment.starts_at, timezone.now())


@register.simple_tag
def calendar_url(appointment: Appointment) -> str:
    """The calendar on the appointment's day, in its business's zone."""
    day = timezone.localdate(appointment.starts_at, appointment.business.tzinfo)
    query = urlencode({"business": appointment.business_id, "date": day.isoformat()})
    return f"{reverse('admin:bookings_appointment_calendar')}?{query}"
