"""The owner's dashboard at a salon's size: SQL statements and server time of every page an
owner opens, with a small business and with a busy one, side by side.

    .venv/bin/python bench/admin_pages.py [--appointments 5000] [--clients 1000] [--repeats 15]

One business (bench/dashboard_world.py), filled in bulk: first to the small scale (50
appointments, 10 clients, and the rest in a salon's proportions: deposits, refunds, reminders,
history, conversations with their messages, audit entries, guard rewrites, busy blocks,
knowledge sources), measured; then topped up to the full scale (5,000 appointments, 1,000
clients) and measured again, the same pages on the same rows. The owner is signed in with
Django's test client (in process, the whole middleware stack, CSP and sessions included).

Per page and scale: its SQL statements (CaptureQueriesContext, one request after two untimed
ones); the median of --repeats timed requests, pages interleaved so all see the same machine,
and the median of those requests' time waiting for the database (an execute wrapper); the rows
a list shows (at most 100 a page: a small business's lists show fewer, so their time grows up
to that page size) and the page's HTML. The baseline, in the same run: the admin's
password-change form (a page of the same site, with the same header and session, that reads no
business data). The calendar, the hours grid and analytics are measured where they answer 200
(after the calendar's redirect to its default day) and otherwise listed as not measured, with
what they answered.

Last line: pages (measured), not_measured, growing (pages whose statements grew with the data;
goal 0), the most statements any page sent at full scale, the slowest page at full scale and
its median, the baseline's median at both scales.
"""

import argparse
import time
from dataclasses import dataclass, replace

import dashboard_world
import harness

SMALL = {"appointments": 50, "clients": 10}
PASSWORD = "bench-owner-password"  # noqa: S105 - a throw-away database's only user


@dataclass(frozen=True)
class Figures:
    queries: int  # SQL statements of one request
    ms: float  # median server time
    sql_ms: float  # median time of those requests spent waiting for the database
    rows: int  # rows a list page shows (0 for other pages)
    kb: float  # the page's HTML


class DatabaseTime:
    """An execute wrapper adding up the time statements take, as the server waits for them."""

    def __init__(self) -> None:
        self.ms = 0.0

    def __call__(self, execute, sql_text, params, many, context):
        began = time.perf_counter()
        try:
            return execute(sql_text, params, many, context)
        finally:
            self.ms += (time.perf_counter() - began) * 1000


def median_ms(http, urls: list[str], repeats: int) -> dict[str, tuple[float, float]]:
    """(median ms, median ms in the database) per URL."""
    from django.db import connection

    times: dict[str, list[float]] = {url: [] for url in urls}
    waits: dict[str, list[float]] = {url: [] for url in urls}
    for _ in range(repeats):
        for url in urls:
            database = DatabaseTime()
            began = time.perf_counter()
            with connection.execute_wrapper(database):
                http.get(url)
            times[url].append((time.perf_counter() - began) * 1000)
            waits[url].append(database.ms)
    return {url: (harness.median(times[url]), harness.median(waits[url])) for url in urls}


def rows_shown(html: bytes) -> int:
    """Rows of a list page's result table (its header row not counted)."""
    start = html.find(b'id="result_list"')
    if start < 0:
        return 0
    end = html.find(b"</table>", start)
    return max(0, html.count(b"<tr", start, end) - 1)


def measure(http, pages, repeats: int) -> dict[str, Figures]:
    """Figures per page name; every page must answer 200."""
    counted = {}
    for page in pages:
        statements, response = dashboard_world.page_statements(http, page.url)
        if response.status_code != 200:
            raise SystemExit(f"{page.name} ({page.url}) answered {response.status_code}")
        counted[page.name] = (statements, response.content)
    medians = median_ms(http, [page.url for page in pages], repeats)
    figures = {}
    for page in pages:
        statements, html = counted[page.name]
        ms, sql_ms = medians[page.url]
        figures[page.name] = Figures(statements, ms, sql_ms, rows_shown(html), len(html) / 1024)
    return figures


