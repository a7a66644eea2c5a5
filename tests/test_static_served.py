"""The production server serves its own static files (whitenoise), so one process needs no web
server in front of it: with DEBUG off, a page names its files under content-hashed names, each
answers with a cache a year long that never revalidates, compressed when the browser accepts
it, and a file that does not exist is a plain 404, never an error.

The server is gunicorn on the production settings (``production_servers``), over real HTTP, with
the files gathered by ``collectstatic`` as the release step gathers them.
"""

import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

import pytest

from tests.factories import BusinessFactory
from tests.servers import ProductionServer

# ManifestStaticFilesStorage names a file "name.<12 hex digits of its content's hash>.ext".
STATIC_REFERENCE = re.compile(r"""(?:src|href)=["'](/static/[^"']+)["']""")
HASHED = re.compile(r"/static/.+\.[0-9a-f]{12}\.\w+$")
# A module script's static imports: `import {…} from "./api.js";`, `export … from "./x.js";`.
MODULE_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}/[^"']+)["']""", re.M
)
A_YEAR = 365 * 24 * 60 * 60
DEBUG_PAGE = "you have <code>DEBUG = True</code>"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


def get(server: ProductionServer, path: str, **headers: str) -> Answer:
    """One GET, as a browser sends it; nothing is decompressed or followed."""
    url = f"http://127.0.0.1:{server.port}{path}"
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            return Answer(answer.status, dict(answer.headers), answer.read())
    except urllib.error.HTTPError as refusal:
        return Answer(refusal.code, dict(refusal.headers), refusal.read())


def max_age(cache_control: str) -> int:
    found = re.search(r"max-age=(\d+)", cache_control)
    return int(found.group(1)) if found else 0


@pytest.fixture
def server(production_servers) -> ProductionServer:
    return production_servers(workers=1)


@pytest.fixture
def booking_page(server) -> Answer:
    business = BusinessFactory()
    page = get(server, f"/b/{business.slug}/")
    assert page.status == 200, page.text[:2000]
    return page


@pytest.mark.django_db(transaction=True)
def test_the_booking_page_names_its_static_files_under_hashed_names(booking_page):
    named = STATIC_REFERENCE.findall(booking_page.text)

    assert len(named) >= 4, named  # the icon, two style sheets, the scripts
    assert [path for path in named if not HASHED.search(path)] == []


@pytest.mark.django_db(transaction=True)
def test_each_static_file_of_the_page_is_served_cached_for_a_year_and_immutable(
    server, booking_page
):
    for path in STATIC_REFERENCE.findall(booking_page.text):
        served = get(server, path)

        assert served.status == 200, path
        assert served.body, path
        cache_control = served.headers["Cache-Control"]
        assert "immutable" in cache_control, (path, cache_control)
        assert max_age(cache_control) >= A_YEAR, (path, cache_control)
        assert "Content-Encoding" not in served.headers  # asked for nothing compressed


@pytest.mark.django_db(transaction=True)
def test_the_modules_a_page_script_imports_are_hashed_and_immutable_too(server, booking_page):
    """A hashed script cached for a year must import modules that are hashed too: otherwise a
    browser runs last release's cached script with this release's modules (or the reverse),
    and each module is fetched again every minute."""
    pending = [path for path in STATIC_REFERENCE.findall(booking_page.text) if path.endswith(".js")]
    seen: set[str] = set()
    imported: list[str] = []
    while pending:
        script = pending.pop()
        if script in seen:
            continue
        seen.add(script)
        served = get(server, script)
        assert served.status == 200, script
        for relative in MODULE_IMPORT.findall(served.text):
            module = urllib.parse.urljoin(script, relative)
            imported.append(module)
            pending.append(module)

    assert imported, "the booking page's script imports no module"
    assert [module for module in imported if not HASHED.search(module)] == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_a_browser_accepting_compression_gets_the_compressed_copy(server, booking_page, encoding):
    [style_sheet, *_] = [
        path for path in STATIC_REFERENCE.findall(booking_page.text) if path.endswith(".css")
    ]
    plain = get(server, style_sheet)

    compressed = get(server, style_sheet, **{"Accept-Encoding": encoding})

    assert compressed.status == 200
    assert compressed.headers["Content-Encoding"] == encoding
    assert len(compressed.body) < len(plain.body)
    assert "Accept-Encoding" in compressed.headers["Vary"]
    assert "immutable" in compressed.headers["Cache-Control"]


@pytest.mark.django_db(transaction=True)
def test_a_missing_static_file_is_a_plain_404_and_the_health_checks_still_answer(server):
    missing = get(server, "/static/pages/no-such-file.css")
    missing_hashed = get(server, "/static/pages/ordina.0123456789ab.css")
    live = get(server, "/health/live")
    ready = get(server, "/health/ready")

    assert (missing.status, missing_hashed.status) == (404, 404)
    assert DEBUG_PAGE not in missing.text  # DEBUG is off: no technical page
    assert live.status == 200
    assert ready.status == 200, ready.text
