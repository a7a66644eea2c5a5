"""The embed's server side: /widget.js as a site loads it, the DEBUG-only embedding example,
and CORS on the public API for the origins a business lists (real requests, preflight and
actual, through django-cors-headers and the whole middleware stack)."""

import datetime as dt
import io
import re
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.test import Client as HttpClient

from bookings.demo import SLUG as DEMO_SLUG
from bookings.demo import seed_demo
from bookings.models import Business
from pages.embed.views import WIDGET_SOURCE, other_loopback_origin, widget_source
from tests.factories import BusinessFactory

pytestmark = pytest.mark.django_db

SHOP = "https://shop.example"


# --- /widget.js ------------------------------------------------------------------------------


def test_widget_is_served_as_javascript_with_a_short_cache():
    response = HttpClient().get("/widget.js")

    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/javascript"
    assert response.headers["Cache-Control"] == "public, max-age=300"
    assert response.headers["Cross-Origin-Resource-Policy"] == "cross-origin"
    assert response.content == widget_source()  # the source, with its words written in
    # A classic script needs no CORS: none is offered.
    assert "Access-Control-Allow-Origin" not in response.headers


def test_widget_answers_304_to_a_browser_holding_the_same_version():
    first = HttpClient().get("/widget.js")

    again = HttpClient().get("/widget.js", headers={"If-None-Match": first.headers["ETag"]})

    assert again.status_code == 304
    assert again.content == b""


def test_widget_is_only_read():
    assert HttpClient().head("/widget.js").status_code == 200
    assert HttpClient().post("/widget.js").status_code == 405


def test_widget_script_names_no_host_of_its_own():
    # Everything it loads comes from the origin it was loaded from (derived from its src).
    source = WIDGET_SOURCE.read_text()

    assert "http://" not in source
    assert "https://HOST/widget.js" in source  # the documented snippet, in a comment
    assert source.count("https://") == 1


# --- the embedding example (DEBUG only) -------------------------------------------------------


def test_embedding_example_does_not_exist_without_debug():
    response = HttpClient().get("/embed-example/", HTTP_HOST="127.0.0.1:8000")

    assert response.status_code == 404


def test_embedding_example_loads_the_widget_from_the_other_loopback_origin(settings):
    settings.DEBUG = True

    response = HttpClient().get("/embed-example/", HTTP_HOST="127.0.0.1:8000")

    assert response.status_code == 200
    snippet = f'<script src="http://localhost:8000/widget.js" data-business="{DEMO_SLUG}" async>'
    assert snippet in response.text
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in response.headers["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self' http://localhost:8000"
    assert policy["frame-src"] == "'self' http://localhost:8000"
    assert policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"


def test_embedding_example_refuses_a_business_that_is_not_a_slug(settings):
    settings.DEBUG = True

    response = HttpClient().get(
        "/embed-example/", {"business": "x<script>"}, HTTP_HOST="127.0.0.1:8000"
    )

    assert response.status_code == 404


@pytest.mark.parametrize(
    ("host", "other"),
    [
        ("127.0.0.1:8000", "http://localhost:8000"),
        ("localhost:8000", "http://127.0.0.1:8000"),
        ("localhost", "http://127.0.0.1"),
        ("shop.example", None),
    ],
)
def test_other_loopback_origin(host, other):
    assert other_loopback_origin(scheme="http", host=host) == other


def test_the_demo_business_lets_the_example_page_embed_it():
    # `make demo` prints http://127.0.0.1:8000/embed-example/: that page's origin must be listed.
    business = seed_demo(today=dt.date(2026, 11, 29)).business

    assert "http://127.0.0.1:8000" in business.embedding_origins


def printed_by_make_demo() -> dict[str, str]:
    """What `make demo`'s seed_demo step prints under "Book as a client", by label."""
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    # The section ends at its blank line (the Spanish clinic's lines follow it).
    client_part = out.getvalue().split("Book as a client:")[1].split("\n\n")[0]
    return dict(re.findall(r"^  (\S.*?\S)\s{2,}(https?://\S+)", client_part, re.MULTILINE))


def opens(url: str) -> int:
    parts = urlsplit(url)
    return HttpClient().get(parts.path, HTTP_HOST=parts.netloc).status_code


def test_make_demo_prints_the_booking_page_and_with_debug_the_embedding_example(settings):
    # Given the local settings (`make demo` and `make run` use them): DEBUG on
    settings.DEBUG = True
    settings.PUBLIC_URL = "http://localhost:8000"

    # When the demo is seeded
    printed = printed_by_make_demo()

    # Then it prints the hosted booking page and the page that embeds it from another origin
    assert printed == {
        "the booking page": f"http://localhost:8000/b/{DEMO_SLUG}/",
        "embedded on a site": "http://127.0.0.1:8000/embed-example/",
    }
    # And both open; the example's origin is one the demo business lets embed it
    assert opens(printed["the booking page"]) == 200
    assert opens(printed["embedded on a site"]) == 200
    example_origin = printed["embedded on a site"].removesuffix("/embed-example/")
    assert example_origin in Business.objects.get(slug=DEMO_SLUG).embedding_origins


def test_make_demo_without_debug_does_not_point_at_the_embedding_example(settings):
    settings.DEBUG = False

    printed = printed_by_make_demo()

    assert list(printed) == ["the booking page"]


# --- CORS on the public API -------------------------------------------------------------------


def preflight(path: str, origin: str):
    return HttpClient().options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, idempotency-key",
        },
    )


