"""Every dashboard page an owner opens sends as many SQL statements with 12 rows in each of the
business's tables as with 2: nothing on a page reads once per row (a list column following a
foreign key row by row, an inline reading per row, a filter or a select built one row at a
time). Small numbers prove constancy; bench/admin_pages.py measures the same pages at 5,000
appointments and 1,000 clients.

The world and the pages come from bench/dashboard_world.py, shared with the benchmark.
"""

import pytest
from django.test import Client as HttpClient
from django.urls import reverse

from bench.dashboard_world import (
    FIXED_SIZE,
    Scale,
    dashboard_world,
    grow,
    owner_page_names,
    owner_pages,
    page_statements,
    pages_being_built,
)
from knowledge.models import KnowledgeSource
from tests.factories import PASSWORD

SMALL, LARGE = 2, 12


@pytest.fixture
def world(db):
    world = dashboard_world(slug="counted-salon", owner_username="counted-owner", password=PASSWORD)
    grow(world, Scale.rows(SMALL))
    return world


@pytest.fixture
def owner_http(world) -> HttpClient:
    http = HttpClient()
    assert http.login(username="counted-owner", password=PASSWORD)
    return http


def listed(response) -> int | None:
    """Rows a changelist found (None for any other page)."""
    changelist = (response.context or {}).get("cl")
    return None if changelist is None else changelist.result_count


@pytest.mark.parametrize("name", owner_page_names())
def test_an_owners_page_sends_as_many_queries_with_12_rows_as_with_2(name, world, owner_http):
    [page] = [page for page in owner_pages(world) if page.name == name]
    small_statements, small = page_statements(owner_http, page.url)
    assert small.status_code == 200

    grow(world, Scale.rows(LARGE))
    large_statements, large = page_statements(owner_http, page.url)

    assert large.status_code == 200
    assert large_statements == small_statements
    model_name, _, kind = name.partition(" ")
    if kind == "list" and model_name not in FIXED_SIZE:
        # The list shows the rows added: the count above is of a page that grew.
        assert listed(large) > listed(small) >= SMALL


@pytest.mark.parametrize("name", ["calendar", "hours grid", "analytics"])
def test_a_new_dashboard_page_sends_as_many_queries_with_12_rows_as_with_2(name, world, owner_http):
    [page] = [page for page in pages_being_built(world) if page.name == name]
    first = owner_http.get(page.url, follow=True)
    assert first.status_code == 200, f"{page.url} answers {first.status_code}"
    url = first.redirect_chain[-1][0] if first.redirect_chain else page.url
    small_statements, _ = page_statements(owner_http, url)

    grow(world, Scale.rows(LARGE))
    large_statements, large = page_statements(owner_http, url)

    assert large.status_code == 200
    assert large_statements == small_statements


def test_the_knowledge_list_counts_the_text_read_without_fetching_it(world, owner_http):
    grow(world, Scale.rows(LARGE))

    response = owner_http.get(reverse("admin:knowledge_knowledgesource_changelist"))

    shown = response.context["cl"].result_list
    assert len(shown) == LARGE
    # Each row's text (some 40,000 characters here, megabytes from a long document) stays in
    # the database; its length comes counted.
    assert all("text" in row.get_deferred_fields() for row in shown)
    characters = len(KnowledgeSource.objects.get(pk=shown[0].pk).text)
    assert f'<td class="field-text_length">{characters:,}</td>' in response.text
