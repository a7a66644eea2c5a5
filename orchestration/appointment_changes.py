"""The core's doors as everyone outside the core calls them: each is the ``bookings.services``
writer of the same name, with the appointment's reminders brought in step inside its
transaction (no second transaction, no extra query). Arguments, answers and errors are the
core's own."""

import datetime as dt
from decimal import Decimal

from bookings.actors import CLIENT, Actor
from bookings.models import Appointment, AppointmentStatus, Client, Service
from bookings.services import BookingOutcome, ClientDetails
from bookings.services import booking as core_booking
from bookings.services import changes as core_changes
from bookings.services.booking import WalkInOverride

from .reminders_in_step import reminders_in_step, reminders_in_step_of_new


def appointment_create(
    *,
    service: Service,
    start: dt.datetime,
    client: ClientDetails | Client,
    idempotency_key: str | None = None,
    holder: str | None = None,
    price: Decimal | None = None,
    status: str = AppointmentStatus.CONFIRMED,
    actor: Actor = CLIENT,
    now: dt.datetime | None = None,
    override: WalkInOverride | None = None,
) -> BookingOutcome:
    """Book, as ``bookings.services.appointment_create``; a confirmed booking has its reminders
    planned with it."""
    return core_booking.appointment_create(
        service=service,
        start=start,
        client=client,
        idempotency_key=idempotency_key,
        holder=holder,
        price=price,
        status=status,
        actor=actor,
        now=now,
        override=override,
        in_step=reminders_in_step_of_new,
    )


def appointment_reschedule(
    *,
    appointment: Appointment,
    new_start: dt.datetime,
    actor: Actor = CLIENT,
    now: dt.datetime | None = None,
) -> Appointment:
    """Move, as ``bookings.services.appointment_reschedule``; pending reminders move with it."""
    return core_changes.appointment_reschedule(
        appointment=appointment,
        new_start=new_start,
        actor=actor,
        now=now,
        in_step=reminders_in_step,
    )


def appointment_cancel(
    *,
    appointment: Appointment,
    actor: Actor = CLIENT,
    reason: str = "",
    now: dt.datetime | None = None,
) -> Appointment:
    """Cancel, as ``bookings.services.appointment_cancel``; its pending reminders are dropped."""
    return core_changes.appointment_cancel(
        appointment=appointment, actor=actor, reason=reason, now=now, in_step=reminders_in_step
    )


def appointment_record_outcome(
    *, appointment: Appointment, outcome: str, actor: Actor, now: dt.datetime | None = None
) -> Appointment:
    """Attended or no-show, as ``bookings.services.appointment_record_outcome``; a no-show
    gets its follow-up planned, the other reminders stop."""
    return core_changes.appointment_record_outcome(
        appointment=appointment, outcome=outcome, actor=actor, now=now, in_step=reminders_in_step
    )


def appointment_confirm_deposit(
    *, appointment: Appointment, actor: Actor, data: dict | None = None
) -> Appointment:
    """Deposit paid, as ``bookings.services.appointment_confirm_deposit``; the confirmed
    appointment has its reminders planned."""
    return core_changes.appointment_confirm_deposit(
        appointment=appointment, actor=actor, data=data, in_step=reminders_in_step
    )


def appointment_release_unpaid(
    *, appointment: Appointment, actor: Actor, data: dict | None = None
) -> Appointment:
    """Deposit not paid in time, as ``bookings.services.appointment_release_unpaid``."""
    return core_changes.appointment_release_unpaid(
        appointment=appointment, actor=actor, data=data, in_step=reminders_in_step
    )
