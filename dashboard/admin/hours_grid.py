"""A business's week of opening hours as one form: every weekday's ranges on one screen, typed
as ``HH:MM``, saved in one go.

What is decided here on plain values: how a typed time reads (``parse_wall_time``), whether a
week is usable (``week_problems``: closing after opening, no overlap on a day) and how a week
reads back (``describe_week``). The form binds the typed text to those decisions; the writer
(``opening_hours_replace``) replaces the business's rows with the week, all of it or nothing.
Who may open or save the page is the view's concern (``dashboard.admin.business``)."""

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction

from bookings.models import Business, OpeningHours, Weekday
from bookings.time_ranges import TimeRange, first_overlap

from .schedule_formsets import describe_range

# Each weekday as {weekday: (ranges, by opening time)}; a day that is missing or empty is closed.
Week = Mapping[int, tuple[TimeRange, ...]]

WORKDAYS = (Weekday.MONDAY, Weekday.TUESDAY, Weekday.WEDNESDAY, Weekday.THURSDAY, Weekday.FRIDAY)

# Two ranges a day fit a lunch break (09:00–13:00 and 14:00–18:00); a day saved with more shows
# them all, so a save never drops a range the owner cannot see.
RANGES_SHOWN = 2
# A posted form may ask for more ranges than were shown (a client adding rows); no shop needs
# more than this in a day, and the bound keeps a forged post from building a huge form.
MOST_RANGES = 6

_TYPED_TIME = re.compile(r"(?P<hour>\d{1,2}):(?P<minute>\d{2})")
_FIELD_NAME = re.compile(r"(?P<day>[a-z]+)-(?P<index>\d+)-(?:opens|closes)")


# --- deciding, on plain values -----------------------------------------------------------------


def parse_wall_time(text: str) -> dt.time | None:
    """The time of day typed as ``H:MM`` or ``HH:MM`` (24-hour); None for an empty box.
    Anything else raises ValueError whose message says what is wrong and how to write it."""
    text = text.strip()
    if not text:
        return None
    typed = _TYPED_TIME.fullmatch(text)
    if typed is None:
        shown = text if len(text) <= 12 else f"{text[:12]}…"
        raise ValueError(f"“{shown}” is not a time: write it as HH:MM, e.g. 09:00 or 17:30.")
    hour, minute = int(typed["hour"]), int(typed["minute"])
    if hour > 23:
        raise ValueError(f"“{text}” is not a time of day: hours go from 00 to 23.")
    if minute > 59:
        raise ValueError(f"“{text}” is not a time of day: minutes go from 00 to 59.")
    return dt.time(hour, minute)


def format_wall_time(value: dt.time) -> str:
    return f"{value:%H:%M}"


def week_problems(week: Week) -> dict[int, list[str]]:
    """What makes each day of ``week`` unusable, in the owner's words, the day named: a range
    that closes at or before it opens, or two ranges that overlap (touching is fine)."""
    problems: dict[int, list[str]] = {}
    for weekday, ranges in sorted(week.items()):
        day = Weekday(weekday).label
        found = [
            f"{day} {describe_range(time_range)}: closing time must be after opening time."
            for time_range in ranges
            if time_range[1] <= time_range[0]
        ]
        if not found and (overlap := first_overlap(ranges)):
            found.append(
                f"{day}: {describe_range(overlap[0])} overlaps {describe_range(overlap[1])}."
            )
        if found:
            problems[weekday] = found
    return problems


def week_of(rows: Iterable[tuple[int, dt.time, dt.time]]) -> dict[int, tuple[TimeRange, ...]]:
    """The week held by ``(weekday, opens_at, closes_at)`` rows; every weekday present."""
    days: dict[int, list[TimeRange]] = {weekday: [] for weekday in Weekday.values}
    for weekday, opens_at, closes_at in rows:
        days[weekday].append((opens_at, closes_at))
    return {weekday: tuple(sorted(ranges)) for weekday, ranges in days.items()}


def describe_week(week: Week) -> list[str]:
    """One line per weekday, Monday first: "Monday 09:00–13:00, 14:00–18:00", "Sunday closed"."""
    lines = []
    for weekday in Weekday:
        ranges = week.get(weekday.value, ())
        said = ", ".join(describe_range(time_range) for time_range in ranges) or "closed"
        lines.append(f"{weekday.label} {said}")
    return lines


def ranges_per_day(week: Week, posted_names: Iterable[str] = ()) -> int:
    """How many ranges each day of the form offers: enough for the busiest saved day and for
    what a post sends, at least ``RANGES_SHOWN``, at most ``MOST_RANGES``."""
    posted = [
        int(named["index"]) + 1
        for name in posted_names
        if (named := _FIELD_NAME.fullmatch(name)) and named["day"] in _DAY_SLUGS
    ]
    busiest = max((len(ranges) for ranges in week.values()), default=0)
    return min(MOST_RANGES, max(RANGES_SHOWN, busiest, *posted))


def _slug(weekday: Weekday) -> str:
    return weekday.name.lower()


_DAY_SLUGS = frozenset(_slug(weekday) for weekday in Weekday)


def field_name(weekday: Weekday, index: int, end: str) -> str:
    """The input of range ``index`` (from 0) of ``weekday``; ``end`` is "opens" or "closes"."""
    return f"{_slug(weekday)}-{index}-{end}"


# --- the form ------------------------------------------------------------------------------


