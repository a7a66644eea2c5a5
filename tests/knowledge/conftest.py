"""A real HTTP server on 127.0.0.1 serving the pages under ``pages/`` and the ways a page fails:
a missing page, a body too large, a document served from a URL, a redirect, a page that does
not answer until the test ends. Uploaded files go to a temporary directory per test."""

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.knowledge.documents import pdf_with_lines

PAGES = Path(__file__).parent / "pages"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
# Longer than any time limit a test gives a read of it.
SLOW_PAGE_SECONDS = 60.0
# The FAQ page is Latin-1, as its own header says.
LATIN_1_PAGES = {"no-main.html"}


@dataclass
class PageServer:
    base_url: str
    requests: list[str] = field(default_factory=list)
    redirects: dict[str, str] = field(default_factory=dict)
    # Set when the server stops: what "slow.html" waits for before it answers.
    stopping: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path}"


class PageRequestHandler(BaseHTTPRequestHandler):
    server: "PageHTTPServer"

    def do_GET(self) -> None:
        path = urlsplit(self.path).path.lstrip("/")
        self.server.pages.requests.append(path)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.answer(path)

    def answer(self, path: str) -> None:
        if path in self.server.pages.redirects:
            self.send_response(302)
            self.send_header("Location", self.server.pages.redirects[path])
            self.end_headers()
        elif path == "price-list.pdf":
            self.send_body(pdf_with_lines("Gift vouchers from 25 euros."), "application/pdf")
        elif path == "logo.png":
            self.send_body(b"\x89PNG\r\n\x1a\n" + bytes(64), "image/png")
        elif path == "slow.html":
            self.server.pages.stopping.wait(SLOW_PAGE_SECONDS)
            self.send_body(b"<p>Too late.</p>", "text/html")
        elif path == "big.html":
            self.send_body(b"<p>" + b"word " * 2000 + b"</p>", "text/html")
        elif (PAGES / path).is_file() and (PAGES / path).parent == PAGES:
            file = PAGES / path
            kind = CONTENT_TYPES[file.suffix]
            if path in LATIN_1_PAGES:
                kind = "text/html; charset=iso-8859-1"
            self.send_body(file.read_bytes(), kind)
        else:
            self.send_error(404)

    def send_body(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class PageHTTPServer(ThreadingHTTPServer):
    pages: PageServer


@contextlib.contextmanager
def serving(host: str) -> Iterator[PageServer]:
    server = PageHTTPServer((host, 0), PageRequestHandler)
    bound_host, port = server.server_address[:2]
    server.pages = PageServer(base_url=f"http://{bound_host!s}:{port}")
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server.pages
    finally:
        server.pages.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def page_server() -> Iterator[PageServer]:
    with serving("127.0.0.1") as pages:
        yield pages


@pytest.fixture
def inner_server() -> Iterator[PageServer]:
    """A second server, on another loopback address: "inside the network" for the tests that
    treat 127.0.0.1 as the public internet."""
    with serving("127.0.0.2") as pages:
        yield pages


@pytest.fixture(autouse=True)
def uploads_in_a_temporary_directory(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