def answering(http, pages) -> tuple[list, list[str]]:
    """The pages that answer 200, at the address they redirect to (the calendar sends a bare
    visit on to its default day), and a line for each that does not."""
    present, absent = [], []
    for page in pages:
        try:
            response = http.get(page.url, follow=True)
        except Exception as exc:  # a page half-built: it is not measured, and says why
            absent.append(f"not measured: {page.name} ({page.url}) raised {exc!r}")
            continue
        if response.status_code == 200:
            final = response.redirect_chain[-1][0] if response.redirect_chain else page.url
            present.append(replace(page, url=final))
        else:
            absent.append(f"not measured: {page.name} ({page.url}) answered {response.status_code}")
    return present, absent


def table(small: dict[str, Figures], full: dict[str, Figures]) -> list[str]:
    """Per page: statements, median ms (of which in the database), rows listed and HTML, small
    and at scale side by side, and the ratio of the medians."""
    lines = [
        f"{'':<24} {'queries':>15} {'median ms':>15} {'ratio':>5} {'of it SQL ms':>15}"
        f" {'rows':>9} {'KB':>13}",
        f"{'page':<24} {'small':>7} {'scale':>7} {'small':>7} {'scale':>7} {'':>5}"
        f" {'small':>7} {'scale':>7} {'sm':>4} {'sc':>4} {'small':>6} {'scale':>6}",
    ]
    for name, before in small.items():
        after = full[name]
        grew = "  <- grows" if after.queries != before.queries else ""
        lines.append(
            f"{name:<24} {before.queries:>7} {after.queries:>7} {before.ms:>7.1f} {after.ms:>7.1f}"
            f" {after.ms / before.ms:>5.2f} {before.sql_ms:>7.1f} {after.sql_ms:>7.1f}"
            f" {before.rows:>4} {after.rows:>4} {before.kb:>6.1f} {after.kb:>6.1f}{grew}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appointments", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--database", default="ordina_bench_admin_pages")
    args = parser.parse_args()

    harness.bench_database(args.database)
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    world = dashboard_world.dashboard_world(
        slug="busy-salon", owner_username="owner", password=PASSWORD
    )
    dashboard_world.grow(world, dashboard_world.Scale.of_a_salon(**SMALL))
    http = Client(SERVER_NAME="localhost")  # a host the test settings allow
    assert http.login(username="owner", password=PASSWORD)

    baseline = dashboard_world.Page("baseline", reverse("admin:password_change"))
    present, absent = answering(http, dashboard_world.pages_being_built(world))
    pages = [baseline, *dashboard_world.owner_pages(world), *present]

    def analysed_measure() -> dict[str, Figures]:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # what autovacuum would have done after the inserts
        return measure(http, pages, args.repeats)

    small = analysed_measure()
    full_scale = dashboard_world.Scale.of_a_salon(
        appointments=args.appointments, clients=args.clients
    )
    dashboard_world.grow(world, full_scale)
    full = analysed_measure()

    print(f"small: {dashboard_world.Scale.of_a_salon(**SMALL)}")
    print(f"full:  {full_scale}")
    for line in table(small, full):
        print(line)
    for line in absent:
        print(line)
    growing = [name for name in small if full[name].queries != small[name].queries]
    slowest = max((name for name in full if name != "baseline"), key=lambda n: full[n].ms)
    print(
        harness.summary(
            appointments=args.appointments,
            clients=args.clients,
            pages=len(pages) - 1,
            not_measured=len(absent),
            growing=len(growing),
            max_queries=max(f.queries for name, f in full.items() if name != "baseline"),
            slowest=slowest.replace(" ", "_"),
            slowest_p50_ms=round(full[slowest].ms, 1),
            baseline_p50_ms=round(small["baseline"].ms, 1),
            baseline_p50_ms_at_scale=round(full["baseline"].ms, 1),
        )
    )


if __name__ == "__main__":
    main()
