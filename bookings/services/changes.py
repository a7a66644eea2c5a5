"""Moving and cancelling an appointment, and every other change of its state. A move goes
through the same lock and the same availability rules as a new booking; the appointment's row
lock keeps a move and a cancel of the same appointment from interleaving. Each writer takes the
caller's ``in_step`` (``bookings.services.in_step``) and runs it under that lock, after the
change and its history row are written."""

import datetime as dt

from django.db import IntegrityError, transaction
from django.utils import timezone

from bookings.actors import CLIENT, Actor
from bookings.availability import lock_days
from bookings.errors import AppointmentNotChangeable, InvalidBooking, SlotUnavailable
from bookings.lifecycle import change_refusal
from bookings.locks import lock_booking_days
from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
)
from bookings.selectors import service_shape

from .booking import _seat_if_open, nearest_alternatives
from .in_step import InStep, keep_in_step


def _locked(appointment: Appointment) -> Appointment:
    return (
        Appointment.objects.select_for_update(of=("self",))
        .select_related("service__business", "client")
        .get(pk=appointment.pk)
    )


def appointment_reschedule(
    *,
    appointment: Appointment,
    new_start: dt.datetime,
    actor: Actor = CLIENT,
    now: dt.datetime | None = None,
    in_step: InStep | None = None,
) -> Appointment:
    """Move the appointment to ``new_start``, keeping its service, client and price (a price
    agreed at booking met the floor then; a move neither sets nor re-judges it).

    Raises InvalidBooking, AppointmentNotChangeable, or SlotUnavailable with alternatives.
    """
    now = now or timezone.now()
    if timezone.is_naive(new_start):
        raise InvalidBooking({"start": "The start time needs a UTC offset or zone."})
    service = appointment.service
    occupancy = service_shape(service).occupancy(new_start)
    try:
        with transaction.atomic():
            lock_booking_days(
                appointment.business_id, lock_days(occupancy, service.business.tzinfo)
            )
            current = _locked(appointment)
            if refusal := change_refusal(current.status, current.starts_at, now):
                raise AppointmentNotChangeable(refusal)
            seat = _seat_if_open(
                current.service,
                new_start,
                occupancy,
                holder=None,
                now=now,
                excluding_appointment=current.pk,
            )
            moved_from = current.starts_at
            current.starts_at = new_start
            current.ends_at = new_start + dt.timedelta(minutes=service.duration_minutes)
            current.occupied_from, current.occupied_until = occupancy.start, occupancy.end
            current.seat = seat
            current.manage_token_expires_at = current.ends_at
            current.save(
                update_fields=[
                    "starts_at",
                    "ends_at",
                    "occupied_from",
                    "occupied_until",
                    "seat",
                    "manage_token_expires_at",
                    "updated_at",
                ]
            )
            _record(
                current,
                AppointmentEventKind.RESCHEDULED,
                actor=actor,
                data={"from": moved_from.isoformat(), "to": new_start.isoformat(), "seat": seat},
                now=now,
                in_step=in_step,
            )
    except (SlotUnavailable, IntegrityError):
        raise SlotUnavailable(
            nearest_alternatives(service, new_start, now=now, excluding_appointment=appointment.pk)
        ) from None
    return current


def _record(
    current: Appointment,
    kind: str,
    *,
    actor: Actor,
    status: str | None = None,
    data: dict | None = None,
    now: dt.datetime | None = None,
    in_step: InStep | None = None,
) -> Appointment:
    """Under the row lock: set the new status (if any), write the history row, and run the
    caller's ``in_step`` — the same three steps for every change of an appointment's state."""
    if status is not None and status != current.status:
        current.status = status
        current.save(update_fields=["status", "updated_at"])
    AppointmentEvent.objects.create(
        business_id=current.business_id,
        appointment=current,
        kind=kind,
        **actor.fields(),
        data=data or {},
    )
    keep_in_step(in_step, current, now)
    return current


