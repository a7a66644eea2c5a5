"""Migration agent 0017 gives every existing conversation its business's language as the product
speaks it: a variant is its language ("es-ES" is "es"), a language it does not speak ("pt")
is English — never a code the reader would refuse on the next turn."""

import importlib

import pytest
from django.apps import apps

from agent.models import Conversation
from tests.factories import BusinessFactory

migration = importlib.import_module("agent.migrations.0017_conversation_language")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("business", "conversation"), [("es", "es"), ("es-ES", "es"), ("pt", "en")]
)
def test_existing_conversations_take_their_businesss_language_as_spoken(business, conversation):
    shop = BusinessFactory(language=business)
    Conversation.objects.create(business=shop, token_hash="a" * 64, language="xx")

    migration.business_language(apps, None)

    assert Conversation.objects.get().language == conversation
