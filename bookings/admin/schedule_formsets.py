"""Checks across the rows of one save on the business page. Each row's own clean() sees only
rows already in the database, so rows added together are compared with each other here."""

from collections import defaultdict

from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from bookings.models import Weekday
from bookings.time_ranges import TimeRange, first_overlap


def _describe(time_range: TimeRange) -> str:
    return f"{time_range[0]:%H:%M}–{time_range[1]:%H:%M}"


class _KeptRowsFormSet(BaseInlineFormSet):
    def kept_rows(self) -> list[dict]:
        """Cleaned data of the rows that will be saved (valid, filled in, not marked deleted)."""
        return [
            form.cleaned_data
            for form in self.forms
            if form.is_valid() and form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]


class OpeningHoursFormSet(_KeptRowsFormSet):
    def clean(self) -> None:
        super().clean()
        by_day: dict[int, list[TimeRange]] = defaultdict(list)
        for row in self.kept_rows():
            by_day[row["weekday"]].append((row["opens_at"], row["closes_at"]))
        for weekday, ranges in sorted(by_day.items()):
            if overlap := first_overlap(ranges):
                raise ValidationError(
                    f"{Weekday(weekday).label}: {_describe(overlap[0])} overlaps "
                    f"{_describe(overlap[1])}."
                )


class DateOverrideFormSet(_KeptRowsFormSet):
    def clean(self) -> None:
        super().clean()
        closures: dict = defaultdict(int)
        ranges: dict = defaultdict(list)
        for row in self.kept_rows():
            if row.get("opens_at") is None:
                closures[row["date"]] += 1
            else:
                ranges[row["date"]].append((row["opens_at"], row["closes_at"]))
        errors = []
        for date in sorted(set(closures) | set(ranges)):
            if closures[date] > 1:
                errors.append(f"{date:%Y-%m-%d} is marked closed more than once.")
            elif closures[date] and ranges[date]:
                errors.append(
                    f"{date:%Y-%m-%d} is marked closed and also has special hours; keep one."
                )
            elif overlap := first_overlap(ranges[date]):
                errors.append(
                    f"{date:%Y-%m-%d}: {_describe(overlap[0])} overlaps {_describe(overlap[1])}."
                )
        if errors:
            raise ValidationError(errors)
