"""A conversation's dashboard page reads like the chat: every message in order, who wrote it,
when (in the business's zone), what the assistant showed as text, the stage in plain words;
"Reply as staff" and "Hand back" only for who may reply. The list puts the newest activity
first, says the stage in words and filters what waits for a person — of the member's own
businesses only."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from agent.models import Conversation, Message, MessageRole
from bookings.access import READ, ROLE_GRANTS
from tests.factories import BusinessFactory, ServiceFactory, UserFactory, owner_of, staff_of

LISBON_WINTER_NOON = dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC)  # 12:00 in Lisbon too


def conversation_of(business, **fields) -> Conversation:
    fields.setdefault("token_hash", f"hash-{Conversation.objects.count()}-{business.pk}")
    return Conversation.objects.create(business=business, **fields)


def say(conversation, role, text, *, at, **fields) -> Message:
    message = Message.objects.create(conversation=conversation, role=role, text=text, **fields)
    Message.objects.filter(pk=message.pk).update(created_at=at)
    return message


def page_of(conversation) -> str:
    return reverse("admin:agent_conversation_change", args=[conversation.pk])


def transcript_of(html: str) -> list[str]:
    """The transcript's lines as the page lists them: side, then the text."""
    return re.findall(
        r'<li class="chat-line chat-(\w+)">\s*<p class="chat-who">[^<]*</p>\s*'
        r'<p class="chat-text">(.*?)</p>',
        html,
        re.S,
    )


@pytest.fixture
def chat(db):
    business = BusinessFactory(time_zone="America/New_York")
    conversation = conversation_of(business, name="Ana", state="slot_offered")
    rita = owner_of(business, user__first_name="Rita", user__last_name="Sousa")
    say(conversation, MessageRole.CLIENT, "Can I come <b>tomorrow</b>?", at=LISBON_WINTER_NOON)
    say(
        conversation,
        MessageRole.ASSISTANT,
        "Here are the times I have.",
        at=LISBON_WINTER_NOON + dt.timedelta(minutes=1),
        choices={
            "slots": [
                {"id": "x", "label": "Thursday 3 December at 10:00"},
                {"id": "y", "label": "Thursday 3 December at 11:00"},
            ]
        },
    )
    say(
        conversation,
        MessageRole.STAFF,
        "We also open at 9, if that suits.",
        at=LISBON_WINTER_NOON + dt.timedelta(minutes=5),
        author=rita,
    )
    return conversation, rita


def test_the_transcript_reads_in_order_with_who_wrote_and_when_in_the_business_zone(chat, login):
    conversation, rita = chat

    html = login(rita).get(page_of(conversation)).content.decode()

    assert transcript_of(html) == [
        ("client", escape("Can I come <b>tomorrow</b>?")),
        ("assistant", "Here are the times I have."),
        ("staff", "We also open at 9, if that suits."),
    ]
    assert "<b>tomorrow</b>" not in html  # a client's markup is text, never HTML
    # 12:00 UTC is 07:00 in New York: the business's zone, not the server's.
    assert "Client · Wed 2 Dec 07:00" in html
    assert "Rita Sousa (your team) · Wed 2 Dec 07:05" in html
    assert "Times offered: Thursday 3 December at 10:00; Thursday 3 December at 11:00" in html


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"state": "slot_offered"}, "Choosing a time"),
        (
            {
                "state": "slot_held",
                "held_start": dt.datetime(2026, 12, 3, 10, tzinfo=dt.UTC),
                "held_until": dt.datetime(2026, 12, 2, 10, 12, tzinfo=dt.UTC),
            },
            "Holding Thu 3 Dec 10:00 until 10:12",
        ),
        ({"state": "awaiting_payment"}, "Waiting for the deposit"),
        ({"state": "confirmed"}, "Booked"),
        (
            {"state": "escalated", "escalation_reason": "Asks about an <i>allergy</i>."},
            escape("With your team: Asks about an <i>allergy</i>"),
        ),
    ],
    ids=["offered", "held", "deposit", "booked", "escalated"],
)
def test_the_stage_heads_the_page_in_plain_words(db, login, fields, words):
    business = BusinessFactory(time_zone="Europe/Lisbon")
    conversation = conversation_of(business, **fields)

    html = login(owner_of(business)).get(page_of(conversation)).content.decode()

    stage = re.search(r'<p class="conversation-stage" id="conversation-stage">(.*?)</p>', html)
    assert stage is not None
    assert stage.group(1) == words


