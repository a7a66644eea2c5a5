"""The kinds of reminder as plain values. Imports no Django, so ``reminders.plan`` can decide
when each kind is due without loading a model.

``reminders.models.ReminderKind`` is the model's ``TextChoices`` built from these values, with
the labels the dashboard shows; a member of either compares equal to the other's (both are the
stored string)."""

from enum import StrEnum


class ReminderKind(StrEnum):
    CONFIRMATION = "confirmation"
    BEFORE_24H = "before_24h"
    BEFORE_2H = "before_2h"
    ATTENDANCE = "attendance"
    NO_SHOW = "no_show"
    POST_VISIT = "post_visit"
