"""The analytics page of the dashboard (/admin/analytics/): the funnel and the figures around it
for a date range, for the businesses the reader may see.

Who sees what: an owner, their own businesses (``bookings.access``: "analytics.funnel");
Ordina's operators and superusers, every business, as they read every business's audit. Asking
for a business one may not see answers 404, exactly like a business that does not exist.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone

from analytics import charts, queries
from analytics.funnel import funnel_rows, percent
from analytics.periods import Period, PeriodRefused, default_period, period_from
from bookings.access import Action
from bookings.models import Business
from bookings.scoped_admin import tenant_access

LABEL = "analytics.funnel"
UTC = ZoneInfo("UTC")


@dataclass(frozen=True)
class Readable:
    """The businesses a reader may see, and the ones this page shows."""

    choices: list[tuple[int, str, str]]  # (id, name, time zone) of each business one may see
    chosen: tuple[int, ...]
    chosen_id: int | None  # None: all of them
    zone: ZoneInfo


def readable_businesses(request: HttpRequest) -> list[tuple[int, str, str]]:
    businesses = Business.objects.order_by("name", "pk")
    if not request.user.is_superuser:
        access = tenant_access(request)
        if not access.is_operator:
            businesses = businesses.filter(pk__in=access.businesses(LABEL, Action.VIEW))
    return list(businesses.values_list("pk", "name", "time_zone"))


def may_read_analytics(request: HttpRequest) -> bool:
    if not (request.user.is_active and request.user.is_staff):
        return False
    if request.user.is_superuser:
        return True
    access = tenant_access(request)
    return access.is_operator or bool(access.businesses(LABEL, Action.VIEW))


def _readable(request: HttpRequest) -> Readable:
    choices = readable_businesses(request)
    if not choices:
        raise PermissionDenied("You have no business whose figures you may read.")
    wanted = request.GET.get("business", "").strip()
    if not wanted:
        chosen_id = choices[0][0] if len(choices) == 1 else None
    elif not wanted.isdigit() or int(wanted) not in {pk for pk, _name, _zone in choices}:
        raise Http404("No such business.")
    else:
        chosen_id = int(wanted)
    zones = {pk: zone for pk, _name, zone in choices}
    if chosen_id is None:
        # Several businesses at once: whole days in UTC, none of their zones being the one.
        return Readable(choices, tuple(zones), None, UTC)
    return Readable(choices, (chosen_id,), chosen_id, ZoneInfo(zones[chosen_id]))


def analytics_page(request: HttpRequest, *, site) -> HttpResponse:
    if not may_read_analytics(request):
        raise PermissionDenied
    readable = _readable(request)
    today = timezone.now().astimezone(readable.zone).date()
    context = {
        **site.each_context(request),
        "title": "Booking funnel",
        "readable": readable,
        "zone_name": str(readable.zone),
        "error": None,
    }
    try:
        period = period_from(request.GET, today=today)
    except PeriodRefused as refused:
        shown = default_period(today)
        context |= {"error": str(refused), "period": shown, "query": _query(request, shown)}
        return TemplateResponse(request, "admin/analytics/funnel.html", context, status=400)
    context |= {"period": period, "query": _query(request, period)}
    context |= figures(readable, period)
    return TemplateResponse(request, "admin/analytics/funnel.html", context)


def _query(request: HttpRequest, period: Period) -> dict[str, str]:
    """What the form shows: the dates as typed when they were refused, else the period's."""
    return {
        "from": request.GET.get("from", period.first.isoformat()),
        "to": request.GET.get("to", period.last.isoformat()),
    }


def figures(readable: Readable, period: Period) -> dict:
    """Every figure and chart of the page (a constant number of queries: see queries)."""
    start, end = period.bounds(readable.zone)
    scope = queries.Scope(readable.chosen, start, end, readable.zone)
    funnel = queries.funnel(scope)
    rows = funnel_rows(funnel.reached)
    weeks = queries.weeks(scope, period.week_starts())
    activity = queries.activity(scope)
    channels = activity.channels
    week_labels = [f"{week.starts:%d %b}" for week in weeks]
    return {
        "funnel_rows": rows,
        "funnel_chart": charts.bar_chart(
            chart_id="funnel-chart",
            title="Conversations reaching each step of a booking",
            bars=[(row.label, row.count) for row in rows],
        ),
        "median_to_confirmed": _duration(funnel.median_to_confirmed),
        "services": queries.services(scope),
        "channels": channels,
        "channel_rows": [
            ("Chat", channels.chat, percent(channels.chat, channels.total)),
            (
                "Booking page or API",
                channels.booking_page,
                percent(channels.booking_page, channels.total),
            ),
            ("Dashboard", channels.dashboard, percent(channels.dashboard, channels.total)),
        ],
        "negotiation": activity.negotiation,
        "containment": activity.containment,
        "weeks": weeks,
        "no_show_chart": charts.line_chart(
            chart_id="no-show-chart",
            title="No-show rate week by week, percent of the visits marked",
            points=[
                (label, None if week.no_show_rate is None else float(week.no_show_rate))
                for label, week in zip(week_labels, weeks, strict=True)
            ],
            unit="%",
        ),
        "reminders_chart": charts.line_chart(
            chart_id="reminders-chart",
            title="Reminders sent week by week",
            points=[
                (label, week.reminders_sent) for label, week in zip(week_labels, weeks, strict=True)
            ],
        ),
    }


def _duration(value: dt.timedelta | None) -> str:
    if value is None:
        return "—"
    minutes = round(value.total_seconds() / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes:02d} min"
    return f"{hours // 24} days {hours % 24} h"
