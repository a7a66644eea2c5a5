"""One client address for every per-client limit (ordina.client_address): behind
``TRUSTED_PROXY_COUNT`` proxies the client is what the outermost trusted proxy saw, whatever a
client writes further left in X-Forwarded-For; with no proxy trusted, X-Forwarded-For is ignored.

First the reading itself, and that Django REST framework's throttles read the same client.
Then each limit through a real production server (gunicorn) behind a pretend load balancer:
every request arrives from 127.0.0.1, as from the balancer, carrying the client's address the
way a balancer appends it. Clients behind it get an allowance each, and a client who writes
someone else's address in the header is still counted as itself.
"""

import datetime as dt
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.cache.backends.redis import RedisCache
from django.test import RequestFactory, override_settings
from django.utils import timezone

from agent.services import grants_set
from api.public import PublicRateThrottle
from bookings.availability import wall_to_instant
from bookings.models import Appointment
from ordina.client_address import client_address
from tests.agent.conversation.chat_http import ServerResponse, chat, confirm, started
from tests.bookings.conftest import haircut, salon  # noqa: F401 - fixtures, by name
from tests.factories import PASSWORD, UserFactory
from tests.servers import ProductionServer

CLIENT = "203.0.113.7"
SPOOFED = "198.51.100.20"
BALANCER = "10.0.0.2"
# The servers' shared cache (the rate limit counts there): a Redis database of these tests'
# own, so no other test's counts mix with theirs.
CACHE_URL = "redis://127.0.0.1:6379/8"
# Every request reaches the servers from here: the pretend load balancer.
LOOPBACK = "127.0.0.1"


# --- the reading ------------------------------------------------------------------------------

CASES = [
    # (trusted proxies, X-Forwarded-For or None, REMOTE_ADDR, the client)
    pytest.param(0, f"{SPOOFED}, {CLIENT}", BALANCER, BALANCER, id="no-proxy-ignores-header"),
    pytest.param(1, CLIENT, BALANCER, CLIENT, id="one-proxy-takes-its-address"),
    pytest.param(1, f"{SPOOFED}, {CLIENT}", BALANCER, CLIENT, id="spoofed-left-part-ignored"),
    pytest.param(2, f"{SPOOFED}, {CLIENT}, {BALANCER}", "10.0.0.3", CLIENT, id="two-proxies"),
    pytest.param(3, f"{CLIENT}, {BALANCER}", "10.0.0.3", CLIENT, id="fewer-than-trusted"),
    pytest.param(1, None, CLIENT, CLIENT, id="no-header-remote-addr"),
    pytest.param(1, " , ", CLIENT, CLIENT, id="blank-header-remote-addr"),
]


def request_from(remote: str | None, forwarded: str | None):
    meta: dict[str, Any] = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    request = RequestFactory().get("/", **meta)
    if remote is None:
        del request.META["REMOTE_ADDR"]
    else:
        request.META["REMOTE_ADDR"] = remote
    return request


@pytest.mark.parametrize(("trusted", "forwarded", "remote", "client"), CASES)
def test_the_client_is_what_the_outermost_trusted_proxy_saw(trusted, forwarded, remote, client):
    with override_settings(TRUSTED_PROXY_COUNT=trusted):
        assert client_address(request_from(remote, forwarded)) == client


@pytest.mark.parametrize(("trusted", "forwarded", "remote", "client"), CASES[:-1])
def test_the_api_rate_limit_reads_the_same_client(trusted, forwarded, remote, client, settings):
    # The blank header is left out: DRF reads it as "" and counts such requests together,
    # client_address as the connecting address; neither lets a client choose who it is.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": trusted}
    request = request_from(remote, forwarded)

    with override_settings(TRUSTED_PROXY_COUNT=trusted):
        assert PublicRateThrottle().get_ident(request) == client_address(request)


def test_a_request_with_no_address_at_all_is_empty_not_an_error():
    with override_settings(TRUSTED_PROXY_COUNT=1):
        assert client_address(request_from(None, None)) == ""


# --- through a real server behind a pretend load balancer ----------------------------------


def an_address() -> str:
    """A client address no other run has used within the rate limit's minute: the counts live
    in Redis, outside the test database that is emptied after each test."""
    return "10." + ".".join(str(secrets.randbelow(256)) for _ in range(3))


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer to look at, not to follow


