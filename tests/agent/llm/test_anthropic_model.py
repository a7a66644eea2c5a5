"""The Anthropic adapter at its HTTP layer: what the SDK sends, and what the recorded answers
become. No request leaves the process (a MockTransport answers)."""

import httpx2
import pytest

from agent.gates import Stage, structure_gate
from agent.llm.anthropic_model import AnthropicModel
from agent.llm.base import ModelUnavailable, Proposed
from agent.llm.prompts import KNOWLEDGE_CLOSE, KNOWLEDGE_OPEN
from tests.agent.llm.conftest import BOOKING_ACTIONS, RecordedServer, narration, recorded, turn


def model_behind(server: RecordedServer, **options) -> AnthropicModel:
    settings = {"model": "claude-sonnet-5-5", "api_key": "sk-ant-test-ordina"}
    return AnthropicModel(**{**settings, **options}, http_client=server.http_client())


# --- the request ------------------------------------------------------------------------------


def test_propose_posts_a_message_with_model_key_and_granted_tools(server_answering):
    server = server_answering("anthropic_one_tool_use")

    model_behind(server).propose(turn())

    request = server.request
    assert request.method == "POST"
    assert request.url == "https://api.anthropic.com/v1/messages"
    assert request.headers["authorization"] == "Bearer sk-ant-test-ordina"
    assert "anthropic-version" in request.headers
    sent = server.sent
    assert sent["model"] == "claude-sonnet-5-5"
    assert sent["max_tokens"] == 1024
    assert [tool["name"] for tool in sent["tools"]] == list(BOOKING_ACTIONS)
    assert sent["tools"][1]["input_schema"]["required"] == ["service", "start"]


def test_the_system_prompt_carries_the_knowledge_fence_and_the_chat_ends_with_the_client(
    server_answering,
):
    server = server_answering("anthropic_one_tool_use")

    model_behind(server).propose(turn())

    sent = server.sent
    assert KNOWLEDGE_OPEN in sent["system"]
    assert KNOWLEDGE_CLOSE in sent["system"]
    assert [m["role"] for m in sent["messages"]] == ["user", "assistant", "user"]
    assert sent["messages"][-1]["content"] == "Tuesday at 10 please"


def test_no_granted_actions_means_no_tools_in_the_request(server_answering):
    server = server_answering("anthropic_text_only")

    model_behind(server).propose(turn(actions=()))

    assert "tools" not in server.sent


def test_base_url_and_timeout_from_the_settings_reach_the_http_layer(server_answering, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://elsewhere.example.test")
    server = server_answering("anthropic_text_only")

    model_behind(server, base_url="https://gateway.example.test", timeout=7.5).propose(turn())

    assert server.request.url == "https://gateway.example.test/v1/messages"
    assert server.request.extensions["timeout"]["read"] == 7.5


def test_environment_variables_do_not_redirect_the_model(server_answering, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://elsewhere.example.test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-the-environment")
    server = server_answering("anthropic_text_only")

    model_behind(server).propose(turn())

    assert server.request.url == "https://api.anthropic.com/v1/messages"
    assert server.request.headers["authorization"] == "Bearer sk-ant-test-ordina"


# --- the answer -------------------------------------------------------------------------------


def test_a_tool_use_becomes_a_proposal_dict_and_its_text_the_reply(server_answering):
    proposed = model_behind(server_answering("anthropic_one_tool_use")).propose(turn())

    assert proposed == Proposed(
        proposals=({"action": "hold_slot", "service": "3", "start": "2025-03-11T10:00+01:00"},),
        reply="Let me hold that time for you.",
    )


def test_two_tool_uses_become_two_proposals_in_order(server_answering):
    proposed = model_behind(server_answering("anthropic_two_tool_uses")).propose(turn())

    assert proposed.proposals == (
        {"action": "collect_contact", "name": "Ana Lima", "email": "ana.lima@example.com"},
        {"action": "request_confirmation"},
    )
    assert proposed.reply == ""


def test_text_alone_becomes_the_reply(server_answering):
    proposed = model_behind(server_answering("anthropic_text_only")).propose(turn())

    assert proposed == Proposed(reply="Yes, there is free parking right behind the studio.")


@pytest.mark.parametrize(
    ("tool_input", "raw"),
    [
        ('{"service": "3", "start": ', '{"service": "3", "start": '),
        (
            {"action": "refund", "appointment": "A1", "amount": "500"},
            '{"action": "refund", "appointment": "A1", "amount": "500"}',
        ),
    ],
    ids=["input not an object", "input naming another action"],
)
def test_an_input_that_is_not_a_plain_object_stays_raw_for_structure_to_refuse(tool_input, raw):
    body = recorded("anthropic_one_tool_use")
    body["content"][1]["input"] = tool_input
    server = RecordedServer(lambda request: httpx2.Response(200, json=body))

    proposed = model_behind(server).propose(turn())

    assert proposed.proposals == (raw,)
    assert structure_gate(proposed.proposals[0]).stage is Stage.STRUCTURE


def test_narrate_asks_without_tools_and_returns_the_text(server_answering):
    server = server_answering("anthropic_narration")

    text = model_behind(server).narrate(narration())

    assert text == (
        "I'm holding Tuesday at 10:00 for you. What email should I send the confirmation to?"
    )
    assert "tools" not in server.sent
    assert "hold_slot: done" in server.sent["system"]


# --- failures: one request, then ModelUnavailable ---------------------------------------------


@pytest.mark.parametrize(
    ("recording", "status"), [("anthropic_server_error", 500), ("anthropic_rate_limited", 429)]
)
def test_an_http_error_is_model_unavailable_after_exactly_one_request(
    server_answering, recording, status
):
    # retry-after invites the SDK to retry; the shell, not the SDK, decides re-asks.
    server = server_answering(recording, status=status, headers={"retry-after": "0"})

    with pytest.raises(ModelUnavailable, match=f"HTTP {status}"):
        model_behind(server).propose(turn())

    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("failure", "reason"),
    [(httpx2.ReadTimeout, "timed out"), (httpx2.ConnectError, "cannot connect")],
)
def test_a_transport_failure_is_model_unavailable_after_exactly_one_request(
    server_raising, failure, reason
):
    server = server_raising(failure)

    with pytest.raises(ModelUnavailable, match=reason):
        model_behind(server).narrate(narration())

    assert len(server.requests) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"type": "message", "role": "assistant", "content": []},
        {"type": "message", "role": "assistant", "content": "hello"},
        {"type": "message", "content": [{"type": "thinking", "thinking": "...", "signature": ""}]},
        {"error": "upstream model crashed"},
    ],
    ids=["no content", "content not blocks", "no block read", "not a message"],
)
def test_an_empty_or_garbled_answer_is_model_unavailable(body):
    server = RecordedServer(lambda request: httpx2.Response(200, json=body))

    with pytest.raises(ModelUnavailable):
        model_behind(server).propose(turn())


def test_a_body_that_is_not_json_is_model_unavailable():
    server = RecordedServer(
        lambda request: httpx2.Response(
            200, text="<html>502</html>", headers={"content-type": "application/json"}
        )
    )

    with pytest.raises(ModelUnavailable, match="unreadable"):
        model_behind(server).propose(turn())
