"""``manage.py sync_calendars``: one line per feed, exit status 1 when any feed failed."""

import io

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections

from bookings.management.commands.sync_calendars import Command
from bookings.models import BusyBlock
from tests.bookings.calendar.conftest import NOW, OWNER_FEED_BUSY
from tests.factories import BusinessFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen")]


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def run_command(monkeypatch):
    """Run the command as ``manage.py`` would: its exit status, standard output and error.
    (Its closing of database connections would end the test's transaction, so it is skipped.)"""
    monkeypatch.setattr(connections, "close_all", lambda: None)
    return run_from_argv


def run_from_argv(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    command = Command(stdout=out, stderr=err, no_color=True)
    try:
        command.run_from_argv(["manage.py", "sync_calendars", "--skip-checks", *args])
    except SystemExit as exit:
        return int(exit.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_every_feed_is_synced_with_one_line_each_and_success_exits_zero(connect_feed, run_command):
    connect_feed(BusinessFactory(slug="atelier", time_zone="Europe/Berlin"), "owner.ics")
    connect_feed(BusinessFactory(slug="barbearia", time_zone="Europe/Berlin"), "owner-later.ics")

    status, out, err = run_command()

    assert status == 0
    assert out.splitlines() == [
        f"atelier: ok, {len(OWNER_FEED_BUSY)} busy blocks",
        "barbearia: ok, 2 busy blocks",
    ]
    assert err == ""


def test_a_failed_feed_is_reported_the_others_synced_and_the_exit_status_is_one(
    connect_feed, run_command
):
    connect_feed(BusinessFactory(slug="atelier", time_zone="Europe/Berlin"), "owner.ics")
    connect_feed(BusinessFactory(slug="barbearia"), "malformed.ics")
    connect_feed(BusinessFactory(slug="cabeleireiro"), "no-such-calendar.ics")

    status, out, err = run_command()

    assert status == 1
    assert out.splitlines() == [
        f"atelier: ok, {len(OWNER_FEED_BUSY)} busy blocks",
        "barbearia: failed: The calendar feed is not valid iCalendar: the event "
        "broken-date@ordina.test has an unreadable DTSTART: '2026-03-05 10h00'.",
        "cabeleireiro: failed: Could not read the calendar feed: HTTP 404 Not Found",
    ]
    assert err == "CommandError: 2 of 3 calendars could not be synced.\n"
    assert BusyBlock.objects.filter(business__slug="atelier").count() == len(OWNER_FEED_BUSY)


def test_business_option_syncs_only_that_business(connect_feed):
    connect_feed(BusinessFactory(slug="atelier", time_zone="Europe/Berlin"), "owner.ics")
    connect_feed(BusinessFactory(slug="barbearia"), "no-such-calendar.ics")
    out = io.StringIO()

    call_command("sync_calendars", "--business", "atelier", stdout=out, no_color=True)

    assert out.getvalue() == f"atelier: ok, {len(OWNER_FEED_BUSY)} busy blocks\n"
    assert not BusyBlock.objects.filter(business__slug="barbearia").exists()


def test_business_without_a_connected_calendar_is_an_error(db):
    BusinessFactory(slug="atelier")

    with pytest.raises(CommandError) as refusal:
        call_command("sync_calendars", "--business", "atelier", stdout=io.StringIO())

    assert str(refusal.value) == "No connected calendar for a business with slug 'atelier'."
    assert refusal.value.returncode == 1
