"""Pure means importable without Django: every module that calls itself pure is imported here in
a fresh interpreter with no settings, and must not have loaded ``django`` at all.

A few deciders are pure but for the active language: they word what they decide with Django's
translation (``gettext`` at call time) or check an address with its validators. They must still
import without settings and load no part of the ORM; they are listed apart so that the strict
list stays strict.

Each model's ``TextChoices`` takes its values from the plain enum of the same name in its app's
``choices`` module; the last test holds the two to the same members."""

import os
import subprocess
import sys
from enum import Enum
from pathlib import Path

import pytest
from django.db import models

from bookings import choices as bookings_choices
from bookings.models import AppointmentStatus, DepositRule
from payments import choices as payments_choices
from payments.models import PaymentStatus
from reminders import choices as reminders_choices
from reminders.models import ReminderKind

# Import no Django at all (an import-linter "forbidden: django" contract can use this list).
PURE_MODULES = (
    "agent.actions",
    "agent.conversation.offering",
    "agent.conversation.stage_backfill",
    "agent.conversation.states",
    "agent.verification.codes",
    "analytics.funnel",
    "analytics.periods",
    "bookings.access",
    "bookings.availability",
    "bookings.calendar_lanes",
    "bookings.choices",
    "bookings.contrast",
    "bookings.embed_origins",
    "bookings.negotiation",
    "bookings.refusal_reasons",
    "bookings.time_ranges",
    "knowledge.budget",
    "knowledge.extract",
    "knowledge.read_limits",
    "pages.manage.calendar_file",
    "pages.manage.picker",
    "payments.choices",
    "payments.deposits",
    "payments.states",
    "payments.stripe_events",
    "reminders.choices",
    "reminders.plan",
)

# Pure but for the active language: Django's translation or validators, never settings or the ORM.
WORDED_MODULES = (
    "agent.audit_sentences",
    "agent.containment",
    "agent.conversation.policy",
    "agent.conversation.refusals",
    "agent.conversation.telling",
    "agent.conversation.wording",
    "agent.conversation_reading",
    "agent.gates",
    "agent.guards",
    "agent.llm.base",
    "agent.llm.prompts",
    "agent.offline",
    "analytics.charts",
    "bookings.phones",
    "pages.manage.terms",
    "pages.manage.wording",
    "payments.refund_policy",
)

PROJECT_ROOT = Path(__file__).resolve().parents[1]

# Run in the child: import the module, then report which of Django's modules came with it and
# whether anything configured the settings.
REPORT = """
import importlib, sys
importlib.import_module(sys.argv[1])
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
conf = sys.modules.get("django.conf")
configured = bool(conf and conf.settings.configured)
print(" ".join(loaded) or "-")
print("configured" if configured else "unconfigured")
"""


def imported_alone(module: str) -> tuple[list[str], bool]:
    """Django's modules loaded by importing ``module`` in a fresh interpreter without
    DJANGO_SETTINGS_MODULE, and whether the settings were configured."""
    env = {name: value for name, value in os.environ.items() if name != "DJANGO_SETTINGS_MODULE"}
    child = subprocess.run(
        [sys.executable, "-c", REPORT, module],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert child.returncode == 0, f"{module} does not import without settings:\n{child.stderr}"
    loaded, configured = child.stdout.splitlines()
    return ([] if loaded == "-" else loaded.split()), configured == "configured"


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_imports_without_django(module):
    loaded, _ = imported_alone(module)

    assert loaded == [], f"{module} calls itself pure but imports {loaded[0]}"


@pytest.mark.parametrize("module", WORDED_MODULES)
def test_worded_module_imports_without_settings_or_the_orm(module):
    loaded, configured = imported_alone(module)

    assert not configured, f"importing {module} configured Django's settings"
    orm = [name for name in loaded if name.startswith(("django.db", "django.contrib"))]
    assert orm == [], f"{module} loads the ORM: {orm[0]}"


@pytest.mark.parametrize(
    ("model_choices", "plain"),
    [
        (AppointmentStatus, bookings_choices.AppointmentStatus),
        (DepositRule, bookings_choices.DepositRule),
        (PaymentStatus, payments_choices.PaymentStatus),
        (ReminderKind, reminders_choices.ReminderKind),
    ],
)
def test_model_choices_hold_the_plain_enums_values(
    model_choices: type[models.TextChoices], plain: type[Enum]
):
    assert {m.name: m.value for m in model_choices} == {m.name: m.value for m in plain}
