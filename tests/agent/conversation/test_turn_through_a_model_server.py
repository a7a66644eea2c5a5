"""A whole turn with a model behind its HTTP API (recorded answers, no network): the tool
calls become proposals the gates judge and the core executes, the narration is a second call,
and the guards read what the model wrote before the client does."""

import copy
import json

import httpx2
import pytest

from agent.conversation.turns import conversation_start, turn_take
from agent.llm.openai_compatible import OpenAICompatibleModel
from agent.models import AuditEntry, Conversation, GuardRewrite
from bookings.models import SlotHold
from tests.agent.conversation.conftest import WEDNESDAY, lisbon
from tests.agent.llm.conftest import RecordedServer, recorded

pytestmark = pytest.mark.usefixtures("frozen_now")


def tool_calls(*calls: tuple[str, dict]) -> dict:
    body = copy.deepcopy(recorded("openai_two_tool_calls"))
    body["choices"][0]["message"]["tool_calls"] = [
        {
            "id": f"call_{index}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        for index, (name, arguments) in enumerate(calls)
    ]
    return body


def text(content: str) -> dict:
    body = copy.deepcopy(recorded("openai_narration"))
    body["choices"][0]["message"]["content"] = content
    return body


def test_tool_calls_are_judged_executed_and_the_narration_guarded(shop):
    ten = lisbon(WEDNESDAY, "10:00")
    answers = iter(
        [
            tool_calls(
                ("hold_slot", {"service": "Haircut", "start": ten.isoformat()}),
                ("mark_paid", {"appointment": "A-1"}),
            ),
            text("Done! You're booked for Wednesday at 10:00 and your deposit is paid."),
        ]
    )
    server = RecordedServer(lambda request: httpx2.Response(200, json=next(answers)))
    model = OpenAICompatibleModel(
        model="gpt-4.1-mini", api_key="sk-test", http_client=server.http_client()
    )
    _conversation, token, _greeting = conversation_start(business=shop)

    result = turn_take(token=token, text="A haircut on Wednesday at 10 please", model=model)

    propose, narrate = (json.loads(request.content) for request in server.requests)
    assert {tool["function"]["name"] for tool in propose["tools"]} >= {"hold_slot"}
    assert "mark_paid" not in {tool["function"]["name"] for tool in propose["tools"]}
    assert "tools" not in narrate
    assert [(o.action, o.result, o.stage) for o in result.outcomes] == [
        ("hold_slot", "EXECUTE", ""),
        ("mark_paid", "BLOCK", "CAPABILITY"),
    ]
    assert SlotHold.objects.get().starts_at == ten
    assert "booked" not in result.reply.text.lower().replace("nothing is booked yet", "")
    assert "paid" not in result.reply.text.lower()
    # Details are still missing, so the claim gives way to what is really needed.
    assert "I need your name and email" in result.reply.text
    assert GuardRewrite.objects.filter(guard="status").exists()
    conversation = Conversation.objects.get()
    assert conversation.state == "slot_held"
    assert conversation.reply_lease_until is None  # the narration's lease was released
    assert AuditEntry.objects.count() == 2