class BehindTheBalancer:
    """A client reaching ``server`` through a load balancer that appends the address it was
    reached from to X-Forwarded-For; ``claims`` is what the client wrote there itself. Speaks
    as the chat helpers' clients do (``post``, ``get``)."""

    def __init__(self, server: ProductionServer, address: str, claims: str = "") -> None:
        self.base = f"http://127.0.0.1:{server.port}"
        self.forwarded_for = f"{claims}, {address}" if claims else address
        self.opener = urllib.request.build_opener(NoRedirects)

    def get(self, path: str, headers: dict[str, str] | None = None) -> ServerResponse:
        return self.send("GET", path, None, headers or {})

    def post(self, path: str, data: Any = None, content_type: str = "", headers=None):
        body = None if data is None else json.dumps(data).encode()
        kind = {"Content-Type": content_type} if content_type else {}
        return self.send("POST", path, body, {**kind, **(headers or {})})

    def send(self, method: str, path: str, body: bytes | None, headers) -> ServerResponse:
        request = urllib.request.Request(  # noqa: S310 (loopback, http)
            self.base + path,
            data=body,
            method=method,
            headers={**headers, "X-Forwarded-For": self.forwarded_for},
        )
        try:
            with self.opener.open(request, timeout=30) as answer:
                return ServerResponse(answer.status, dict(answer.headers), answer.read())
        except urllib.error.HTTPError as refusal:
            return ServerResponse(refusal.code, dict(refusal.headers), refusal.read())


def behind_one_proxy(production_servers, **overrides: str) -> ProductionServer:
    return production_servers(workers=2, TRUSTED_PROXY_COUNT="1", CACHE_URL=CACHE_URL, **overrides)


def services(client: BehindTheBalancer, slug: str) -> int:
    return client.get(f"/api/v1/businesses/{slug}/services/").status_code


@pytest.mark.django_db(transaction=True)
def test_behind_a_proxy_each_client_has_its_own_rate_allowance_however_it_spoofs(
    production_servers,
    salon,  # noqa: F811
):
    server = behind_one_proxy(production_servers, PUBLIC_API_RATE="3/minute")
    first, second = an_address(), an_address()

    first_allowed = [services(BehindTheBalancer(server, first), salon.slug) for _ in range(3)]
    first_over = services(BehindTheBalancer(server, first), salon.slug)
    first_as_second = services(BehindTheBalancer(server, first, claims=second), salon.slug)
    first_as_another = services(BehindTheBalancer(server, first, claims=an_address()), salon.slug)
    second_allowed = services(BehindTheBalancer(server, second), salon.slug)

    assert first_allowed == [200, 200, 200]
    assert (first_over, first_as_second, first_as_another) == (429, 429, 429)
    assert second_allowed == 200


@pytest.mark.django_db(transaction=True)
def test_with_no_proxy_trusted_every_client_shares_the_connecting_address_allowance(
    production_servers,
    salon,  # noqa: F811
):
    # Every request comes from the loopback here; its count from an earlier run is cleared.
    RedisCache(CACHE_URL, {}).delete(f"throttle_public_{LOOPBACK}")
    server = production_servers(
        workers=2, TRUSTED_PROXY_COUNT="0", CACHE_URL=CACHE_URL, PUBLIC_API_RATE="3/minute"
    )

    first = [services(BehindTheBalancer(server, an_address()), salon.slug) for _ in range(3)]
    another = services(BehindTheBalancer(server, an_address()), salon.slug)

    assert first == [200, 200, 200]
    assert another == 429


# --- holds per address behind the proxy -------------------------------------------------------


def tomorrow_at(business, hour: int) -> dt.datetime:
    zone = ZoneInfo(business.time_zone)
    tomorrow = timezone.now().astimezone(zone).date() + dt.timedelta(days=1)
    return wall_to_instant(tomorrow, dt.time(hour), zone)


def hold(client: BehindTheBalancer, service, hour: int) -> ServerResponse:
    return client.post(
        f"/api/v1/businesses/{service.business.slug}/holds/",
        {
            "service": service.pk,
            "start": tomorrow_at(service.business, hour).isoformat(),
            "holder": secrets.token_hex(16),
        },
        content_type="application/json",
    )