@pytest.mark.parametrize(
    "listed",
    [
        pytest.param(SHOP, id="the only line"),
        pytest.param(f"{SHOP}\nhttps://b.example", id="the first line"),
        pytest.param(f"https://a.example\n{SHOP}\nhttps://b.example", id="a middle line"),
        pytest.param(f"https://a.example\n{SHOP}", id="the last line"),
    ],
)
def test_preflight_from_a_listed_origin_is_allowed_without_credentials(listed):
    business = BusinessFactory(embed_origins=listed)

    response = preflight(f"/api/v1/businesses/{business.slug}/conversations/", SHOP)

    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == SHOP
    assert "idempotency-key" in response.headers["Access-Control-Allow-Headers"]
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in response.headers
    assert "origin" in response.headers["Vary"].lower()


@pytest.mark.parametrize(
    "origin",
    [
        pytest.param("https://unlisted.example", id="unlisted"),
        pytest.param("https://other.example.evil", id="starting with a listed origin"),
        pytest.param("https://evil.other.example", id="ending with a listed origin"),
        pytest.param("https://shop.example", id="the start of a listed line"),
        pytest.param("https://shop.example.com", id="a listed host without its port"),
        pytest.param("http://other.example", id="a listed host over http"),
        pytest.param("null", id="an opaque origin"),
    ],
)
def test_preflight_from_an_unlisted_origin_gets_no_permission(origin):
    business = BusinessFactory(embed_origins="https://shop.example.com:8443\nhttps://other.example")

    response = preflight(f"/api/v1/businesses/{business.slug}/conversations/", origin)

    assert "Access-Control-Allow-Origin" not in response.headers


@pytest.mark.parametrize("stored", ["null", "*"])
def test_a_stored_line_that_is_not_an_origin_opens_the_api_to_nobody(stored):
    # Given a row written around validation (a raw update could) listing a non-origin
    business = BusinessFactory()
    Business.objects.filter(pk=business.pk).update(embed_origins=f"{SHOP}\n{stored}")

    # When a caller sends that very line as its Origin (a sandboxed frame sends "null")
    response = preflight(f"/api/v1/businesses/{business.slug}/conversations/", stored)

    # Then it is not given permission
    assert "Access-Control-Allow-Origin" not in response.headers


def test_an_actual_request_from_a_listed_origin_can_read_the_answer_and_retry_after():
    business = BusinessFactory(embed_origins=SHOP)

    response = HttpClient().get(
        f"/api/v1/businesses/{business.slug}/services/", headers={"Origin": SHOP}
    )

    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == SHOP
    # Retry-After for a 409 or a 429; the request id for a support question.
    assert response.headers["Access-Control-Expose-Headers"] == "retry-after, x-request-id"
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_an_actual_request_from_an_unlisted_origin_gets_no_permission():
    business = BusinessFactory(embed_origins=SHOP)

    response = HttpClient().get(
        f"/api/v1/businesses/{business.slug}/services/",
        headers={"Origin": "https://unlisted.example"},
    )

    assert response.status_code == 200  # answered (a server could ask too); unreadable to JS
    assert "Access-Control-Allow-Origin" not in response.headers


@pytest.mark.parametrize("path", ["/admin/login/", "/payments/stripe/webhook/", "/widget.js"])
def test_nothing_outside_the_public_api_is_opened_to_a_listed_origin(path):
    BusinessFactory(embed_origins=SHOP)

    preflighted = preflight(path, SHOP)
    actual = HttpClient().get(path, headers={"Origin": SHOP})

    assert "Access-Control-Allow-Origin" not in preflighted.headers
    assert "Access-Control-Allow-Origin" not in actual.headers


def test_our_own_pages_calls_need_no_cors_answer():
    business = BusinessFactory(embed_origins=SHOP)

    response = HttpClient().get(
        f"/api/v1/businesses/{business.slug}/services/", headers={"Origin": "http://testserver"}
    )

    assert "Access-Control-Allow-Origin" not in response.headers