def test_the_held_slot_the_client_and_the_linked_appointment_are_shown(db, login):
    business = BusinessFactory()
    service = ServiceFactory(business=business, name="Haircut")
    from tests.factories import AppointmentFactory

    appointment = AppointmentFactory(business=business, service=service)
    conversation = conversation_of(
        business,
        state="confirmed",
        name="Ana Silva",
        email="ana@example.com",
        service=service,
        appointment=appointment,
    )

    html = login(owner_of(business)).get(page_of(conversation)).content.decode()

    assert "Ana Silva" in html
    assert "ana@example.com" in html
    assert "Haircut" in html
    assert reverse("admin:bookings_appointment_change", args=[appointment.pk]) in html


def test_who_may_reply_sees_the_controls_and_hand_back_only_while_escalated(db, login):
    business = BusinessFactory()
    escalated = conversation_of(business, state="escalated", escalation_reason="help")
    open_one = conversation_of(business, state="slot_offered")
    member = staff_of(business)
    http = login(member)

    with_team = http.get(page_of(escalated)).content.decode()
    with_assistant = http.get(page_of(open_one)).content.decode()

    reply_url = reverse("admin:agent_conversation_reply", args=[escalated.pk])
    assert f'action="{reply_url}"' in with_team
    assert "Hand back to the assistant" in with_team
    assert "Reply as staff" in with_assistant
    assert "Hand back to the assistant" not in with_assistant


def test_a_role_that_may_only_read_conversations_sees_no_controls(db, login, monkeypatch):
    business = BusinessFactory()
    conversation = conversation_of(business, state="escalated", escalation_reason="help")
    say(conversation, MessageRole.CLIENT, "Hello?", at=LISBON_WINTER_NOON)
    monkeypatch.setitem(ROLE_GRANTS["staff"], "agent.conversation", READ)

    response = login(staff_of(business)).get(page_of(conversation))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Hello?" in html
    assert "Reply as staff" not in html
    assert "Hand back to the assistant" not in html
    assert "<textarea" not in html


def test_another_business_s_conversation_is_not_found(chat, login):
    conversation, _rita = chat

    response = login(owner_of(BusinessFactory())).get(page_of(conversation))

    assert response.status_code == 404
    assert "tomorrow" not in response.content.decode()


# --- the list ---------------------------------------------------------------------------------


def listed(http, query: str = "") -> list[str]:
    response = http.get(reverse("admin:agent_conversation_changelist") + query)
    assert response.status_code == 200
    return [row.name for row in response.context["cl"].result_list]


def test_the_list_puts_the_newest_activity_first_and_says_the_stage_in_words(db, login):
    business = BusinessFactory()
    base = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)
    conversation_of(business, name="Quiet since Monday", last_message_at=base)
    conversation_of(
        business,
        name="Just now",
        state="awaiting_payment",
        last_message_at=base + dt.timedelta(days=1),
    )
    untouched = conversation_of(business, name="Never wrote")
    Conversation.objects.filter(pk=untouched.pk).update(created_at=base + dt.timedelta(hours=1))
    http = login(owner_of(business))

    assert listed(http) == ["Just now", "Never wrote", "Quiet since Monday"]
    html = http.get(reverse("admin:agent_conversation_changelist")).content.decode()
    assert '<td class="field-stage">Waiting for the deposit</td>' in html


def test_the_list_filters_what_waits_for_a_person_of_the_members_businesses_only(db, login):
    business, other = BusinessFactory(), BusinessFactory()
    conversation_of(business, name="Needs Rita", state="escalated")
    conversation_of(business, name="Booking away", state="slot_offered")
    conversation_of(other, name="Someone else's", state="escalated")
    http = login(owner_of(business))

    assert listed(http, "?waiting=yes") == ["Needs Rita"]
    assert listed(http, "?waiting=no") == ["Booking away"]
    # The header's badge links here with the stage filter: it still works.
    assert listed(http, "?state__exact=escalated") == ["Needs Rita"]
    assert sorted(listed(http)) == ["Booking away", "Needs Rita"]
    superuser = login(UserFactory(is_superuser=True))
    assert sorted(listed(superuser, "?waiting=yes")) == ["Needs Rita", "Someone else's"]
