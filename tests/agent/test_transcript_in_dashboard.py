"""A conversation's page in the dashboard shows its transcript to whoever may read the
conversation, the business's owners and staff as much as Ordina's superusers, and lets nobody
add, edit or delete a message there."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from agent.models import Conversation, Message, MessageRole
from tests.factories import BusinessFactory, UserFactory, owner_of, staff_of

TRANSCRIPT = [
    (MessageRole.CLIENT, "Can I bring my dog to the haircut?"),
    (MessageRole.ASSISTANT, "I'll ask the team and come back to you."),
    (MessageRole.STAFF, "Dogs are welcome: we have water bowls <3"),
]


@pytest.fixture
def conversation(db) -> Conversation:
    conversation = Conversation.objects.create(
        business=BusinessFactory(), token_hash="hash-of-a-chat", name="Ana"
    )
    for role, text in TRANSCRIPT:
        Message.objects.create(conversation=conversation, role=role, text=text)
    return conversation


def conversation_page(conversation: Conversation) -> str:
    return reverse("admin:agent_conversation_change", args=[conversation.pk])


@pytest.mark.parametrize("member", [owner_of, staff_of], ids=["owner", "staff"])
def test_owner_and_staff_read_every_message_of_their_conversation(conversation, login, member):
    response = login(member(conversation.business)).get(conversation_page(conversation))

    assert response.status_code == 200
    page = response.content.decode()
    for _role, text in TRANSCRIPT:
        assert escape(text) in page


@pytest.mark.parametrize(
    "reader",
    [
        pytest.param(lambda business: owner_of(business), id="owner"),
        pytest.param(lambda business: staff_of(business), id="staff"),
        pytest.param(lambda business: UserFactory(is_superuser=True), id="superuser"),
    ],
)
def test_nobody_adds_edits_or_deletes_a_message_in_the_dashboard(conversation, login, reader):
    http = login(reader(conversation.business))
    page = http.get(conversation_page(conversation)).content.decode()

    # The transcript is text on the page: no inline form holds a message, and the one text box
    # is the reply, which posts a new message to the reply view, never an edit.
    assert "messages-TOTAL_FORMS" not in page
    assert page.count("<textarea") == 1
    assert 'name="text"' in page
    # The page itself saves nothing: a hand-made POST to it is refused.
    refused = http.post(conversation_page(conversation), {"messages-0-text": "rewritten"})
    assert refused.status_code == 403
    texts = list(conversation.messages.order_by("id").values_list("text", flat=True))
    assert texts == [text for _role, text in TRANSCRIPT]


def test_a_member_of_another_business_sees_no_transcript(conversation, login):
    response = login(owner_of(BusinessFactory())).get(conversation_page(conversation))

    assert response.status_code == 404
    assert escape(TRANSCRIPT[0][1]) not in response.content.decode()
