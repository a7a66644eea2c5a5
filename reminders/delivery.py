"""Turning a reminder row into a message and sending it through Django's email framework.
Times are written in the business's zone, words in the client's language (``client_language``:
the conversation's when the appointment was booked in one, else the business's); links are the
core's management-token links. A client without an email address fails honestly: nothing is
counted as sent."""

import smtplib

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import timezone, translation

from bookings.tokens import manage_url
from reminders.language import client_language
from reminders.models import Reminder


class DeliveryFailed(Exception):
    def __init__(self, message: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.retryable = retryable


def render(reminder: Reminder) -> tuple[str, str]:
    """Subject and body of a reminder, in the client's language and the business's zone."""
    appointment = reminder.appointment
    business = reminder.business
    with translation.override(client_language(appointment)), timezone.override(business.tzinfo):
        context = {
            "business": business,
            "client": appointment.client,
            "service": appointment.service,
            "starts_at": timezone.localtime(appointment.starts_at),
            "ends_at": timezone.localtime(appointment.ends_at),
            "manage_url": manage_url(appointment.public_id),
            "rebook_url": settings.REBOOK_URL_TEMPLATE.format(slug=business.slug),
        }
        text = render_to_string(f"reminders/{reminder.kind}.txt", context)
    subject, _, body = text.strip().partition("\n")
    return subject.strip(), body.strip() + "\n"


def deliver(reminder: Reminder) -> None:
    email = reminder.appointment.client.email
    if not email:
        raise DeliveryFailed("The client has no email address.", retryable=False)
    subject, body = render(reminder)
    message = EmailMessage(subject=subject, body=body, to=[email])
    try:
        message.send()
    except (smtplib.SMTPException, OSError) as problem:
        raise DeliveryFailed(f"The mail server refused it: {problem}", retryable=True) from problem
