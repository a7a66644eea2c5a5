"""`make demo`'s conversations, run as the command: each scene ends as the README says."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bookings.models import Appointment, AppointmentStatus


@pytest.mark.django_db
def test_the_demo_needs_its_salon_first():
    with pytest.raises(CommandError, match="seed_demo"):
        call_command("demo_chat")


@pytest.mark.django_db
def test_the_demo_books_contains_loses_honestly_and_blocks_the_refund():
    call_command("seed_demo", stdout=io.StringIO())
    out = io.StringIO()

    call_command("demo_chat", stdout=out)

    printed = out.getvalue()
    ana = Appointment.objects.get(client__email="ana.silva@example.com")
    assert ana.status == AppointmentStatus.CONFIRMED  # the deposit was paid through Checkout
    assert not Appointment.objects.filter(client__email="bruno@example.com").exists()
    assert not Appointment.objects.filter(client__email="carla@example.com").exists()
    told = " ".join(printed.split())  # the demo wraps its lines
    assert "was released when the hold ran out, and it has been taken since" in told
    assert "assistant: 150.00 EUR is more than the 12.00 EUR still refundable" in told
    assert "money moved      0.00 EUR" in printed
    # The refund refused (150.00) and the haggled haircut's discount refused (55.00 − 30.00).
    assert "money contained  160.00 EUR" in printed
    # Scene 6: Clínica Sol, in Spanish — its own afternoon after lunch, a false claim rewritten.
    lucia = Appointment.objects.get(client__email="lucia.garcia@example.com")
    assert lucia.status == AppointmentStatus.CONFIRMED
    assert lucia.conversation.language == "es"
    assert lucia.starts_at.astimezone(lucia.business.tzinfo).hour == 15
    assert "¿Qué servicio desea reservar?" in told
    assert "booking claimed without a record — removed 'Su cita está confirmada.'" in told
