"""A booking awaiting its deposit has no reminders; once the deposit is known to be paid —
by Stripe's webhook, or by asking Stripe when the webhook never came — it is confirmed and its
reminders are planned in the same transaction, whichever entry point learnt it."""

import datetime as dt

import time_machine
from django.core.management import call_command

from bookings.models import Appointment, AppointmentStatus
from payments.models import Payment
from reminders.models import Reminder, ReminderKind, ReminderStatus
from tests.bookings.conftest import NOW
from tests.payments.test_webhooks import deliver_event, session_object

SIX_MINUTES_LATER = NOW + dt.timedelta(minutes=6)


def pending_reminders(payment: Payment) -> set[str]:
    return set(
        Reminder.objects.filter(
            appointment_id=payment.appointment_id, status=ReminderStatus.PENDING
        ).values_list("kind", flat=True)
    )


def test_a_deposit_paid_by_webhook_confirms_the_booking_with_its_reminders(fake_stripe, deposit):
    assert pending_reminders(deposit) == set()

    deliver_event("evt_paid", "checkout.session.completed", session_object(fake_stripe, deposit))

    assert Appointment.objects.get(pk=deposit.appointment_id).status == AppointmentStatus.CONFIRMED
    assert ReminderKind.CONFIRMATION in pending_reminders(deposit)


def test_a_deposit_found_paid_by_the_reconcile_command_plans_the_reminders(fake_stripe, deposit):
    fake_stripe.pay(deposit.checkout_session_id)

    with time_machine.travel(SIX_MINUTES_LATER, tick=False):
        call_command("reconcile_payments")

    assert Appointment.objects.get(pk=deposit.appointment_id).status == AppointmentStatus.CONFIRMED
    assert ReminderKind.CONFIRMATION in pending_reminders(deposit)
