"""Every answer carries one strict Content-Security-Policy (no inline script, no eval, nothing
from another host, framed by nobody); the hosted booking page alone may be framed, by its own
business's embedding sites; the business's accent is the one inline style, carrying the
policy's nonce. Real requests through the whole middleware stack."""

import datetime as dt
import re

import pytest
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from bookings.tokens import manage_token, token_hash
from tests.factories import AppointmentFactory, BusinessFactory, owner_of

pytestmark = pytest.mark.django_db

STRICT = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'"],
    "form-action": ["'self'"],
    "base-uri": ["'none'"],
    "object-src": ["'none'"],
    "frame-ancestors": ["'none'"],
}


def policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    directives = {}
    for directive in header.split(";"):
        name, *sources = directive.split()
        directives[name] = sources
    return directives


def assert_strict_except_framing(directives: dict[str, list[str]]) -> None:
    for name, sources in STRICT.items():
        if name != "frame-ancestors":
            assert directives[name] == sources, name
    assert directives["style-src"][0] == "'self'"
    assert all(source.startswith("'nonce-") for source in directives["style-src"][1:])
    header = " ".join(" ".join(sources) for sources in directives.values())
    assert "unsafe-inline" not in header
    assert "unsafe-eval" not in header
    assert "*" not in header


def test_booking_page_may_be_framed_by_its_business_embedding_sites_only():
    business = BusinessFactory(embed_origins="https://shop.example\nhttp://localhost:8000")
    BusinessFactory(embed_origins="https://other-business.example")

    response = HttpClient().get(f"/b/{business.slug}/")

    assert response.status_code == 200
    directives = policy(response)
    assert_strict_except_framing(directives)
    assert directives["frame-ancestors"] == [
        "'self'",
        "https://shop.example",
        "http://localhost:8000",
    ]
    assert "X-Frame-Options" not in response.headers


def test_booking_page_of_a_business_listing_no_sites_is_framed_by_itself_only():
    business = BusinessFactory()

    response = HttpClient().get(f"/b/{business.slug}/")

    assert policy(response)["frame-ancestors"] == ["'self'"]
    assert "X-Frame-Options" not in response.headers


def test_a_stored_line_that_is_not_an_origin_never_reaches_the_header():
    business = BusinessFactory()
    # Written around validation, as a raw update could.
    type(business).objects.filter(pk=business.pk).update(
        embed_origins="https://shop.example\nhttps://x.example; script-src *"
    )

    response = HttpClient().get(f"/b/{business.slug}/")

    assert policy(response)["frame-ancestors"] == ["'self'", "https://shop.example"]
    assert_strict_except_framing(policy(response))


def test_an_unknown_booking_page_may_not_be_framed():
    response = HttpClient().get("/b/no-such-business/")

    assert response.status_code == 404
    assert policy(response)["frame-ancestors"] == ["'none'"]
    assert response.headers["X-Frame-Options"] == "DENY"


def test_the_accent_is_the_one_inline_style_and_carries_the_policys_nonce():
    business = BusinessFactory(accent_colour="#1d6b3c")

    response = HttpClient().get(f"/b/{business.slug}/")

    styles = re.findall(r"<style nonce=\"([^\"]+)\">([^<]*)</style>", response.text)
    assert styles == [(styles[0][0], ":root{--accent:#1d6b3c;--accent-ink:#ffffff}")]
    assert policy(response)["style-src"] == ["'self'", f"'nonce-{styles[0][0]}'"]
    assert response.text.count("<style") == 1


def test_without_an_accent_there_is_no_inline_style_and_no_nonce():
    business = BusinessFactory()

    response = HttpClient().get(f"/b/{business.slug}/")

    assert "<style" not in response.text
    assert policy(response)["style-src"] == ["'self'"]


def test_each_answer_has_its_own_nonce():
    business = BusinessFactory(accent_colour="#1d6b3c")
    http = HttpClient()

    first = policy(http.get(f"/b/{business.slug}/"))["style-src"]
    second = policy(http.get(f"/b/{business.slug}/"))["style-src"]

    assert first != second


def test_the_clients_appointment_page_may_not_be_framed():
    appointment = AppointmentFactory(starts_at=timezone.now() + dt.timedelta(days=3))
    token = manage_token(appointment.public_id)
    appointment.manage_token_hash = token_hash(token)
    appointment.manage_token_expires_at = timezone.now() + dt.timedelta(days=30)
    appointment.save()

    response = HttpClient().get(f"/manage/{token}/")
    unknown = HttpClient().get("/manage/" + "x" * 43 + "/")

    assert response.status_code == 200
    for answer in (response, unknown):
        assert policy(answer) == {**policy(answer), **STRICT}
        assert_strict_except_framing(policy(answer))
        assert answer.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("name", ["admin:login", "admin:index", "admin:bookings_business_change"])
def test_the_dashboard_runs_under_the_same_policy(login, name):
    business = BusinessFactory()
    http = login(owner_of(business)) if name != "admin:login" else HttpClient()
    args = [business.pk] if name.endswith("_change") else []

    response = http.get(reverse(name, args=args))

    assert response.status_code == 200
    assert policy(response) == {**policy(response), **STRICT}
    assert_strict_except_framing(policy(response))
    assert response.headers["X-Frame-Options"] == "DENY"


def test_api_answers_carry_the_policy_too():
    business = BusinessFactory()

    response = HttpClient().get(f"/api/v1/businesses/{business.slug}/services/")

    assert response.status_code == 200
    assert policy(response)["frame-ancestors"] == ["'none'"]
