"""The dashboard's home says whose it is: owners and staff land on "Your business"; Ordina's
operators, who belong to no business, land on the audit of all of them."""

import re

import pytest
from django.apps import apps
from django.urls import reverse

from bookings.access import OPERATOR_READABLE
from ordina.admin_site import OPERATOR_PAGES
from tests.factories import BusinessFactory, operator, owner_of, staff_of

pytestmark = pytest.mark.django_db

HOME = reverse("admin:index")
AUDIT_LOG = reverse("admin:agent_auditentry_changelist")


def heading(html: str) -> str:
    return re.search(r"<h1>(.*?)</h1>", html).group(1)


def test_an_operators_home_leads_with_the_audit_across_businesses(login):
    response = login(operator()).get(HOME)

    html = response.content.decode()
    assert heading(html) == "Across businesses"
    assert "Your business" not in html
    audit = html.index('id="audit-across-businesses"')
    # Its first link is the audit log (with the containment figures), before any list of pages.
    assert html.index(f'href="{AUDIT_LOG}"') < html.index("<caption>")
    assert "containment figures" in html[audit:]


@pytest.mark.parametrize("member", [owner_of, staff_of], ids=["owner", "staff"])
def test_owners_and_staff_keep_your_business(login, member):
    response = login(member(BusinessFactory())).get(HOME)

    html = response.content.decode()
    assert heading(html) == "Your business"
    assert "audit-across-businesses" not in html


def test_every_page_an_operators_home_links_to_opens_for_them(login):
    http = login(operator())
    html = http.get(HOME).content.decode()
    audit = html[html.index('id="audit-across-businesses"') :]
    links = re.findall(r'<a href="([^"]+)">', audit[: audit.index("</ul>")])

    assert len(links) == len(OPERATOR_PAGES)
    for link in links:
        assert http.get(link).status_code == 200, link


def test_the_operators_home_names_every_page_operators_may_read():
    named = {apps.get_model(label)._meta.label_lower for label, _ in OPERATOR_PAGES}

    assert named == OPERATOR_READABLE


def test_the_operators_home_has_no_inline_style_or_script(login):
    html = login(operator()).get(HOME).content.decode()

    # The Content-Security-Policy refuses style="" outright, <style> without its nonce and any
    # script not served from the site.
    assert "style=" not in html
    assert all("nonce=" in tag for tag in re.findall(r"<style\b[^>]*>", html))
    assert all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", html))
