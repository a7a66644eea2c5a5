"""The client's own appointment page, opened by the link in every confirmation: see it, cancel
it (after a step that says exactly what happens), move it through a picker of open times,
take it into a calendar. Server-rendered forms, no script needed.

The token in the path is the only key (no login, no cookie: a page that knows the token could
do as much through the public API, so a CSRF token would guard nothing). A GET never changes
anything; every change is a POST through the booking core's own services, which decide it
under their locks — this module only reads, asks and words. After a change the browser is sent
back to the page (303), so reloading it repeats nothing.
"""

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe
from rest_framework import serializers

from api.fields import InstantField, iso_in_zone
from bookings.actors import Actor
from bookings.availability import Interval
from bookings.errors import AppointmentNotChangeable, BookingError, SlotUnavailable
from bookings.models import Appointment, AppointmentStatus
from bookings.selectors import open_slots_for
from bookings.tokens import manage_url
from orchestration.appointment_changes import appointment_cancel, appointment_reschedule
from reminders.language import client_language

from .calendar_file import CalendarEntry, calendar_file
from .picker import PickerDay, picker_day
from .responses import not_found, private
from .selectors import ManagedAppointment, appointment_for_token, calendar_sequence, managed
from .terms import cancel_outcome, policy_terms
from .wording import (
    day_label,
    money,
    payment_words,
    slot_labels,
    status_words,
    when_label,
    why_unchangeable,
)

CANCEL_REASON = "cancelled on the appointment page"


# --- the page -------------------------------------------------------------------------------


@private
@require_safe
def appointment_page(request: HttpRequest, token: str) -> HttpResponse:
    now = timezone.now()
    appointment = appointment_for_token(token, now=now)
    with in_business_terms(appointment):
        view = managed(appointment, now=now)
        context = {**summary(view, token), "notice": notice(request.GET.get("done"))}
        return render(request, "pages/manage.html", context)


def notice(done: str | None) -> dict[str, str] | None:
    """The line that tells the client what their last press did (after the redirect)."""
    notices = {
        "cancelled": ("success", gettext("Your appointment is cancelled.")),
        "already_cancelled": ("warning", gettext("This appointment was already cancelled.")),
        "moved": ("success", gettext("Your appointment is moved to the time shown below.")),
        "unchanged": ("warning", gettext("Your appointment is already at that time.")),
        "not_changeable": (
            "warning",
            gettext("This appointment can no longer be moved or cancelled."),
        ),
    }
    if done not in notices:
        return None
    kind, text = notices[done]
    return {"kind": kind, "text": text}


# --- cancel -----------------------------------------------------------------------------------


