"""What of a business's knowledge base a prompt includes."""

from django.conf import settings
from django.db.models.functions import Substr

from knowledge.budget import Passage, compose_knowledge
from knowledge.models import KnowledgeSource, SourceStatus


def knowledge_for_prompt(*, business_id: int, budget: int | None = None) -> str:
    """The business's active, readable sources as one block of at most ``budget`` characters
    (``KNOWLEDGE_BUDGET_CHARS`` by default), shared fairly between them. One query."""
    budget = settings.KNOWLEDGE_BUDGET_CHARS if budget is None else budget
    if budget <= 0:
        return ""
    # No source can be given more than the budget, so a stored document of 200,000 characters
    # is read only as far as the budget plus one (enough to know that it must be cut).
    rows = (
        KnowledgeSource.objects.filter(
            business_id=business_id, is_active=True, status=SourceStatus.READY
        )
        .exclude(text="")
        .order_by("title", "pk")
        .values_list("title", Substr("text", 1, budget + 1))
    )
    passages = [Passage(title=title, text=text) for title, text in rows]
    return compose_knowledge(passages, budget)
