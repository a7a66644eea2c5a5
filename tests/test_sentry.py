"""Error reports: sent to Sentry only when SENTRY_DSN is set, tagged with the request id, and
without what a request carries that is the client's or a secret (cookies, body, the path's
token, the query string, the Referer). A local HTTP server stands in for Sentry's ingest; each
case loads the production settings in a fresh interpreter, as a deployment would."""

import gzip
import json
import threading
import uuid
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import brotli
import pytest

from tests.test_settings import PRODUCTION_ENV, load_production

SECRET_TOKEN = "tok-" + uuid.uuid4().hex
SECRET_QUERY = "q-" + uuid.uuid4().hex
SECRET_COOKIE = "cookie-" + uuid.uuid4().hex
SECRET_BODY = "body-" + uuid.uuid4().hex

DECODERS = {"gzip": gzip.decompress, "br": brotli.decompress, "deflate": zlib.decompress}


class Ingest(ThreadingHTTPServer):
    """Keeps the body of every envelope posted to it, decompressed."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), IngestHandler)
        self.envelopes: list[bytes] = []

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.server_address[1]}/1"


class IngestHandler(BaseHTTPRequestHandler):
    server: Ingest

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        encoding = self.headers.get("Content-Encoding")
        self.server.envelopes.append(DECODERS[encoding](body) if encoding else body)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass  # the test reads what was received, not this server's own lines


@pytest.fixture
def ingest() -> Iterator[Ingest]:
    server = Ingest()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def events(envelopes: list[bytes]) -> list[dict]:
    """The error events in Sentry envelopes (a header line, then item header and payload
    lines, each JSON)."""
    found = []
    for envelope in envelopes:
        for line in envelope.splitlines():
            item = json.loads(line)
            if isinstance(item, dict) and "exception" in item:
                found.append(item)
    return found


# A view that fails, reached as a WSGI server reaches Django (so through Sentry's own wrapper,
# which the test client skips) and every middleware of the production settings: a POST with a
# token in its path, a query string, a session cookie, a body and a Referer (the API's paths
# read no session, so nothing reaches the database). Prints the response's request id. The
# secrets come from the environment: the program's own lines are sent as the stack's context.
SECRETS = {
    "SECRET_TOKEN": SECRET_TOKEN,
    "SECRET_QUERY": SECRET_QUERY,
    "SECRET_COOKIE": SECRET_COOKIE,
    "SECRET_BODY": SECRET_BODY,
    "CLIENT_ADDRESS": "203.0.113.7",  # the client's, personal
}
FAILING_REQUEST = """
import io, os, sys, types
import sentry_sdk
from django.core.wsgi import get_wsgi_application
from django.test import override_settings
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

@csrf_exempt  # as the API's views are
def broken(request, token):
    raise RuntimeError("broken on purpose")

urls = types.ModuleType("failing_urls")
urls.urlpatterns = [path("api/broken/<str:token>/", broken)]
sys.modules["failing_urls"] = urls
secret = os.environ.__getitem__
body = f"card={secret('SECRET_BODY')}".encode()
environ = {
    "REQUEST_METHOD": "POST",
    "SCRIPT_NAME": "",
    "PATH_INFO": f"/api/broken/{secret('SECRET_TOKEN')}/",
    "QUERY_STRING": f"q={secret('SECRET_QUERY')}",
    "CONTENT_TYPE": "application/x-www-form-urlencoded",
    "CONTENT_LENGTH": str(len(body)),
    "SERVER_NAME": "book.ordina.example",
    "SERVER_PORT": "443",
    "REMOTE_ADDR": secret("CLIENT_ADDRESS"),
    "HTTP_HOST": "book.ordina.example",
    "HTTP_COOKIE": f"sessionid={secret('SECRET_COOKIE')}",
    "HTTP_REFERER": f"https://book.ordina.example/manage/{secret('SECRET_TOKEN')}/",
    "wsgi.input": io.BytesIO(body),
    "wsgi.url_scheme": "https",
    "wsgi.errors": sys.stderr,
}
answered = {}

def start_response(status, headers, exc_info=None):
    answered.update(status=status, headers=dict(headers))

with override_settings(ROOT_URLCONF="failing_urls"):
    b"".join(get_wsgi_application()(environ, start_response))
assert answered["status"].startswith("500"), answered["status"]
sentry_sdk.flush(timeout=10)
print(answered["headers"]["X-Request-ID"])
"""


def test_a_failing_request_is_reported_with_its_request_id_and_without_its_secrets(ingest):
    env = {**PRODUCTION_ENV, **SECRETS, "SENTRY_DSN": ingest.dsn, "SENTRY_RELEASE": "ordina@1.2.3"}

    result = load_production(env, FAILING_REQUEST)

    assert result.returncode == 0, result.stderr
    (event,) = events(ingest.envelopes)
    (exception,) = event["exception"]["values"]
    assert exception["type"] == "RuntimeError"
    assert exception["value"] == "broken on purpose"
    assert event["tags"]["request_id"] == result.stdout.strip()
    assert event["environment"] == "production"
    assert event["release"] == "ordina@1.2.3"
    assert event["transaction"] == "/api/broken/{token}/"  # the route names it
    assert event["request"]["method"] == "POST"
    assert event["request"]["headers"]["Host"] == "book.ordina.example"
    received = b"".join(ingest.envelopes).decode()
    for secret in SECRETS.values():
        assert secret not in received


@pytest.mark.parametrize(
    ("dsn", "active"),
    [(None, "False"), ("", "False"), ("   ", "False"), ("set", "True")],
    ids=["unset", "empty", "blank", "set"],
)
def test_sentry_is_initialised_only_when_sentry_dsn_is_set(ingest, dsn, active):
    env = dict(PRODUCTION_ENV)
    if dsn is not None:
        env["SENTRY_DSN"] = ingest.dsn if dsn == "set" else dsn

    result = load_production(env, "import sentry_sdk; print(sentry_sdk.get_client().is_active())")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == active


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("SENTRY_DSN", "not-a-dsn", "SENTRY_DSN is not a Sentry DSN"),
        ("SENTRY_DSN", "http://127.0.0.1:9/1", "SENTRY_DSN is not a Sentry DSN (Missing public"),
        ("SENTRY_DSN", "ftp://key@sentry.example/1", "SENTRY_DSN is not a Sentry DSN"),
        ("SENTRY_TRACES_SAMPLE_RATE", "2", "SENTRY_TRACES_SAMPLE_RATE must be between 0 and 1"),
    ],
)
def test_a_malformed_sentry_setting_refuses_to_start_with_a_message(name, value, message):
    env = {**PRODUCTION_ENV, "SENTRY_DSN": "http://publickey@127.0.0.1:9/1", name: value}

    result = load_production(env)

    assert result.returncode != 0
    assert f"ImproperlyConfigured: {message}" in result.stderr
    assert "sentry_sdk/" not in result.stderr  # said by the settings, not from inside the SDK
