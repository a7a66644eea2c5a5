"""What a prompt includes: the business's own active sources that are ready (not failed, not
being read), within the budget, in one query."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from knowledge.selectors import knowledge_for_prompt
from knowledge.services import knowledge_source_create
from tests.factories import BusinessFactory

pytestmark = pytest.mark.django_db


def written(business, title: str, body: str, **fields) -> KnowledgeSource:
    return knowledge_source_create(
        business=business, kind=SourceKind.TEXT, title=title, body=body, **fields
    )


def test_the_prompt_holds_each_active_ready_source_under_its_title_in_one_query(
    django_assert_num_queries,
):
    business = BusinessFactory()
    written(business, "Parking", "Free parking behind the building.")
    written(business, "Payment", "Cards, cash and MB Way.")
    written(business, "Old prices", "Haircut 20 €.", is_active=False)
    failed = written(business, "Team page", "Meet Ana.")
    KnowledgeSource.objects.filter(pk=failed.pk).update(
        status=SourceStatus.FAILED, error="Could not read the page: HTTP 404 Not Found"
    )
    being_read_again = written(business, "Opening hours", "Monday to Friday.")
    KnowledgeSource.objects.filter(pk=being_read_again.pk).update(
        status=SourceStatus.READING, read_requested_at=timezone.now()
    )
    written(BusinessFactory(), "Neighbour", "Another salon's secret.")

    with django_assert_num_queries(1):
        block = knowledge_for_prompt(business_id=business.pk)

    assert block == (
        "## Parking\nFree parking behind the building.\n\n## Payment\nCards, cash and MB Way."
    )


def test_one_long_document_is_cut_to_its_fair_share_and_the_others_stay_whole():
    business = BusinessFactory()
    written(business, "Aftercare handbook", "Rinse with cool water. " * 5000)
    written(business, "Parking", "Free parking behind the building.")

    block = knowledge_for_prompt(business_id=business.pk, budget=500)

    assert len(block) <= 500
    assert block.endswith("## Parking\nFree parking behind the building.")
    assert block.startswith("## Aftercare handbook\nRinse with cool water. Rinse")
    handbook = block.split("\n\n")[0]
    assert handbook.endswith("…")
    assert len(block) >= 490  # the handbook takes all that Parking leaves, less part of a word


def test_the_default_budget_is_the_setting(settings):
    settings.KNOWLEDGE_BUDGET_CHARS = 40
    business = BusinessFactory()
    written(business, "Policy", "Cancel up to 24 hours before the visit, free of charge.")

    block = knowledge_for_prompt(business_id=business.pk)

    assert block == "## Policy\nCancel up to 24 hours before…"
    assert len(block) <= 40


def test_a_long_source_is_read_from_the_database_only_as_far_as_the_budget():
    business = BusinessFactory()
    written(business, "Handbook", "x" * 150_000)

    with CaptureQueriesContext(connection) as queries:
        block = knowledge_for_prompt(business_id=business.pk, budget=100)

    assert len(block) <= 100
    assert "SUBSTRING" in queries[0]["sql"].upper()


def test_a_business_without_knowledge_gets_an_empty_block():
    assert knowledge_for_prompt(business_id=BusinessFactory().pk) == ""
