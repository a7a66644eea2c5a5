"""Tenant isolation of the dashboard's own views: the pages that are not a model's standard
list, form or history (the calendar, the week's hours, an appointment's outcome, a reply in a
conversation, the analytics, the autocomplete of clients).

The registered model pages are held by the matrix in ``test_admin_tenant_isolation``; this file
holds the rest. Its first test reads every URL of the dashboard, so a view added without a
probe here fails until it has one. Each probe signs in as business A's owner and reaches for
business B: the answer is a 404, or a page that shows nothing of B, and B's rows are unchanged.
"""

from collections.abc import Callable, Iterator

import pytest
from django.contrib import admin
from django.test import Client as HttpClient
from django.urls import URLPattern, URLResolver, reverse

from agent.conversation.states import State as ConversationState
from agent.models import Conversation, Message
from bookings.models import Appointment, AppointmentStatus, Business, Client, OpeningHours

from .test_admin_tenant_isolation import Tenant, tenant_with_one_of_everything

# The pages every model has, held by the matrix.
STANDARD_SUFFIXES = ("_changelist", "_add", "_change", "_delete", "_history")
# The site's own plumbing: no business's rows behind them.
SITE_PAGES = {
    "index",
    "login",
    "logout",
    "password_change",
    "password_change_done",
    "jsi18n",
    "view_on_site",
    "app_list",
}


def _named_urls(patterns, prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _named_urls(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield pattern.name


def dashboard_views() -> set[str]:
    return {
        name
        for name in _named_urls(admin.site.get_urls())
        if name not in SITE_PAGES and not name.endswith(STANDARD_SUFFIXES)
    }


@pytest.fixture
def signed_in_a(db, client: HttpClient) -> tuple[HttpClient, Tenant, Tenant]:
    tenant_a, tenant_b = tenant_with_one_of_everything(), tenant_with_one_of_everything()
    client.force_login(tenant_a.owner)
    return client, tenant_a, tenant_b


# --- the probes: name of the view → what A's owner tries on B ------------------------------------


def probe_calendar(client: HttpClient, a: Tenant, b: Tenant) -> None:
    url = reverse("admin:bookings_appointment_calendar")
    day = b.row(Appointment).starts_at.astimezone(b.business.tzinfo).date().isoformat()
    assert client.get(url, {"business": b.business.pk, "date": day}).status_code == 404
    own = client.get(url, {"date": day, "view": "week"})
    assert own.status_code == 200
    assert b.row(Appointment).client.name not in own.content.decode()
    assert b.business.name not in own.content.decode()


def probe_outcome(client: HttpClient, a: Tenant, b: Tenant) -> None:
    appointment = b.row(Appointment)
    url = reverse("admin:bookings_appointment_outcome", args=[appointment.pk])
    response = client.post(url, {"outcome": AppointmentStatus.NO_SHOW})
    assert response.status_code == 404
    appointment.refresh_from_db()
    assert appointment.status != AppointmentStatus.NO_SHOW


def probe_hours(client: HttpClient, a: Tenant, b: Tenant) -> None:
    url = reverse("admin:bookings_business_hours", args=[b.business.pk])
    before = list(OpeningHours.objects.filter(business=b.business).values())
    assert client.get(url).status_code == 404
    assert client.post(url, {}).status_code == 404
    assert list(OpeningHours.objects.filter(business=b.business).values()) == before


def probe_reply(client: HttpClient, a: Tenant, b: Tenant) -> None:
    conversation = b.row(Conversation)
    url = reverse("admin:agent_conversation_reply", args=[conversation.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"text": "Written into another business"}).status_code == 404
    assert not Message.objects.filter(conversation=conversation).exists()


def probe_hand_back(client: HttpClient, a: Tenant, b: Tenant) -> None:
    conversation = b.row(Conversation)
    Conversation.objects.filter(pk=conversation.pk).update(state=ConversationState.ESCALATED)
    url = reverse("admin:agent_conversation_hand_back", args=[conversation.pk])
    assert client.post(url).status_code == 404
    conversation.refresh_from_db()
    assert conversation.state == ConversationState.ESCALATED


def probe_analytics(client: HttpClient, a: Tenant, b: Tenant) -> None:
    url = reverse("admin:analytics")
    assert client.get(url, {"business": b.business.pk}).status_code == 404
    own = client.get(url)
    assert own.status_code == 200
    assert b.business.name not in own.content.decode()


def probe_autocomplete(client: HttpClient, a: Tenant, b: Tenant) -> None:
    theirs = b.row(Client)
    response = client.get(
        reverse("admin:autocomplete"),
        {
            "app_label": "bookings",
            "model_name": "appointment",
            "field_name": "client",
            "term": theirs.name,
        },
    )
    assert response.status_code == 200
    found = {row["id"] for row in response.json()["results"]}
    assert str(theirs.pk) not in found
    assert str(a.row(Client).pk) in {
        row["id"]
        for row in client.get(
            reverse("admin:autocomplete"),
            {
                "app_label": "bookings",
                "model_name": "appointment",
                "field_name": "client",
                "term": a.row(Client).name,
            },
        ).json()["results"]
    }


PROBES: dict[str, Callable[[HttpClient, Tenant, Tenant], None]] = {
    "bookings_appointment_calendar": probe_calendar,
    "bookings_appointment_outcome": probe_outcome,
    "bookings_business_hours": probe_hours,
    "agent_conversation_reply": probe_reply,
    "agent_conversation_hand_back": probe_hand_back,
    "analytics": probe_analytics,
    "autocomplete": probe_autocomplete,
}


def test_every_dashboard_view_has_a_tenant_probe():
    assert dashboard_views() == set(PROBES), (
        "a dashboard view without a tenant probe in this file (or a probe of a view that no "
        "longer exists)"
    )


@pytest.mark.parametrize("name", sorted(PROBES))
def test_an_owner_reaches_nothing_of_another_business(name, signed_in_a):
    client, tenant_a, tenant_b = signed_in_a
    assert Business.objects.count() == 2
    PROBES[name](client, tenant_a, tenant_b)
