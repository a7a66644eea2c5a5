"""The owner's calendar in the dashboard: a day or a week of one business, in its time zone, one
lane per place of its capacity; and the buttons that record whether a past visit's client came.

Where things sit is decided in ``bookings.calendar_lanes``; this module reads the rows (a fixed
number of queries whatever the number of appointments), turns them into what the page shows,
and writes only through ``bookings.services``. Every read is scoped to the businesses whose
appointments the user may see: another business's id is a 404, as a missing one is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, F, OrderBy, Q, Value, When
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from bookings.access import Action
from bookings.availability import wall_to_instant
from bookings.calendar_lanes import Board, Timed, lay_out_board
from bookings.dashboard_acting import dashboard_actor
from bookings.errors import AppointmentNotChangeable, InvalidBooking
from bookings.models import Appointment, AppointmentStatus, Business, BusyBlock, SlotHold
from bookings.scoped_admin import is_unscoped, tenant_access
from bookings.selectors import schedule_between
from orchestration.appointment_changes import appointment_record_outcome
from payments.models import PaymentStatus

if TYPE_CHECKING:
    from .appointments import AppointmentAdmin

DAY, WEEK = "day", "week"
VIEWS = {DAY: "Day", WEEK: "Week"}
# Dates the calendar shows; beyond them a week's arithmetic would leave the calendar's range.
FIRST_DATE, LAST_DATE = dt.date(1900, 1, 1), dt.date(2999, 12, 31)
# Statuses that free their time: not drawn on the calendar.
NOT_SHOWN = (AppointmentStatus.CANCELLED, AppointmentStatus.EXPIRED)

# The deposit at a glance, from the appointment's payment (none: no deposit was asked).
PAYMENT_WORDS: Mapping[str, str] = {
    PaymentStatus.PENDING: "Deposit due",
    PaymentStatus.PAID: "Deposit paid",
    PaymentStatus.PARTIALLY_REFUNDED: "Partly refunded",
    PaymentStatus.REFUNDED: "Refunded",
    PaymentStatus.EXPIRED: "Deposit not paid",
    PaymentStatus.FAILED: "Payment failed",
}
NO_DEPOSIT = "No deposit"

OUTCOME_BUTTONS = (
    (AppointmentStatus.ATTENDED, "Attended"),
    (AppointmentStatus.NO_SHOW, "No-show"),
)


def outcomes_to_offer(
    status: str, starts_at: dt.datetime, now: dt.datetime
) -> list[tuple[str, str]]:
    """The outcome buttons a visit shows: once it has started, a confirmed visit offers both;
    one already marked offers the other (a mistake is corrected the same way). The service
    decides again when a button is pressed; this only spares the owner a button it would
    refuse."""
    if starts_at > now or status not in (AppointmentStatus.CONFIRMED, *dict(OUTCOME_BUTTONS)):
        return []
    return [(value, label) for value, label in OUTCOME_BUTTONS if value != status]


def payment_word(appointment: Appointment) -> str:
    # The reverse one-to-one raises (an AttributeError) when no payment was taken.
    payment = getattr(appointment, "payment", None)
    return NO_DEPOSIT if payment is None else PAYMENT_WORDS.get(payment.status, payment.status)


def parse_day(raw: str | None, today: dt.date) -> tuple[dt.date, str | None]:
    """The day asked for (``YYYY-MM-DD``; none: today), or today and why the value was not
    taken."""
    if not raw:
        return today, None
    try:
        day = dt.date.fromisoformat(raw)
    except ValueError:
        return today, f"“{raw}” is not a date written as YYYY-MM-DD; showing today."
    if not FIRST_DATE <= day <= LAST_DATE:
        return today, f"The calendar shows {FIRST_DATE.year} to {LAST_DATE.year}; showing today."
    return day, None


def parse_view(raw: str | None) -> tuple[str, str | None]:
    if not raw or raw in VIEWS:
        return raw or DAY, None
    return DAY, f"“{raw}” is not a view of the calendar (day or week); showing the day."


def days_shown(day: dt.date, view: str) -> list[dt.date]:
    """The day itself, or its week from Monday."""
    if view == DAY:
        return [day]
    monday = day - dt.timedelta(days=day.weekday())
    return [monday + dt.timedelta(days=offset) for offset in range(7)]


def step(day: dt.date, view: str, direction: int) -> dt.date | None:
    """The day a "previous" (-1) or "next" (+1) link leads to; None beyond the range."""
    moved = day + dt.timedelta(days=direction * (1 if view == DAY else 7))
    return moved if FIRST_DATE <= moved <= LAST_DATE else None


# --- what the page draws -----------------------------------------------------------------------


def _clock(instant: dt.datetime, tz) -> str:
    return f"{instant.astimezone(tz):%H:%M}"


@dataclass(frozen=True)
class AppointmentEntry:
    kind: ClassVar[str] = "appointment"
    appointment: Appointment
    url: str
    times: str
    status: str
    status_label: str
    payment: str
    outcomes: list[tuple[str, str]]


@dataclass(frozen=True)
class HoldEntry:
    kind: ClassVar[str] = "hold"
    service: str
    times: str
    until: str


@dataclass(frozen=True)
class BusyEntry:
    summary: str
    times: str


def _appointment_entry(appointment: Appointment, tz, now: dt.datetime) -> AppointmentEntry:
    return AppointmentEntry(
        appointment=appointment,
        url=reverse("admin:bookings_appointment_change", args=[appointment.pk]),
        times=f"{_clock(appointment.starts_at, tz)}–{_clock(appointment.ends_at, tz)}",
        status=appointment.status,
        status_label=appointment.get_status_display(),
        payment=payment_word(appointment),
        outcomes=outcomes_to_offer(appointment.status, appointment.starts_at, now),
    )


# --- the pages ---------------------------------------------------------------------------------


def calendar_urls(model_admin: AppointmentAdmin) -> list[URLPattern]:
    """The calendar's pages, in the appointment admin's URL space."""
    site = model_admin.admin_site

    @require_GET
    def calendar(request: HttpRequest) -> HttpResponse:
        return calendar_view(model_admin, request)

    @require_POST
    def outcome(request: HttpRequest, object_id: str) -> HttpResponse:
        return outcome_view(model_admin, request, object_id)

    return [
        path("calendar/", site.admin_view(calendar), name="bookings_appointment_calendar"),
        path(
            "<path:object_id>/outcome/",
            site.admin_view(outcome),
            name="bookings_appointment_outcome",
        ),
    ]


def _businesses(request: HttpRequest) -> list[Business]:
    """The businesses whose calendar the user may open, by name."""
    businesses = Business.objects.order_by("name", "pk")
    if is_unscoped(request):
        return list(businesses)
    allowed = tenant_access(request).businesses("bookings.appointment", Action.VIEW)
    return list(businesses.filter(pk__in=allowed))


def _chosen(businesses: list[Business], raw: str | None) -> Business | None:
    if not raw:
        return businesses[0] if businesses else None
    # Another business's id and one that does not exist look the same.
    found = next((b for b in businesses if str(b.pk) == raw), None)
    if found is None:
        raise Http404("No business with that id.")
    return found


def calendar_view(model_admin: AppointmentAdmin, request: HttpRequest) -> HttpResponse:
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    businesses = _businesses(request)
    business = _chosen(businesses, request.GET.get("business"))
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": "Calendar",
        "businesses": businesses,
        "business": business,
        "views": VIEWS,
    }
    if business is None:
        return TemplateResponse(request, "admin/bookings/appointment/calendar.html", context)

    tz = business.tzinfo
    now = timezone.now()
    today = timezone.localdate(now, tz)
    day, day_problem = parse_day(request.GET.get("date"), today)
    view, view_problem = parse_view(request.GET.get("view"))
    for problem in (day_problem, view_problem):
        if problem:
            messages.error(request, problem)
    days = days_shown(day, view)
    board = _board(model_admin, request, business, days, now)

    def link(to_day: dt.date | None, to_view: str = view) -> str | None:
        if to_day is None:
            return None
        query = {"business": business.pk, "date": to_day.isoformat(), "view": to_view}
        return f"?{urlencode(query)}"

    here = f"{request.path}{link(day)}"
    context |= {
        "title": f"Calendar: {business.name}",
        "board": board,
        "day": day,
        "view": view,
        "today": today,
        "days": days,
        "here": here,
        "today_link": link(today),
        "previous_link": link(step(day, view, -1)),
        "next_link": link(step(day, view, +1)),
        "day_link": link(day, DAY),
        "week_link": link(day, WEEK),
        "unit": "day" if view == DAY else "week",
        "zone": business.time_zone,
    }
    return TemplateResponse(request, "admin/bookings/appointment/calendar.html", context)


def _board(
    model_admin: AppointmentAdmin,
    request: HttpRequest,
    business: Business,
    days: list[dt.date],
    now: dt.datetime,
) -> Board:
    """The rows of ``days`` (five queries whatever their number) laid out on the board."""
    tz = business.tzinfo
    start = wall_to_instant(days[0], dt.time(0), tz)
    end = wall_to_instant(days[-1] + dt.timedelta(days=1), dt.time(0), tz)
    # Scoped by the admin's own queryset as well as by the business chosen: two locks.
    appointments = (
        model_admin.get_queryset(request)
        .filter(business=business, starts_at__lt=end, ends_at__gt=start)
        .exclude(status__in=NOT_SHOWN)
        .select_related("service", "client", "payment")
        .order_by("starts_at", "pk")
    )
    holds = (
        SlotHold.objects.filter(
            business=business, expires_at__gt=now, starts_at__lt=end, ends_at__gt=start
        )
        .select_related("service")
        .order_by("starts_at", "pk")
    )
    blocks = BusyBlock.objects.filter(business=business, starts_at__lt=end, ends_at__gt=start)
    schedule = schedule_between(business, days[0], days[-1])
    spans = [
        Timed(f"a{a.pk}", a.starts_at, a.ends_at, _appointment_entry(a, tz, now))
        for a in appointments
    ]
    spans += [
        Timed(
            f"h{hold.pk}",
            hold.starts_at,
            hold.ends_at,
            HoldEntry(
                service=hold.service.name,
                times=f"{_clock(hold.starts_at, tz)}–{_clock(hold.ends_at, tz)}",
                until=_clock(hold.expires_at, tz),
            ),
        )
        for hold in holds
    ]
    busy = [
        Timed(
            f"b{block.pk}",
            block.starts_at,
            block.ends_at,
            BusyEntry(
                summary=block.summary or "Busy",
                times=f"{_clock(block.starts_at, tz)}–{_clock(block.ends_at, tz)}",
            ),
        )
        for block in blocks.order_by("starts_at", "pk")
    ]
    return lay_out_board(
        days=days,
        tz=tz,
        capacity=business.capacity,
        spans=spans,
        blocks=busy,
        open_ranges=schedule.ranges_on,
    )


def outcome_view(
    model_admin: AppointmentAdmin, request: HttpRequest, object_id: str
) -> HttpResponse:
    """Record that a past visit's client came, or did not (a button on the calendar and on the
    appointment's page). Refusals come back as messages on the page the button was on."""
    appointment = model_admin.get_object(request, object_id)  # another business's: 404
    if not model_admin.has_change_permission(request, appointment):
        raise PermissionDenied
    outcome = request.POST.get("outcome", "")
    labels: dict[str, str] = dict(OUTCOME_BUTTONS)
    try:
        appointment_record_outcome(
            appointment=appointment,
            outcome=outcome,
            actor=dashboard_actor(request, appointment.business_id),
        )
    except InvalidBooking:
        messages.error(request, "Choose “Attended” or “No-show”.")
    except AppointmentNotChangeable as exc:
        messages.warning(request, f"{appointment}: {exc.message}")
    else:
        messages.success(request, f"{appointment}: marked {labels[outcome].lower()}.")
    return HttpResponseRedirect(_back(request, appointment))


def _back(request: HttpRequest, appointment: Appointment) -> str:
    """Where the button was pressed (a page of this site only), else the appointment's page."""
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return back
    return reverse("admin:bookings_appointment_change", args=[appointment.pk])


def upcoming_first(now: dt.datetime) -> list[OrderBy]:
    """The appointment list's order: what is still to come (or under way) first, soonest first;
    then the past, most recent first."""
    to_come = Q(ends_at__gt=now)
    return [
        Case(When(to_come, then=Value(0)), default=Value(1)).asc(),
        Case(When(to_come, then=F("starts_at"))).asc(nulls_last=True),
        Case(When(~to_come, then=F("starts_at"))).desc(nulls_last=True),
    ]
