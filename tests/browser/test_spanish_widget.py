"""The widget on a Spanish site, in a real browser: its button and its dialog speak the site's
language (the page's ``<html lang>``, or the snippet's ``data-lang``), and the booking page it
opens speaks the business's. The words come from the server with the script."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_embed import (  # noqa: F401 - other_site is a fixture
    SITE_PAGE,
    other_site,
    salon,
    site_origin,
    snippet,
)


def test_on_a_spanish_site_the_widget_speaks_spanish(page, site, other_site, axe_violations):  # noqa: F811
    url = other_site("/", "")
    business = salon(embed_origins=site_origin(url), language="es")
    spanish_site = SITE_PAGE.replace('<html lang="en">', '<html lang="es">')
    other_site("/", spanish_site.format(snippets=snippet(site, business.slug)))

    page.goto(url)
    page.get_by_role("button", name="Reservar cita").click()

    dialog = page.get_by_role("dialog", name="Reservar cita")
    expect(dialog).to_be_visible()
    expect(page.get_by_role("button", name="Cerrar")).to_be_visible()
    frame = page.frame_locator('iframe[title="Reservar cita"]')
    expect(frame.get_by_role("heading", name="Hable con nosotros")).to_be_visible()
    assert axe_violations(page) == []


def test_the_snippet_can_name_the_language_of_the_widget(page, site, other_site):  # noqa: F811
    url = other_site("/", "")
    business = salon(embed_origins=site_origin(url))
    chosen = snippet(site, business.slug).replace("<script ", '<script data-lang="es-ES" ')
    other_site("/", SITE_PAGE.format(snippets=chosen))  # an English page

    page.goto(url)

    expect(page.get_by_role("button", name="Reservar cita")).to_be_visible()
