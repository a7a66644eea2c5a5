"""An https feed is connected to at the address its name resolved to and was checked at, yet
TLS still speaks to the name: SNI carries it, and the certificate must be valid for it.

A test certificate authority is made for the test run (openssl), trusted through SSL_CERT_FILE,
which the fetch's default TLS context reads; the feed server's certificate names "localhost"
only.
"""

import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bookings.calendar_fetch import FeedUnreadable, fetch_feed
from tests.bookings.calendar.conftest import (
    FeedHTTPServer,
    FeedRequestHandler,
    FeedServer,
)

LEAF_EXTENSIONS = """\
subjectAltName = DNS:localhost
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
"""


def openssl(*arguments: str, cwd: Path) -> None:
    subprocess.run(["openssl", *arguments], cwd=cwd, check=True, capture_output=True)  # noqa: S607


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> Path:
    """ca.pem, and localhost.pem/localhost.key signed by it, valid for two days."""
    where = tmp_path_factory.mktemp("tls")
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    openssl(
        "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=Ordina test CA",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        cwd=where,
    )  # fmt: skip
    openssl(
        "req", *ec, "-keyout", "localhost.key", "-out", "localhost.csr", "-subj", "/CN=localhost",
        cwd=where,
    )  # fmt: skip
    (where / "leaf.ext").write_text(LEAF_EXTENSIONS)
    openssl(
        "x509", "-req", "-in", "localhost.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "localhost.pem", "-days", "2", "-extfile", "leaf.ext",
        cwd=where,
    )  # fmt: skip
    return where


@pytest.fixture
def tls_feed_server(certificates, monkeypatch) -> Iterator[tuple[FeedServer, list[str | None]]]:
    """The feed server on 127.0.0.1 over TLS, and the server names clients asked for (SNI)."""
    monkeypatch.setenv("SSL_CERT_FILE", str(certificates / "ca.pem"))
    names_asked: list[str | None] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificates / "localhost.pem", certificates / "localhost.key")
    context.sni_callback = lambda _socket, name, _context: names_asked.append(name)

    server = FeedHTTPServer(("127.0.0.1", 0), FeedRequestHandler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    port = server.server_address[1]
    server.feeds = FeedServer(base_url=f"https://localhost:{port}")
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server.feeds, names_asked
    server.shutdown()
    server.server_close()
    thread.join()


def test_https_to_the_checked_address_speaks_tls_to_the_name_in_the_url(tls_feed_server):
    feeds, names_asked = tls_feed_server

    body = fetch_feed(feeds.url("owner.ics"), timeout=5)

    assert body.startswith(b"BEGIN:VCALENDAR")
    assert names_asked == ["localhost"]


def test_a_certificate_that_does_not_name_the_url_host_is_refused(tls_feed_server):
    # Given the same server reached by its address, which its certificate does not name
    feeds, _ = tls_feed_server
    by_address = feeds.url("owner.ics").replace("//localhost:", "//127.0.0.1:")

    with pytest.raises(FeedUnreadable) as refusal:
        fetch_feed(by_address, timeout=5)

    assert refusal.value.message.startswith(
        "Could not read the calendar feed: the secure connection to 127.0.0.1 failed"
    )
    assert "CERTIFICATE_VERIFY_FAILED" in refusal.value.message
    assert feeds.requests == []