@dataclass
class DayRow:
    """One weekday as the page shows it."""

    weekday: Weekday
    ranges: list[tuple[forms.BoundField, forms.BoundField]]
    errors: list[str] = field(default_factory=list)
    is_closed: bool = False

    @property
    def slug(self) -> str:
        return _slug(self.weekday)

    @property
    def label(self) -> str:
        return str(self.weekday.label)


class WeekHoursForm(forms.Form):
    """The week's ranges as pairs of ``HH:MM`` boxes, ``ranges`` pairs a day. Valid, it holds
    ``week``: every weekday with its ranges in order (an empty day is closed)."""

    def __init__(self, *args, ranges: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ranges = ranges
        self.day_errors: dict[int, list[str]] = {}
        self.week: dict[int, tuple[TimeRange, ...]] = {}
        for weekday in Weekday:
            for index in range(ranges):
                for end in ("opens", "closes"):
                    self.fields[field_name(weekday, index, end)] = forms.CharField(
                        required=False,
                        label=f"{weekday.label}, range {index + 1}, {end}",
                        widget=forms.TextInput(
                            attrs={
                                "size": 5,
                                "inputmode": "numeric",
                                "autocomplete": "off",
                                "placeholder": "HH:MM",
                                "pattern": r"([01]?[0-9]|2[0-3]):[0-5][0-9]",
                                "title": "A time as HH:MM, 24-hour, e.g. 09:00",
                                "data-day": _slug(weekday),
                                "data-end": end,
                            }
                        ),
                    )

    @classmethod
    def initial_for(cls, week: Week) -> dict[str, str]:
        return {
            field_name(Weekday(weekday), index, end): format_wall_time(value)
            for weekday, ranges in week.items()
            for index, time_range in enumerate(ranges)
            for end, value in zip(("opens", "closes"), time_range, strict=True)
        }

    def clean(self) -> dict | None:
        cleaned = super().clean()
        week: dict[int, tuple[TimeRange, ...]] = {}
        for weekday in Weekday:
            ranges = []
            for index in range(self.ranges):
                opens_at, closes_at, readable = self._typed_range(weekday, index)
                if not readable or (opens_at is None and closes_at is None):
                    continue
                if opens_at is None or closes_at is None:
                    self._day_error(
                        weekday,
                        f"{weekday.label}, range {index + 1}: give both the opening and the "
                        "closing time, or neither.",
                    )
                    continue
                ranges.append((opens_at, closes_at))
            week[weekday.value] = tuple(sorted(ranges))
        for day, problems in week_problems(week).items():
            for problem in problems:
                self._day_error(Weekday(day), problem)
        self.week = week
        return cleaned

    def _typed_range(
        self, weekday: Weekday, index: int
    ) -> tuple[dt.time | None, dt.time | None, bool]:
        """The range's two times as typed, and whether both boxes could be read (an unreadable
        box has its own message, on the box and beside the day)."""
        times: list[dt.time | None] = []
        readable = True
        for end, what in (("opens", "opening"), ("closes", "closing")):
            name = field_name(weekday, index, end)
            try:
                times.append(parse_wall_time(self.cleaned_data.get(name) or ""))
            except ValueError as bad:
                message = f"{weekday.label}, {what} time: {bad}"
                self.add_error(name, message)
                self.day_errors.setdefault(weekday.value, []).append(message)
                times.append(None)
                readable = False
        return times[0], times[1], readable

    def _day_error(self, weekday: Weekday, message: str) -> None:
        self.add_error(None, message)
        self.day_errors.setdefault(weekday.value, []).append(message)

    def grid(self) -> list[DayRow]:
        """The weekdays, Monday first, each with its boxes and what is wrong with it."""
        rows = []
        for weekday in Weekday:
            pairs = [
                (
                    self[field_name(weekday, index, "opens")],
                    self[field_name(weekday, index, "closes")],
                )
                for index in range(self.ranges)
            ]
            rows.append(
                DayRow(
                    weekday=weekday,
                    ranges=pairs,
                    errors=self.day_errors.get(weekday.value, []),
                    is_closed=not any(
                        str(bound.value() or "").strip() for pair in pairs for bound in pair
                    ),
                )
            )
        return rows


# --- writing -------------------------------------------------------------------------------


def saved_week(business: Business) -> dict[int, tuple[TimeRange, ...]]:
    return week_of(
        OpeningHours.objects.filter(business=business).values_list(
            "weekday", "opens_at", "closes_at"
        )
    )


@transaction.atomic
def opening_hours_replace(*, business: Business, week: Week) -> bool:
    """Make ``week`` the business's opening hours: every row replaced, or none when any range
    is refused (the model's own rules, as each row is checked against those written before it).
    Returns whether anything changed. Two saves of the same business wait for each other, so
    neither adds its rows to the other's."""
    Business.objects.select_for_update().filter(pk=business.pk).exists()
    wanted = week_of(
        (weekday, opens_at, closes_at)
        for weekday, ranges in week.items()
        for opens_at, closes_at in ranges
    )
    if saved_week(business) == wanted:
        return False
    OpeningHours.objects.filter(business=business).delete()
    for weekday, ranges in wanted.items():
        for opens_at, closes_at in ranges:
            row = OpeningHours(
                business=business, weekday=weekday, opens_at=opens_at, closes_at=closes_at
            )
            try:
                row.full_clean()
            except ValidationError as refused:
                where = f"{Weekday(weekday).label} {describe_range((opens_at, closes_at))}"
                raise ValidationError([f"{where}: {said}" for said in refused.messages]) from None
            row.save()
    return True
