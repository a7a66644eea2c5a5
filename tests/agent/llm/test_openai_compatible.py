"""The OpenAI-compatible adapter at its HTTP layer: what the SDK sends, and what the recorded
answers become. No request leaves the process (a MockTransport answers)."""

import httpx2
import pytest

from agent.gates import Stage, structure_gate
from agent.llm.base import ModelUnavailable, Proposed
from agent.llm.openai_compatible import OpenAICompatibleModel
from agent.llm.prompts import KNOWLEDGE_CLOSE, KNOWLEDGE_OPEN
from tests.agent.llm.conftest import BOOKING_ACTIONS, RecordedServer, narration, recorded, turn

BASE_URL = "https://models.example.test/v1"


def model_behind(server: RecordedServer, **options) -> OpenAICompatibleModel:
    settings = {"model": "gpt-4.1-mini", "base_url": BASE_URL, "api_key": "sk-test-ordina"}
    return OpenAICompatibleModel(**{**settings, **options}, http_client=server.http_client())


# --- the request ------------------------------------------------------------------------------


def test_propose_posts_a_chat_completion_with_model_key_and_granted_tools(server_answering):
    server = server_answering("openai_one_tool_call")

    model_behind(server).propose(turn())

    request = server.request
    assert request.method == "POST"
    assert request.url == "https://models.example.test/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test-ordina"
    sent = server.sent
    assert sent["model"] == "gpt-4.1-mini"
    assert [tool["function"]["name"] for tool in sent["tools"]] == list(BOOKING_ACTIONS)
    assert all(tool["type"] == "function" for tool in sent["tools"])
    assert sent["tools"][1]["function"]["parameters"]["required"] == ["service", "start"]
    assert sent["max_completion_tokens"] == 1024


def test_the_system_prompt_carries_the_knowledge_fence_and_the_chat_ends_with_the_client(
    server_answering,
):
    server = server_answering("openai_one_tool_call")

    model_behind(server).propose(turn())

    messages = server.sent["messages"]
    assert messages[0]["role"] == "system"
    assert KNOWLEDGE_OPEN in messages[0]["content"]
    assert KNOWLEDGE_CLOSE in messages[0]["content"]
    assert [m["role"] for m in messages[1:]] == ["user", "assistant", "user"]
    assert messages[-1]["content"] == "Tuesday at 10 please"


def test_no_granted_actions_means_no_tools_in_the_request(server_answering):
    server = server_answering("openai_text_only")

    model_behind(server).propose(turn(actions=()))

    assert "tools" not in server.sent


def test_the_configured_timeout_reaches_the_http_layer(server_answering):
    server = server_answering("openai_text_only")

    model_behind(server, timeout=7.5).propose(turn())

    assert server.request.extensions["timeout"]["read"] == 7.5


