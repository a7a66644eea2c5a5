"""The client's pages: what a first visit downloads, in a real browser, and what each page
costs the server against a bare page through the same stack.

    .venv/bin/python bench/widget.py [--repeats 50] [--database ordina_bench_widget]

A salon (Europe/Lisbon, open 09:00–17:00 every day, one service, the agent's default grants)
with one booked appointment, served by Django's live-server thread (the test suite's) on a
free local port with the static files, against a database of this script's own (dropped and
created). Chromium ($CHROMIUM, else `chromium` on the PATH) with an empty cache opens:
- the hosted booking page, /b/<slug>/, until the assistant's greeting is on screen;
- the client's appointment page, /manage/<token>/;
- a page of another origin (served by this script on 127.0.0.1) carrying the embed snippet,
  until the launcher shows: what a business's own site pays before anyone opens the widget.
Every response is counted, uncompressed (the body as decoded), by kind: the document, CSS,
JavaScript, the icon, and the API's JSON. first_load_kb is HTML + CSS + JS + icon of the
booking page (the API's JSON is printed apart: it is the conversation, not the page); its goal
is <= 60 KB, printed as first_load_vs_goal (<= 1 meets it). third_party counts requests to
any host but the server, across all three visits (goal 0).

Server time: each page requested --repeats times through django.test.Client (the same
middleware, CSP and all), after 5 untimed requests, interleaved with a bare page — a view of
this script's own URLconf that renders the pages' shared layout (templates/pages/base.html)
with nothing in it, through the same stack — so both
see the same machine. Per page: median ms, the ratio to the bare page's median, and its SQL
statements (CaptureQueriesContext).

Last line: first_load_kb, first_load_vs_goal, html_kb, css_kb, js_kb, api_kb, requests,
third_party, widget_site_kb, manage_kb, booking_p50_ms, manage_p50_ms, widget_js_p50_ms,
bare_p50_ms, booking_vs_bare, manage_vs_bare, queries_booking, queries_manage.
"""

import argparse
import os
import shutil
import socket
import sys
import threading
import time
import types
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import harness

SNIPPET_PAGE = (
    "<!doctype html><title>A salon's own site</title><h1>Our salon</h1>"
    '<script src="{base}/widget.js" data-business="{slug}" async></script>'
)
GOAL_KB = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def configure(port: int) -> str:
    """Environment read by the settings: run before Django starts."""
    base = f"http://localhost:{port}"
    os.environ["PUBLIC_URL"] = base
    os.environ["PUBLIC_API_RATE"] = "100000/minute"
    return base


def salon_with_a_booking() -> tuple[str, str]:
    """The business's slug and the manage token of its one appointment."""
    from agent.services import grants_set
    from bookings.services import ClientDetails
    from bookings.tokens import manage_token
    from orchestration.appointment_changes import appointment_create

    service = harness.open_business(slug="studio-lumen", capacity=1)
    grants_set(business=service.business)
    [start] = harness.distinct_starts(service, 1)
    outcome = appointment_create(
        service=service,
        start=start,
        client=ClientDetails(name="Ana Silva", email="ana@example.com", phone=""),
    )
    return service.business.slug, manage_token(outcome.appointment.public_id)


def serve_other_site(page: str) -> tuple[ThreadingHTTPServer, str]:
    """A business's own website, on another origin: one page carrying the snippet."""
    body = page.encode()

    class OneSnippetPage(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), OneSnippetPage)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


def serve(port: int):
    """Django's live-server thread, static files included; its requests open their own
    connections (everything it reads is committed)."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread

    server = LiveServerThread("localhost", StaticFilesHandler, port=port)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    return server


# --- first load in the browser ----------------------------------------------------------------


KINDS = {"document": "html", "stylesheet": "css", "script": "js", "fetch": "api", "xhr": "api"}


def visit(browser, url: str, ready: str, server_host: str) -> tuple[Counter, int, int]:
    """Bytes per kind, requests made, requests to a host other than the server's (the visited
    page itself excepted: the other site's, in the snippet's visit)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    responses = []
    page.on("response", lambda response: responses.append(response))
    page.goto(url, wait_until="networkidle")
    page.locator(ready).first.wait_for()
    page.wait_for_load_state("networkidle")
    sizes: Counter = Counter()
    foreign = 0
    for response in responses:
        request = response.request
        if request.url == url:
            kind = "html"
        else:
            kind = KINDS.get(request.resource_type, "other")
            foreign += urlsplit(request.url).hostname != server_host
        if os.environ.get("BENCH_VERBOSE"):
            print(f"  {response.status} {request.resource_type:<10} {request.url}")
        if not 300 <= response.status < 400:  # a redirect has no body to read
            sizes[kind] += len(response.body())
    context.close()
    return sizes, len(responses), foreign


