"""The owner's dashboard, checked by axe-core in a real browser: no serious or critical
violation on any page an owner uses (and the pages an operator reads), in the light theme and
the dark one; the appointment list fits a 390 px phone without widening the page; the three
ways a theme is chosen (the system's preference, or the toggle's stored "dark"/"light") give
the same palette; every input of an inline's table has a name.

Each theme signs in once and walks the pages in a loop, so a failure names every page that
failed, not only the first. A new dashboard page joins by a line in ``OWNER_PAGES`` (or
``OPERATOR_PAGES``): the admin URL name, and the row of the world its URL takes, if any.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.db.models import Model
from django.urls import reverse
from playwright.sync_api import Page, expect

from agent.models import AgentGrant, Conversation
from bookings.models import Appointment, Business, Client, Service
from bookings.scoped_admin import row_input_name
from payments.models import Payment
from tests.bookings.test_admin_tenant_isolation import (
    Tenant,
    tenant_with_one_of_everything,
    with_inline_rows,
)
from tests.factories import PASSWORD, AppointmentFactory, operator

SERIOUS = ("serious", "critical")


@dataclass(frozen=True)
class DashboardPage:
    """An admin URL name, and the model whose row of the world its URL takes (None: no id)."""

    url_name: str
    row_of: type[Model] | None = None

    def url(self, world: Tenant) -> str:
        args = [] if self.row_of is None else [world.row(self.row_of).pk]
        return reverse(f"admin:{self.url_name}", args=args)


# Every page an owner uses. Append a new page's URL name here.
OWNER_PAGES = [
    DashboardPage("index"),
    DashboardPage("bookings_business_change", Business),
    DashboardPage("bookings_business_hours", Business),
    DashboardPage("bookings_appointment_calendar"),
    DashboardPage("analytics"),
    DashboardPage("bookings_service_changelist"),
    DashboardPage("bookings_service_add"),
    DashboardPage("bookings_service_change", Service),
    DashboardPage("bookings_appointment_changelist"),
    DashboardPage("bookings_appointment_add"),
    DashboardPage("bookings_appointment_change", Appointment),
    DashboardPage("bookings_client_changelist"),
    DashboardPage("bookings_client_change", Client),
    DashboardPage("agent_conversation_changelist"),
    DashboardPage("agent_conversation_change", Conversation),
    DashboardPage("agent_auditentry_changelist"),
    DashboardPage("agent_agentgrant_changelist"),
    DashboardPage("agent_agentgrant_change", AgentGrant),
    DashboardPage("payments_payment_changelist"),
    DashboardPage("payments_payment_change", Payment),
    DashboardPage("payments_refund_changelist"),
    DashboardPage("bookings_calendarfeed_changelist"),
    DashboardPage("bookings_calendarfeed_add"),
    DashboardPage("bookings_busyblock_changelist"),
    DashboardPage("bookings_busyblock_add"),
    DashboardPage("bookings_appointmentevent_changelist"),
    DashboardPage("knowledge_knowledgesource_changelist"),
]

# What an operator reads: their home and the audit across businesses.
OPERATOR_PAGES = [
    DashboardPage("index"),
    DashboardPage("agent_auditentry_changelist"),
    DashboardPage("agent_guardrewrite_changelist"),
    DashboardPage("bookings_appointmentevent_changelist"),
    DashboardPage("payments_webhookevent_changelist"),
]

SCHEMES = ("light", "dark")


@pytest.fixture
def world(db) -> Tenant:
    """One business with a row of everything, rows under each inline, an escalated
    conversation (the header's badge) and a second appointment (a list of more than one)."""
    world = tenant_with_one_of_everything()
    with_inline_rows(world)
    Conversation.objects.filter(pk=world.row(Conversation).pk).update(state="escalated")
    AppointmentFactory(business=world.business)
    return world


def sign_in(page: Page, site: str, user, home_heading: str) -> None:
    page.goto(f"{site}{reverse('admin:login')}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name=home_heading)).to_be_visible()


def serious_violations(page: Page, axe_violations) -> list[dict]:
    # Measured once the colours have settled: the admin eases some of them in.
    page.wait_for_function("() => document.getAnimations().length === 0")
    return [v for v in axe_violations(page) if v["impact"] in SERIOUS]


def walk(page: Page, site: str, world: Tenant, pages: list[DashboardPage], axe_violations):
    """Every serious finding on every page, each named by its page."""
    # The system prefers the test's scheme (the context's color_scheme), and the admin's
    # theme, left on "auto", follows it.
    assert page.evaluate("document.documentElement.dataset.theme") == "auto"
    failures = []
    for each in pages:
        response = page.goto(f"{site}{each.url(world)}")
        assert response is not None
        assert response.ok, f"{each.url_name}: {response.status}"
        failures.extend(
            f"{each.url_name} — {v['id']} ({v['impact']}): {v['help']}\n      "
            + "\n      ".join(v["nodes"])
            for v in serious_violations(page, axe_violations)
        )
    return failures


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_owner_page_has_no_serious_violations(open_page, site, world, axe_violations, scheme):
    page = open_page(scheme=scheme)
    sign_in(page, site, world.owner, "Your business")

    failures = walk(page, site, world, OWNER_PAGES, axe_violations)

    assert not failures, f"{len(failures)} serious or critical:\n" + "\n".join(failures)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_operator_page_has_no_serious_violations(
    open_page, site, world, axe_violations, scheme
):
    page = open_page(scheme=scheme)
    sign_in(page, site, operator(), "Across businesses")

    failures = walk(page, site, world, OPERATOR_PAGES, axe_violations)

    assert not failures, f"{len(failures)} serious or critical:\n" + "\n".join(failures)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_appointment_list_fits_a_phone(open_page, site, world, scheme):
    page = open_page(viewport="phone", scheme=scheme)
    sign_in(page, site, world.owner, "Your business")

    page.goto(f"{site}{reverse('admin:bookings_appointment_changelist')}")

    expect(page.locator("#result_list")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"
    # The table's columns are not cut off: its own box scrolls to them.
    results = page.locator("#changelist-form .results")
    assert results.evaluate("box => getComputedStyle(box).overflowX") == "auto"


PALETTE = """() => {
    const style = getComputedStyle(document.documentElement);
    return Object.fromEntries(
        ['--body-bg', '--body-fg', '--link-fg', '--header-bg', '--selected-row',
         '--error-fg', '--button-bg', '--focus-ring']
            .map((name) => [name, style.getPropertyValue(name).trim()]));
}"""


def test_the_toggles_dark_and_light_are_the_systems(open_page, site, world):
    """The theme toggle's stored choice ("dark"/"light" in localStorage "theme") gives the same
    palette as the system's preference under "auto", whatever the system prefers."""
    palettes = {}
    for system in SCHEMES:
        page = open_page(scheme=system)
        sign_in(page, site, world.owner, "Your business")
        for stored in ("auto", *SCHEMES):
            page.evaluate(f"localStorage.setItem('theme', '{stored}')")
            page.reload()
            assert page.evaluate("document.documentElement.dataset.theme") == stored
            palettes[system, stored] = page.evaluate(PALETTE)

    assert palettes["dark", "auto"]["--body-bg"] != palettes["light", "auto"]["--body-bg"]
    for system in SCHEMES:
        assert palettes[system, "dark"] == palettes["dark", "auto"], f"stored dark on {system}"
        assert palettes[system, "light"] == palettes["light", "auto"], f"stored light on {system}"


# An input of an inline's row: named "<prefix>-<row or __prefix__>-<field>".
ROW_INPUT = re.compile(
    r"<(?:input|select|textarea)\b[^>]*\bname=\"[\w]+-(?:\d+|__prefix__)-\w+\"[^>]*>"
)


def test_every_input_of_an_inline_table_has_a_name(client, world):
    """Checked in the served HTML, without a browser: every visible input of every row of the
    business page's tables says its column and row."""
    client.force_login(world.owner)

    page = client.get(reverse("admin:bookings_business_change", args=[world.business.pk]))

    inputs = [tag for tag in ROW_INPUT.findall(page.text) if 'type="hidden"' not in tag]
    assert inputs, "the business page has inline rows"
    unnamed = [tag for tag in inputs if "aria-label=" not in tag]
    assert not unnamed, f"{len(unnamed)} of {len(inputs)} unnamed: {unnamed[:3]}"
    assert 'aria-label="Delete (row 1)"' in page.text  # the row's delete box, too


def test_a_row_input_is_named_by_its_column_then_its_row():
    assert row_input_name("Opens at", 0) == "Opens at (row 1)"
    assert row_input_name("Opens at", 2) == "Opens at (row 3)"
    assert row_input_name("Opens at", None) == "Opens at (new row)"
