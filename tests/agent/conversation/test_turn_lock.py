"""One conversation answers one message at a time; different conversations never wait for each
other. Each turn runs in threads of its own with real database connections, through the real
URL routes, and the model of the first turn is held inside ``propose`` — with the
conversation's row locked — for as long as the test needs to look at the second.
"""

import datetime as dt
import threading

import pytest
from django.core.cache import cache
from django.test import Client as HttpClient

from agent.conversation.claims import conversation_claim
from agent.conversation.turns import token_hash
from agent.llm.base import Narration, Proposed, TurnContext
from agent.models import Conversation, Message
from agent.offline.model import OfflineModel
from tests.reminders.real_worker import wait_for

from .chat_http import (
    BOOKING_MESSAGES,
    THREAD_SECONDS,
    Worker,
    assert_alternating,
    chat,
    confirm,
    lock_waiters,
    read,
    say,
    started,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


class HeldModel:
    """The offline model, held inside ``propose`` until released; says when it got there."""

    name = "held"
    narrates_in_process = False  # a remote model's turn: narrated after the commit
    reads_history = reads_menu = True

    def __init__(self) -> None:
        self.inside, self.release = threading.Event(), threading.Event()

    def propose(self, context: TurnContext) -> Proposed:
        self.inside.set()
        assert self.release.wait(THREAD_SECONDS), "never released"
        return OfflineModel().propose(context)

    def narrate(self, narration: Narration) -> str:
        return OfflineModel().narrate(narration)


class WatchedModel(OfflineModel):
    """The offline model, noting when it is asked to propose."""

    def __init__(self) -> None:
        self.proposed = threading.Event()

    def propose(self, context: TurnContext) -> Proposed:
        self.proposed.set()
        return super().propose(context)


@pytest.fixture
def models_by_thread(monkeypatch, settings):
    """Each thread's turns are answered by the model registered under the thread's name."""
    settings.ORDINA_MODEL = "offline"
    models: dict[str, object] = {}
    monkeypatch.setattr(
        "agent.llm.registry.language_model",
        lambda: models.get(threading.current_thread().name, OfflineModel()),
    )
    return models


def turn_in_thread(token: str, text: str, name: str) -> Worker:
    worker = Worker(lambda: say(HttpClient(raise_request_exception=False), token, text), name=name)
    worker.start()
    return worker


def client_texts(token: str) -> list[str]:
    transcript = read(HttpClient(), token).json()["messages"]
    return [message["text"] for message in transcript if message["role"] == "client"]


def test_a_second_message_waits_for_the_turn_in_progress_and_never_interleaves(
    shop, frozen_now, models_by_thread
):
    token = started(HttpClient(), shop.slug)
    first, second = HeldModel(), WatchedModel()
    models_by_thread.update(A=first, B=second)
    turn_a = turn_in_thread(token, "a haircut please", "A")
    try:
        assert first.inside.wait(10), "turn A never reached the model"

        turn_b = turn_in_thread(token, "Wednesday at 10", "B")

        # B is stopped at the conversation's row lock: it has not stored its message nor
        # reached its model, and it stays stopped while A's model is still thinking.
        wait_for(
            lambda: lock_waiters() == 1 or second.proposed.is_set(),
            seconds=10,
            what="turn B to wait for the conversation's lock",
        )
        assert not second.proposed.is_set(), "turn B ran while turn A held the conversation"
        assert Message.objects.count() == 1  # the greeting only
        assert lock_waiters() == 1
    finally:
        first.release.set()
    answer_a, answer_b = turn_a.finish(), turn_b.finish()

    assert (turn_a.error, turn_b.error) == (None, None)
    assert answer_a.status_code == 200
    assert answer_b.status_code in (200, 409), answer_b.content
    if answer_b.status_code == 409:
        # The reply lease: A's reply was still being written when B got the lock.
        assert answer_b.json()["code"] == "turn_in_progress"
        assert answer_b["Retry-After"]
        assert client_texts(token) == ["a haircut please"]
        chat(HttpClient(), token, "Wednesday at 10")  # sent again, as the widget would
    transcript = read(HttpClient(), token).json()["messages"]
    assert_alternating(transcript)
    assert client_texts(token) == ["a haircut please", "Wednesday at 10"]
    assert transcript[2]["text"].startswith("Haircut takes 60 minutes")
    assert transcript[4]["text"].startswith("I'm holding Wednesday 2 December at 10:00")
    assert Conversation.objects.get().turns == 2


def test_turns_of_two_conversations_do_not_wait_for_each_other(shop, frozen_now, models_by_thread):
    held_token, free_token = started(HttpClient(), shop.slug), started(HttpClient(), shop.slug)
    held = HeldModel()
    models_by_thread["A"] = held
    turn_a = turn_in_thread(held_token, "a haircut please", "A")
    try:
        assert held.inside.wait(10), "turn A never reached the model"

        turn_b = turn_in_thread(free_token, "a haircut Wednesday at 10", "B")
        answer_b = turn_b.finish()  # while A is still inside its model

        assert turn_b.error is None
        assert answer_b.status_code == 200, answer_b.content
        assert answer_b.json()["conversation"]["state"] == "slot_held"
        assert not held.release.is_set()
    finally:
        held.release.set()
    assert turn_a.finish().status_code == 200
    assert_alternating(read(HttpClient(), held_token).json()["messages"])
    assert_alternating(read(HttpClient(), free_token).json()["messages"])


def _claimed(token: str, held: threading.Event, release: threading.Event) -> None:
    """A live request writing this conversation's reply: its claim held, in its own session."""
    with conversation_claim(token_hash(token)):
        held.set()
        assert release.wait(THREAD_SECONDS), "never released"


def test_while_a_reply_is_being_written_the_conversation_refuses_with_409(
    shop, frozen_now, settings
):
    # A turn's transaction committed, its reply not yet stored: the lease is on the row and
    # the request writing it is alive (it holds the conversation's claim).
    settings.ORDINA_MODEL = "offline"
    http = HttpClient()
    token = started(http, shop.slug)
    chat(http, token, *BOOKING_MESSAGES)
    Conversation.objects.update(reply_lease_until=frozen_now + dt.timedelta(seconds=90))
    before = Message.objects.count()
    held, release = threading.Event(), threading.Event()
    writer = Worker(lambda: _claimed(token, held, release), name="reply writer")
    writer.start()
    try:
        assert held.wait(THREAD_SECONDS)
        answers = [say(http, token, "hello?"), confirm(http, token, key="lease-key-1")]
    finally:
        release.set()
        writer.finish()

    for answer in answers:
        assert answer.status_code == 409
        assert answer.json()["code"] == "turn_in_progress"
        assert answer["Retry-After"] == "2"
    assert Message.objects.count() == before
    assert not Conversation.objects.get().appointment


def test_a_lease_left_by_a_request_that_died_holds_nobody_back(shop, frozen_now, settings):
    # A process killed while writing a reply leaves its lease on the row; its claim went with
    # its connection, so the next message is answered at once, not after the lease runs out.
    settings.ORDINA_MODEL = "offline"
    http = HttpClient()
    token = started(http, shop.slug)
    Conversation.objects.update(reply_lease_until=frozen_now + dt.timedelta(seconds=90))

    [answer] = chat(http, token, "a haircut please")

    assert answer["conversation"]["state"] == "slot_offered"
    assert_alternating(read(http, token).json()["messages"])


# --- the client's Confirm, against other calls of the same conversation --------------------


class HeldNarrator(OfflineModel):
    """The offline narrator, held until released — as the Confirm's reply is written."""

    inside = threading.Event()
    release = threading.Event()
    narrates_in_process = False  # slow, like a remote model: narrated after the commit

    def narrate(self, narration: Narration) -> str:
        type(self).inside.set()
        assert type(self).release.wait(THREAD_SECONDS), "never released"
        return super().narrate(narration)


@pytest.fixture
def confirm_held_while_narrating(shop, frozen_now, monkeypatch, settings):
    """A conversation ready to confirm, and a Confirm (in its own thread) booked, committed,
    and held while its reply is written. Yields (token, the Confirm's worker)."""
    settings.ORDINA_MODEL = "offline"
    token = started(HttpClient(), shop.slug)
    chat(HttpClient(), token, *BOOKING_MESSAGES)
    HeldNarrator.inside, HeldNarrator.release = threading.Event(), threading.Event()
    monkeypatch.setattr("agent.conversation.confirming.OfflineModel", HeldNarrator)
    pressed = Worker(lambda: confirm(HttpClient(), token, key="held-key-1"), name="confirm")
    pressed.start()
    try:
        assert HeldNarrator.inside.wait(10), "the Confirm never reached its reply"
        yield token, pressed
    finally:
        HeldNarrator.release.set()
        pressed.finish()


def test_a_message_sent_while_the_confirm_reply_is_written_does_not_interleave(
    confirm_held_while_narrating, settings
):
    token, pressed = confirm_held_while_narrating

    meanwhile = say(HttpClient(), token, "thank you")
    HeldNarrator.release.set()
    assert pressed.finish().status_code == 201

    assert meanwhile.status_code in (200, 409)
    assert_alternating(read(HttpClient(), token).json()["messages"])


def test_a_repeated_confirm_while_the_first_reply_is_written_gets_that_reply(
    confirm_held_while_narrating,
):
    token, pressed = confirm_held_while_narrating

    again = confirm(HttpClient(), token, key="held-key-1")
    HeldNarrator.release.set()
    first = pressed.finish()

    assert first.status_code == 201
    assert again.status_code in (200, 409)
    if again.status_code == 200:
        assert again.json()["reply"] == first.json()["reply"]