def first_loads(base: str, slug: str, token: str) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not chromium:
        sys.exit("Chromium is not installed: apt-get install chromium, or set CHROMIUM.")
    host = urlsplit(base).hostname
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium)
        booking, requests, foreign = visit(browser, f"{base}/b/{slug}/", ".message", host)
        manage_url = f"{base}/manage/{token}/"
        manage, manage_requests, manage_foreign = visit(browser, manage_url, "h1", host)
        other, other_url = serve_other_site(SNIPPET_PAGE.format(base=base, slug=slug))
        site, _site_requests, site_foreign = visit(browser, other_url, "button", host)
        other.shutdown()
        browser.close()
    page_bytes = booking["html"] + booking["css"] + booking["js"] + booking["other"]
    for kind, count in sorted(booking.items()):
        print(f"booking page  {kind:<5} {count / 1024:7.1f} KB")
    print(f"booking page  requests {requests}; manage page requests {manage_requests}")
    return {
        "first_load_kb": round(page_bytes / 1024, 1),
        "first_load_vs_goal": round(page_bytes / 1024 / GOAL_KB, 2),
        "html_kb": round(booking["html"] / 1024, 1),
        "css_kb": round(booking["css"] / 1024, 1),
        "js_kb": round(booking["js"] / 1024, 1),
        "api_kb": round(booking["api"] / 1024, 1),
        "requests": requests,
        "third_party": foreign + manage_foreign + site_foreign,
        "widget_site_kb": round(sum(site.values()) / 1024, 1),
        "manage_kb": round(sum(manage.values()) / 1024, 1),
    }


# --- server time ------------------------------------------------------------------------------


def bare_urlconf() -> str:
    """This script's URLconf: a bare page (the pages' shared layout with nothing in it,
    rendered through the same middleware), then the project's routes unchanged. Returns its
    module name."""
    from django.http import HttpResponse
    from django.template import engines
    from django.urls import include, path

    template = engines["django"].get_template("pages/base.html")

    def bare(request):
        return HttpResponse(template.render({}, request))

    module = types.ModuleType("bench_widget_urls")
    module.urlpatterns = [path("bench/bare/", bare), path("", include("ordina.urls"))]
    sys.modules[module.__name__] = module
    return module.__name__


def server_times(slug: str, token: str, repeats: int) -> dict[str, float]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    pages = {
        "booking": f"/b/{slug}/",
        "manage": f"/manage/{token}/",
        "widget_js": "/widget.js",
        "bare": "/bench/bare/",
    }
    http = Client(SERVER_NAME="localhost")
    times: dict[str, list[float]] = {name: [] for name in pages}
    queries: dict[str, int] = {}
    with override_settings(ROOT_URLCONF=bare_urlconf()):
        for name, path in pages.items():
            for _ in range(5):
                assert http.get(path).status_code == 200, path
            with CaptureQueriesContext(connection) as captured:
                http.get(path)
            queries[name] = len(captured)
        for _ in range(repeats):
            for name, path in pages.items():
                began = time.perf_counter()
                http.get(path)
                times[name].append((time.perf_counter() - began) * 1000)
    medians = {name: harness.median(values) for name, values in times.items()}
    for name, value in medians.items():
        print(f"server  {name:<9} p50 {value:6.2f} ms  queries {queries[name]}")
    return {
        "booking_p50_ms": round(medians["booking"], 2),
        "manage_p50_ms": round(medians["manage"], 2),
        "widget_js_p50_ms": round(medians["widget_js"], 2),
        "bare_p50_ms": round(medians["bare"], 2),
        "booking_vs_bare": round(medians["booking"] / medians["bare"], 2),
        "manage_vs_bare": round(medians["manage"] / medians["bare"], 2),
        "queries_booking": queries["booking"],
        "queries_manage": queries["manage"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--database", default="ordina_bench_widget")
    args = parser.parse_args()
    port = free_port()
    base = configure(port)
    harness.bench_database(args.database)
    # Playwright's sync API runs an event loop in this thread; the ORM calls below run
    # between its calls, never inside them.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    slug, token = salon_with_a_booking()
    server = serve(port)
    try:
        loads = first_loads(base, slug, token)
    finally:
        server.terminate()
    times = server_times(slug, token, args.repeats)
    print(harness.summary(**loads, **times))


if __name__ == "__main__":
    main()