@pytest.mark.django_db(transaction=True)
def test_behind_a_proxy_the_api_counts_holds_per_forwarded_client(
    production_servers,
    haircut,  # noqa: F811
):
    server = behind_one_proxy(production_servers, PUBLIC_API_RATE="1000/minute")
    first, second = an_address(), an_address()

    held = [hold(BehindTheBalancer(server, first), haircut, hour) for hour in (10, 11, 12)]
    spoofing = hold(BehindTheBalancer(server, first, claims=an_address()), haircut, 13)
    other_client = hold(BehindTheBalancer(server, second), haircut, 13)

    assert [response.status_code for response in held] == [201, 201, 201]
    assert spoofing.status_code == 409, spoofing.content
    assert spoofing.json()["code"] == "too_many_holds"
    assert other_client.status_code == 201, other_client.content


@pytest.fixture
def shop(salon, haircut):  # noqa: F811
    """The salon with its assistant's default grants, in a country, and a bookable haircut."""
    salon.country = "PT"
    salon.save()
    grants_set(business=salon)
    return salon


@pytest.mark.django_db(transaction=True)
def test_behind_a_proxy_the_chat_holds_per_forwarded_client_and_another_still_books(
    production_servers, shop
):
    server = behind_one_proxy(
        production_servers, PUBLIC_API_RATE="1000/minute", ORDINA_MODEL="offline"
    )
    first, second = an_address(), an_address()
    answers = []
    for hour, claims in ((10, ""), (11, ""), (12, ""), (13, an_address())):
        client = BehindTheBalancer(server, first, claims=claims)
        token = started(client, shop.slug)
        [answer] = chat(client, token, f"a haircut tomorrow at {hour}")
        answers.append(answer)

    assert [answer["conversation"]["state"] for answer in answers] == [
        "slot_held",
        "slot_held",
        "slot_held",
        "service_chosen",
    ]
    assert "the most one client may hold at once" in answers[-1]["reply"]["text"]

    other_client = BehindTheBalancer(server, second)
    token = started(other_client, shop.slug)
    chat(other_client, token, "a haircut tomorrow at 13", "Ana Silva", "ana@example.com")
    booked = confirm(other_client, token, key="behind-the-proxy-1")

    assert booked.status_code == 201, booked.content
    assert Appointment.objects.get().client.name == "Ana Silva"


# --- the sign-in lock-out behind the proxy ------------------------------------------------------


def sign_in(client: BehindTheBalancer, username: str, password: str) -> int:
    """Posts the dashboard's sign-in form as a browser does (its CSRF cookie and token): 302
    signed in, 200 the form again, 429 locked out."""
    form = client.get("/admin/login/")
    assert form.status_code == 200
    cookie = form.headers["Set-Cookie"].split(";")[0]
    token = form.content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    body = urllib.parse.urlencode(
        {
            "csrfmiddlewaretoken": token,
            "username": username,
            "password": password,
            "next": "/admin/",
        }
    ).encode()
    answer = client.send(
        "POST",
        "/admin/login/",
        body,
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
    )
    return answer.status_code


@pytest.mark.django_db(transaction=True)
def test_behind_a_proxy_the_sign_in_lockout_locks_the_client_not_everyone_behind_it(
    production_servers,
):
    server = behind_one_proxy(production_servers, PUBLIC_API_RATE="1000/minute")
    owner = UserFactory()
    # The test settings hash passwords with MD5 for speed; the production server knows only
    # its own hashers, so the password is stored as production stores it.
    hasher = PBKDF2PasswordHasher()
    owner.password = hasher.encode(PASSWORD, hasher.salt())
    owner.save(update_fields=["password"])
    guesser, colleague = an_address(), an_address()

    wrong = [sign_in(BehindTheBalancer(server, guesser), owner.username, "nope") for _ in range(5)]
    guesser_right = sign_in(BehindTheBalancer(server, guesser), owner.username, PASSWORD)
    guesser_spoofing = sign_in(
        BehindTheBalancer(server, guesser, claims=colleague), owner.username, PASSWORD
    )
    colleague_right = sign_in(BehindTheBalancer(server, colleague), owner.username, PASSWORD)

    assert wrong[:4] == [200, 200, 200, 200]
    assert (guesser_right, guesser_spoofing) == (429, 429)
    assert colleague_right == 302
