"""The knowledge base's dashboard pages, as the tests read them."""

from django.urls import reverse

from knowledge.models import KnowledgeSource

ADD = reverse("admin:knowledge_knowledgesource_add")
CHANGELIST = reverse("admin:knowledge_knowledgesource_changelist")


def change_url(source: KnowledgeSource) -> str:
    return reverse("admin:knowledge_knowledgesource_change", args=[source.pk])


def row_of(listing, source: KnowledgeSource) -> str:
    """The change list's row for ``source``, as HTML."""
    page = listing.content.decode()
    start = page.index(f'href="{change_url(source)}"')
    return page[start : page.index("</tr>", start)]
