"""A model behind the OpenAI chat-completions API: OpenAI itself, vLLM, Ollama, llama.cpp.

The only module that imports ``openai``. Each tool call the model makes becomes one raw
proposal, ``{"action": <tool name>, **arguments}``, handed to the gates exactly as produced:
arguments that are not a JSON object stay the raw string they were, so the STRUCTURE gate
refuses them with a reason instead of this adapter repairing or dropping them.

The SDK's own retries are off (``max_retries=0``): the shell re-asks a bounded number of times
itself, and hidden retries would multiply both its latency budget and the bill. Every failure —
HTTP status, timeout, refused connection, an answer with nothing in it — is ``ModelUnavailable``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx2
import openai
from openai.types.chat import ChatCompletion

from agent.llm.base import ModelUnavailable, Narration, Proposed, TurnContext
from agent.llm.failures import unavailable_on_failure
from agent.llm.prompts import (
    ChatMessage,
    chat_messages,
    narration_prompt,
    proposing_prompt,
    tool_specs,
)

OPENAI_BASE_URL = "https://api.openai.com/v1"
# Local servers (Ollama, llama.cpp) take no key, but the SDK refuses to start without one.
NO_KEY = "no-key"


class OpenAICompatibleModel:
    # A remote model: it narrates after the turn commits, and sees the conversation's last
    # messages and its granted commands (as tools).
    narrates_in_process = False
    reads_history = True
    reads_menu = True

    def __init__(
        self,
        *,
        model: str,
        base_url: str = "",
        api_key: str = "",
        timeout: float = 20.0,
        max_tokens: int = 1024,
        http_client: httpx2.Client | None = None,
    ) -> None:
        self.name = f"openai:{model}"
        self.model = model
        self.max_tokens = max_tokens
        # base_url and api_key are always passed, so OPENAI_BASE_URL / OPENAI_API_KEY in the
        # environment never silently redirect the assistant: the settings are the one source.
        self.client = openai.OpenAI(
            api_key=api_key or NO_KEY,
            base_url=base_url or OPENAI_BASE_URL,
            timeout=timeout,
            max_retries=0,
            http_client=http_client,
        )

    def propose(self, context: TurnContext) -> Proposed:
        tools = [
            {
                "type": "function",
                "function": {
                    "name": spec.name,
                    "description": spec.description,
                    "parameters": spec.parameters,
                },
            }
            for spec in tool_specs(context.actions)
        ]
        answer = self._complete(
            proposing_prompt(context), chat_messages(context.history, context.message), tools
        )
        proposals = tuple(_proposal(call) for call in answer.tool_calls)
        if not proposals and not answer.text.strip():
            raise ModelUnavailable(f"{self.name}: neither a tool call nor text in the answer")
        return Proposed(proposals=proposals, reply=answer.text)

    def narrate(self, narration: Narration) -> str:
        turn = narration.turn
        answer = self._complete(
            narration_prompt(narration), chat_messages(turn.history, turn.message), []
        )
        if not answer.text.strip():
            raise ModelUnavailable(f"{self.name}: the narration is empty")
        return answer.text

    def _complete(
        self, system: str, turns: tuple[ChatMessage, ...], tools: list[dict[str, Any]]
    ) -> _Answer:
        messages: list[Any] = [{"role": "system", "content": system}]
        messages += [{"role": turn.role, "content": turn.content} for turn in turns]
        # max_completion_tokens, not max_tokens: OpenAI's reasoning models refuse max_tokens,
        # vLLM and llama.cpp accept both, and a server that ignores it still answers.
        options: dict[str, Any] = {"max_completion_tokens": self.max_tokens}
        if tools:  # an empty tools list is an error on OpenAI; no grants means no tools
            options["tools"] = tools
        with unavailable_on_failure(self.name, openai, openai.OpenAIError):
            completion = self.client.chat.completions.create(
                model=self.model, messages=messages, **options
            )
        answer = _read(completion)
        if answer is None:
            raise ModelUnavailable(f"{self.name}: unreadable answer")
        return answer


@dataclass(frozen=True)
class _Answer:
    tool_calls: tuple[Any, ...]
    text: str


def _read(completion: object) -> _Answer | None:
    """The first choice's tool calls and text, or None when the body is no chat completion.

    The SDK builds its response objects leniently (so vLLM's or Ollama's small departures from
    OpenAI's schema still parse), which means a garbled body arrives as a half-filled object:
    every field is checked here rather than trusted.
    """
    if not isinstance(completion, ChatCompletion) or not completion.choices:
        return None
    message = getattr(completion.choices[0], "message", None)
    tool_calls = getattr(message, "tool_calls", None) or ()
    text = getattr(message, "content", None) or getattr(message, "refusal", None) or ""
    if message is None or not isinstance(tool_calls, list | tuple) or not isinstance(text, str):
        return None
    return _Answer(tuple(tool_calls), text)


def _proposal(call: Any) -> Any:
    """A raw proposal from one tool call, as the model produced it."""
    function = getattr(call, "function", None)
    name, arguments = getattr(function, "name", None), getattr(function, "arguments", None)
    if function is None or not isinstance(arguments, str):
        # A custom (free-form) tool call or a garbled one: free text, for STRUCTURE to refuse.
        return str(getattr(getattr(call, "custom", None), "input", None) or call)
    if not arguments.strip():
        return {"action": name}  # some servers send "" for a tool that takes no arguments
    try:
        fields = json.loads(arguments)
    except ValueError:
        return arguments
    # Arguments that are not an object, or that name their own "action", would let the text
    # of a call re-route it to another command: they stay raw, for STRUCTURE to refuse.
    if not isinstance(fields, dict) or "action" in fields:
        return arguments
    return {"action": name, **fields}