def appointment_cancel(
    *,
    appointment: Appointment,
    actor: Actor = CLIENT,
    reason: str = "",
    now: dt.datetime | None = None,
    in_step: InStep | None = None,
) -> Appointment:
    """Cancel the appointment; its time is free again at once. Raises AppointmentNotChangeable."""
    now = now or timezone.now()
    with transaction.atomic():
        current = _locked(appointment)
        if refusal := change_refusal(current.status, current.starts_at, now):
            raise AppointmentNotChangeable(refusal)
        return _record(
            current,
            AppointmentEventKind.CANCELLED,
            actor=actor,
            status=AppointmentStatus.CANCELLED,
            data={"reason": reason} if reason else {},
            now=now,
            in_step=in_step,
        )


def appointment_confirm_deposit(
    *,
    appointment: Appointment,
    actor: Actor,
    data: dict | None = None,
    in_step: InStep | None = None,
) -> Appointment:
    """A deposit was verified as paid: an appointment awaiting it is confirmed. Anything else
    (already confirmed, released meanwhile) is left as it is and recorded."""
    with transaction.atomic():
        current = _locked(appointment)
        awaiting = current.status == AppointmentStatus.PENDING_PAYMENT
        status_after = AppointmentStatus.CONFIRMED if awaiting else current.status
        return _record(
            current,
            AppointmentEventKind.PAID,
            actor=actor,
            status=status_after,
            data={"status_after": status_after, **(data or {})},
            in_step=in_step,
        )


def appointment_release_unpaid(
    *,
    appointment: Appointment,
    actor: Actor,
    data: dict | None = None,
    in_step: InStep | None = None,
) -> Appointment:
    """The deposit was not paid in time: an appointment still awaiting it is released and its
    time offered again. A confirmed appointment is never released here."""
    with transaction.atomic():
        current = _locked(appointment)
        if current.status != AppointmentStatus.PENDING_PAYMENT:
            return current
        return _record(
            current,
            AppointmentEventKind.EXPIRED,
            actor=actor,
            status=AppointmentStatus.EXPIRED,
            data=data,
            in_step=in_step,
        )


OUTCOMES: dict[str, str] = {
    AppointmentStatus.ATTENDED: AppointmentEventKind.ATTENDED,
    AppointmentStatus.NO_SHOW: AppointmentEventKind.NO_SHOW,
}


def appointment_record_outcome(
    *,
    appointment: Appointment,
    outcome: str,
    actor: Actor,
    now: dt.datetime | None = None,
    in_step: InStep | None = None,
) -> Appointment:
    """The owner records whether the client came (attended) or not (no-show), once the visit
    has started. A no-show gets its follow-up message planned; the other reminders stop."""
    now = now or timezone.now()
    if outcome not in OUTCOMES:
        raise InvalidBooking({"outcome": "An outcome is attended or no_show."})
    with transaction.atomic():
        current = _locked(appointment)
        if current.status not in (AppointmentStatus.CONFIRMED, *OUTCOMES):
            raise AppointmentNotChangeable("Only a confirmed appointment has an outcome.")
        if current.starts_at > now:
            raise AppointmentNotChangeable("The visit has not started yet.")
        if current.status == outcome:
            return current
        return _record(
            current, OUTCOMES[outcome], actor=actor, status=outcome, now=now, in_step=in_step
        )


def appointment_refund_record(
    *, appointment: Appointment, actor: Actor, data: dict
) -> AppointmentEvent:
    """A refund of the appointment's deposit was issued: its history says so. The appointment
    itself does not change (a refund neither cancels nor moves it), so no lock is taken."""
    return AppointmentEvent.objects.create(
        business_id=appointment.business_id,
        appointment=appointment,
        kind=AppointmentEventKind.REFUNDED,
        **actor.fields(),
        data=data,
    )


def appointment_notes_change(*, appointment: Appointment, notes: str, actor: Actor) -> Appointment:
    """The staff's notes on the appointment are replaced, and the change recorded in its
    history (the notes themselves are kept on the appointment, not copied into the history)."""
    with transaction.atomic():
        current = _locked(appointment)
        if current.notes == notes:
            return current
        current.notes = notes
        current.save(update_fields=["notes", "updated_at"])
        AppointmentEvent.objects.create(
            business_id=current.business_id,
            appointment=current,
            kind=AppointmentEventKind.NOTE,
            **actor.fields(),
            data={},
        )
        return current