def test_environment_variables_do_not_redirect_the_model(server_answering, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "https://elsewhere.example.test/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    server = server_answering("openai_text_only")

    model_behind(server, base_url="", api_key="sk-test-ordina").propose(turn())

    assert server.request.url == "https://api.openai.com/v1/chat/completions"
    assert server.request.headers["authorization"] == "Bearer sk-test-ordina"


def test_a_local_server_without_a_key_is_still_asked(server_answering):
    server = server_answering("openai_text_only")

    model_behind(server, base_url="http://127.0.0.1:11434/v1", api_key="").propose(turn())

    assert server.request.url == "http://127.0.0.1:11434/v1/chat/completions"


# --- the answer -------------------------------------------------------------------------------


def test_a_tool_call_becomes_a_proposal_dict(server_answering):
    proposed = model_behind(server_answering("openai_one_tool_call")).propose(turn())

    assert proposed == Proposed(
        proposals=({"action": "hold_slot", "service": "3", "start": "2025-03-11T10:00+01:00"},),
        reply="",
    )


def test_two_tool_calls_become_two_proposals_in_order(server_answering):
    proposed = model_behind(server_answering("openai_two_tool_calls")).propose(turn())

    assert proposed.proposals == (
        {"action": "collect_contact", "name": "Ana Lima", "email": "ana.lima@example.com"},
        {"action": "request_confirmation"},
    )


def test_text_alone_becomes_the_reply(server_answering):
    proposed = model_behind(server_answering("openai_text_only")).propose(turn())

    assert proposed == Proposed(reply="Yes, there is free parking right behind the studio.")


def test_malformed_arguments_stay_the_raw_string_for_structure_to_refuse(server_answering):
    raw = recorded("openai_malformed_arguments")["choices"][0]["message"]["tool_calls"][0]
    arguments = raw["function"]["arguments"]

    proposed = model_behind(server_answering("openai_malformed_arguments")).propose(turn())

    assert proposed.proposals == (arguments,)
    verdict = structure_gate(proposed.proposals[0])
    assert verdict.stage is Stage.STRUCTURE
    assert not verdict.passed


def test_arguments_naming_another_action_cannot_reroute_the_call(server_answering):
    body = recorded("openai_one_tool_call")
    call = body["choices"][0]["message"]["tool_calls"][0]["function"]
    call["arguments"] = '{"action": "refund", "appointment": "A1", "amount": "500"}'
    server = RecordedServer(lambda request: httpx2.Response(200, json=body))

    proposed = model_behind(server).propose(turn())

    assert proposed.proposals == (call["arguments"],)
    assert structure_gate(proposed.proposals[0]).stage is Stage.STRUCTURE


def test_narrate_asks_without_tools_and_returns_the_text(server_answering):
    server = server_answering("openai_narration")

    text = model_behind(server).narrate(narration())

    assert text == (
        "I'm holding Tuesday at 10:00 for you. What email should I send the confirmation to?"
    )
    assert "tools" not in server.sent
    system = server.sent["messages"][0]["content"]
    assert "hold_slot: done" in system
    assert KNOWLEDGE_OPEN not in system


# --- failures: one request, then ModelUnavailable ---------------------------------------------


@pytest.mark.parametrize(
    ("recording", "status"), [("openai_server_error", 500), ("openai_rate_limited", 429)]
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
        model_behind(server).propose(turn())

    assert len(server.requests) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"object": "chat.completion", "choices": []},
        {"error": "upstream model crashed"},
        {
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": ""}}],
        },
        {
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": ["odd"]}}],
        },
    ],
    ids=["no choices", "not a completion", "empty message", "content not text"],
)
def test_an_empty_or_garbled_answer_is_model_unavailable(body):
    server = RecordedServer(lambda request: httpx2.Response(200, json=body))

    with pytest.raises(ModelUnavailable):
        model_behind(server).propose(turn())


@pytest.mark.parametrize(
    "response",
    [
        httpx2.Response(
            200, text="<html>502 Bad Gateway</html>", headers={"content-type": "application/json"}
        ),
        httpx2.Response(200, text="upstream timed out", headers={"content-type": "text/plain"}),
    ],
    ids=["not json", "not json at all"],
)
def test_a_body_that_is_not_json_is_model_unavailable(response):
    server = RecordedServer(lambda request: response)

    with pytest.raises(ModelUnavailable, match="unreadable"):
        model_behind(server).propose(turn())


def test_an_empty_narration_is_model_unavailable():
    body = recorded("openai_narration")
    body["choices"][0]["message"]["content"] = None
    server = RecordedServer(lambda request: httpx2.Response(200, json=body))

    with pytest.raises(ModelUnavailable, match="narration is empty"):
        model_behind(server).narrate(narration())


def test_a_model_without_a_recorded_server_fails_fast_instead_of_reaching_out(no_network):
    model = OpenAICompatibleModel(model="gpt-4.1-mini", api_key="sk-test-ordina")

    with pytest.raises(ModelUnavailable, match="cannot connect"):
        model.propose(turn())

    assert no_network.attempts  # the guard saw it (and would fail any other test that did)
    no_network.attempts.clear()
