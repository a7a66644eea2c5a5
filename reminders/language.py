"""The language a client is written to in about their appointment: the language of the
conversation it was booked in, when it was booked in one (the business's when the chat began,
the client's own once they wrote in another the product speaks); otherwise the business's.

Read through the conversation's one-to-one link back to the appointment, so nothing here
imports the assistant's app: an appointment booked by the owner, by the API or through a
conversation since deleted has no conversation, and is written in the business's language.
"""

from django.core.exceptions import ObjectDoesNotExist

from bookings.models import Appointment


def client_language(appointment: Appointment) -> str:
    try:
        language = appointment.conversation.language
    except ObjectDoesNotExist:  # booked without a conversation
        language = ""
    return language or appointment.business.language
