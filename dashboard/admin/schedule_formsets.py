"""Checks across the rows of one save on the business page. Each row's own clean() sees only
rows already in the database, so rows added together are compared with each other here. (The
weekly hours have a page of their own, ``dashboard.admin.hours_grid``.)"""

from collections import defaultdict

from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from bookings.time_ranges import TimeRange, first_overlap


def describe_range(time_range: TimeRange) -> str:
    """ "09:00–13:00", as the owner reads a range."""
    return f"{time_range[0]:%H:%M}–{time_range[1]:%H:%M}"


class _KeptRowsFormSet(BaseInlineFormSet):
    def kept_rows(self) -> list[dict]:
        """Cleaned data of the rows that will be saved (valid, filled in, not marked deleted)."""
        return [
            form.cleaned_data
            for form in self.forms
            if form.is_valid() and form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]


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
                first, second = (describe_range(time_range) for time_range in overlap)
                errors.append(f"{date:%Y-%m-%d}: {first} overlaps {second}.")
        if errors:
            raise ValidationError(errors)