@private
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def cancel(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the confirmation step, saying what cancelling does. POST: cancel. Cancelling an
    appointment that is already cancelled changes nothing and says so."""
    now = timezone.now()
    appointment = appointment_for_token(token, now=now)
    if request.method == "POST":
        try:
            appointment_cancel(
                appointment=appointment, actor=Actor.client(), reason=CANCEL_REASON, now=now
            )
        except AppointmentNotChangeable:
            appointment.refresh_from_db(fields=["status"])
            return back_to_page(token, refused(appointment))
        return back_to_page(token, "cancelled")
    with in_business_terms(appointment):
        view = managed(appointment, now=now)
        if not view.changeable:
            return back_to_page(token, refused(appointment))
        context = {
            **summary(view, token),
            "cancel_outcome": cancel_outcome(
                view.policy,
                view.deposit,
                refundable_now=view.refundable_now,
                deadline=view.refund_deadline,
                time_zone=view.time_zone,
            ),
        }
        return render(request, "pages/manage_cancel.html", context)


# --- reschedule -------------------------------------------------------------------------------


@private
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def reschedule(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the picker for a day (``?day=YYYY-MM-DD``). POST ``start``: move the appointment
    there, if the core finds it open; otherwise the picker again, saying why."""
    now = timezone.now()
    appointment = appointment_for_token(token, now=now)
    with in_business_terms(appointment):
        view = managed(appointment, now=now)
        if not view.changeable:
            return back_to_page(token, refused(appointment))
        if request.method != "POST":
            day = picker_day(
                request.GET.get("day"),
                today=today_of(appointment, now),
                horizon_days=appointment.business.booking_horizon_days,
                appointment_day=local(appointment.starts_at, appointment).date(),
            )
            problem = day_problem(day)
            return picker(
                request, view, token, day, now, problem=problem, status=400 if problem else 200
            )
        start = read_start(request.POST.get("start", ""))
        if start is None:
            return picker(
                request,
                view,
                token,
                default_day(appointment, now),
                now,
                problem=gettext(
                    "That time could not be read. Please choose one of the open times below."
                ),
                status=400,
            )
        if start == appointment.starts_at:
            return back_to_page(token, "unchanged")
        try:
            appointment_reschedule(
                appointment=appointment, new_start=start, actor=Actor.client(), now=now
            )
        except SlotUnavailable as taken:
            return picker(
                request,
                view,
                token,
                picker_day(
                    local(start, appointment).date().isoformat(),
                    today=today_of(appointment, now),
                    horizon_days=appointment.business.booking_horizon_days,
                    appointment_day=local(appointment.starts_at, appointment).date(),
                ),
                now,
                problem=gettext(
                    "That time is not open any more (someone may have just taken it), so "
                    "your appointment has not moved. Please choose another time."
                ),
                alternatives=taken.alternatives,
                status=409,
            )
        except AppointmentNotChangeable:
            appointment.refresh_from_db(fields=["status"])
            return back_to_page(token, refused(appointment))
        except BookingError:
            return picker(
                request,
                view,
                token,
                default_day(appointment, now),
                now,
                problem=gettext(
                    "That time cannot be booked. Please choose one of the open times below."
                ),
                status=400,
            )
        return back_to_page(token, "moved")


def picker(
    request: HttpRequest,
    view: ManagedAppointment,
    token: str,
    day: PickerDay,
    now: dt.datetime,
    *,
    problem: str | None = None,
    alternatives: list[Interval] | None = None,
    status: int = 200,
) -> HttpResponse:
    appointment = view.appointment
    service = appointment.service
    # The core's rules for this service, the appointment itself not standing in its own way:
    # exactly what appointment_reschedule will accept.
    slots = open_slots_for(
        service,
        first_day=day.day,
        last_day=day.day,
        now=now,
        excluding_appointment=appointment.pk,
    )
    reschedule_url = reverse("manage:reschedule", kwargs={"token": token})
    context = {
        **summary(view, token),
        "problem": problem,
        "day": day,
        "day_label": day_label(day.day),
        "previous_url": day_url(reschedule_url, day.previous),
        "next_url": day_url(reschedule_url, day.next),
        "slots": slot_buttons(slots, appointment, with_day=False),
        "alternatives": slot_buttons(alternatives or [], appointment, with_day=True),
    }
    return render(request, "pages/manage_reschedule.html", context, status=status)


def slot_buttons(
    slots: list[Interval], appointment: Appointment, *, with_day: bool
) -> list[dict[str, Any]]:
    time_zone = appointment.business.time_zone
    labels = slot_labels([slot.start for slot in slots], time_zone)
    zone = ZoneInfo(time_zone)
    return [
        {
            "value": iso_in_zone(slot.start, zone),
            "label": label,
            "day": day_label(slot.start.astimezone(zone)) if with_day else "",
            "current": slot.start == appointment.starts_at,
        }
        for slot, label in zip(slots, labels, strict=True)
    ]


def day_url(reschedule_url: str, day: dt.date | None) -> str:
    return "" if day is None else f"{reschedule_url}?{urlencode({'day': day.isoformat()})}"


def day_problem(day: PickerDay) -> str | None:
    if day.problem is None:
        return None
    if day.problem.unreadable:
        return gettext("That day could not be read; give it as a date, e.g. 2026-12-02.")
    if day.problem.too_early:
        return gettext("That day has passed; here are today's times.")
    return gettext("That day is further ahead than bookings are taken; here is the last one.")


def read_start(text: str) -> dt.datetime | None:
    """A start as the picker's buttons send it (the API's RFC 3339 instant), or None."""
    try:
        return InstantField().to_internal_value(text)
    except serializers.ValidationError:
        return None


def default_day(appointment: Appointment, now: dt.datetime) -> PickerDay:
    return picker_day(
        None,
        today=today_of(appointment, now),
        horizon_days=appointment.business.booking_horizon_days,
        appointment_day=local(appointment.starts_at, appointment).date(),
    )


# --- calendar ---------------------------------------------------------------------------------


@private
@require_safe
def calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The appointment as an .ics file; a cancelled one says so, for calendars that update."""
    now = timezone.now()
    appointment = appointment_for_token(token, now=now)
    with in_business_terms(appointment):
        business = appointment.business
        entry = CalendarEntry(
            public_id=appointment.public_id,
            summary=f"{appointment.service.name} — {business.name}",
            starts_at=appointment.starts_at,
            ends_at=appointment.ends_at,
            cancelled=appointment.status == AppointmentStatus.CANCELLED,
            sequence=calendar_sequence(appointment),
            last_modified=appointment.updated_at,
            url=manage_url(appointment.public_id),
            description=when_label(appointment.starts_at, appointment.ends_at, business.time_zone),
        )
    day = local(appointment.starts_at, appointment).date().isoformat()
    response = HttpResponse(calendar_file(entry), content_type="text/calendar; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{business.slug}-{day}.ics"'
    return response


# --- shared -----------------------------------------------------------------------------------


@private
def anything_else(request: HttpRequest) -> HttpResponse:
    """Any other path under /manage/: the same 404 as an unknown token."""
    return not_found(request)


@private
@require_safe
def add_slash(request: HttpRequest, token: str) -> HttpResponse:
    """A link copied without its last slash still opens the page (whatever the token: the
    redirect says nothing about it)."""
    return HttpResponseRedirect(reverse("manage:page", kwargs={"token": token}))


@contextmanager
def in_business_terms(appointment: Appointment) -> Iterator[None]:
    """The client's language (the conversation's the appointment was booked in, else the
    business's, as the emails that link here are written) and the business's time zone, for
    everything worded inside."""
    business = appointment.business
    with translation.override(client_language(appointment)), timezone.override(business.tzinfo):
        yield


def summary(view: ManagedAppointment, token: str) -> dict[str, Any]:
    """What every step of the page shows of the appointment, and its links."""
    appointment = view.appointment
    business = appointment.business
    return {
        "business": business,  # the layout's accent colour
        "business_name": business.name,
        "service_name": appointment.service.name,
        "when": when_label(appointment.starts_at, appointment.ends_at, business.time_zone),
        "status": appointment.status,
        "status_words": status_words(appointment.status),
        "price": money(appointment.price, business.currency),
        "payment_words": payment_words(view.deposit, time_zone=business.time_zone),
        "pay_url": view.pay_url,
        "changeable": view.changeable,
        "unchangeable_words": "" if view.changeable else why_unchangeable(appointment.status),
        "terms": policy_terms(view.policy, view.deposit),
        "rebook_url": settings.REBOOK_URL_TEMPLATE.format(slug=business.slug),
        "page_url": reverse("manage:page", kwargs={"token": token}),
        "cancel_url": reverse("manage:cancel", kwargs={"token": token}),
        "reschedule_url": reverse("manage:reschedule", kwargs={"token": token}),
        "calendar_url": reverse("manage:calendar", kwargs={"token": token}),
        "assistant_url": reverse("manage:assistant", kwargs={"token": token}),
    }


def refused(appointment: Appointment) -> str:
    if appointment.status == AppointmentStatus.CANCELLED:
        return "already_cancelled"
    return "not_changeable"


def back_to_page(token: str, done: str) -> HttpResponse:
    url = reverse("manage:page", kwargs={"token": token})
    return HttpResponseRedirect(f"{url}?{urlencode({'done': done})}", status=303)


def local(moment: dt.datetime, appointment: Appointment) -> dt.datetime:
    return moment.astimezone(appointment.business.tzinfo)


def today_of(appointment: Appointment, now: dt.datetime) -> dt.date:
    return local(now, appointment).date()
