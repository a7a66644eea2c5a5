"""Whatever a client types, in whatever order, and whenever they press Confirm: the shell never
fails, never double-books, keeps its stage a legal one, audits every proposal, and never tells
the client a booking is confirmed unless one is."""

import contextlib
import datetime as dt
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.conversation.confirming import AlreadyBooked, ConversationClosed, conversation_confirm
from agent.conversation.states import State
from agent.conversation.turns import conversation_start, turn_take
from agent.models import AuditEntry, Conversation, Message
from agent.offline.model import OfflineModel
from agent.services import grants_set
from bookings.models import OCCUPYING_STATUSES, Appointment
from tests.agent.conversation.chat_http import shown_card
from tests.factories import haircut_at, one_chair_salon

MESSAGES = [
    "hi",
    "a haircut please",
    "haircut",
    "Wednesday",
    "Wednesday at 10",
    "tomorrow morning",
    "Thursday afternoon?",
    "next week",
    "at 3",
    "the first one",
    "the second one",
    "Ana Silva",
    "ana@example.com",
    "bo@example.com",
    "912 345 678",
    "yes",
    "no",
    "Confirm",
    "cancel",
    "is there parking?",
    "how much is it?",
    "I want a human",
    "31/12/9999 at 23:30",
    "",
    "🙂🙂🙂",
    "a" * 300,
]
# Weighted toward what books — a time, the client's details, a Confirm — among the rest.
TIMES = ["Wednesday at 10", "Wednesday at 10:30", "the first one", "the second one"]
STEP = st.one_of(
    st.sampled_from(TIMES).map(lambda text: ("say", text)),
    st.just(("details", None)),
    st.just(("confirm", None)),
    st.sampled_from(MESSAGES).map(lambda text: ("say", text)),
    st.sampled_from([0, 5, 11, 60 * 24]).map(lambda minutes: ("wait", minutes)),
)
NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)


def shop_with_a_haircut():
    """Lisbon, open 09:00–17:00 every day, one chair, a one-hour haircut."""
    business = one_chair_salon()
    haircut_at(business)
    grants_set(business=business)
    return business


class CountingModel(OfflineModel):
    """The offline model, counting the commands it proposes (every one must be audited)."""

    proposed = 0

    def propose(self, context):
        proposed = super().propose(context)
        type(self).proposed += len(proposed.proposals)
        return proposed


@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=20), clients=st.integers(1, 2))
def test_any_sequence_keeps_the_shell_s_guarantees(db, steps, clients):
    # Examples share the test's database (and appointments are never deleted): each example
    # has a salon of its own.
    salon = shop_with_a_haircut()
    CountingModel.proposed = 0
    tokens = [conversation_start(business=salon, now=NOW)[1] for _ in range(clients)]
    for token in tokens:  # each client has asked for a haircut
        turn_take(token=token, text="a haircut please", model=CountingModel(), now=NOW)
    now = NOW
    for index, (kind, value) in enumerate(steps):
        token = tokens[index % clients]
        if kind == "wait":
            now += dt.timedelta(minutes=value)
        elif kind == "say":
            turn_take(token=token, text=value or ".", model=CountingModel(), now=now)
        elif kind == "details":
            for text in ("Ana Silva", "ana@example.com"):
                turn_take(token=token, text=text, model=CountingModel(), now=now)
        else:
            with contextlib.suppress(AlreadyBooked, ConversationClosed):
                conversation_confirm(
                    token=token, idempotency_key=f"k{index}", card=shown_card(token), now=now
                )

    # No double-booking (one chair): live occupancies never overlap.
    live = Appointment.objects.filter(business=salon, status__in=OCCUPYING_STATUSES).order_by(
        "occupied_from"
    )
    spans = list(live.values_list("occupied_from", "occupied_until"))
    for (_start, end), (next_start, _end) in itertools.pairwise(spans):
        assert next_start >= end, "double-booked"
    # Every booking came through a conversation's Confirm.
    assert not live.filter(conversation__isnull=True).exists()
    conversations = list(Conversation.objects.filter(business=salon))
    ids = [str(conversation.public_id) for conversation in conversations]
    # Every command the model proposed is in the audit log, judged.
    model_entries = AuditEntry.objects.filter(conversation__in=ids).exclude(
        action="confirm_booking"
    )
    assert model_entries.count() == CountingModel.proposed
    for conversation in conversations:
        assert State(conversation.state) in State
        # "Confirmed" is said only of a booking that exists.
        said = Message.objects.filter(
            conversation=conversation, role="assistant", text__icontains="is confirmed"
        )
        if said.exists():
            assert conversation.appointment is not None
