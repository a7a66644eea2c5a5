"""A model behind Anthropic's Messages API.

The only module that imports ``anthropic``. Each ``tool_use`` block becomes one raw proposal,
``{"action": <tool name>, **input}``, handed to the gates exactly as produced; an input that is
not an object stays raw, for the STRUCTURE gate to refuse with a reason. Text blocks are the
model's reply.

As with the OpenAI-compatible adapter, the SDK's retries are off (the shell re-asks itself) and
every failure is ``ModelUnavailable``.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx2
from anthropic.types import Message

from agent.llm.base import ModelUnavailable, Narration, Proposed, TurnContext
from agent.llm.failures import unavailable_on_failure
from agent.llm.prompts import (
    ChatMessage,
    chat_messages,
    narration_prompt,
    proposing_prompt,
    tool_specs,
)

ANTHROPIC_BASE_URL = "https://api.anthropic.com"
# The block types read, each with the field that must be text for the block to be read.
READ_FIELD: dict[object, str] = {"text": "text", "tool_use": "name"}


class AnthropicModel:
    # A remote model: it narrates after the turn commits, and sees the conversation's last
    # messages and its granted commands (as tools).
    narrates_in_process = False
    reads_history = True
    reads_menu = True

    def __init__(
        self,
        *,
        model: str,
        api_key: str,
        base_url: str = "",
        timeout: float = 20.0,
        max_tokens: int = 1024,
        http_client: httpx2.Client | None = None,
    ) -> None:
        self.name = f"anthropic:{model}"
        self.model = model
        self.max_tokens = max_tokens
        # Both passed explicitly: the SDK would otherwise fall back to ANTHROPIC_* variables and
        # credential profiles on disk, and the settings are meant to be the one source.
        self.client = anthropic.Anthropic(
            api_key=api_key,
            base_url=base_url or ANTHROPIC_BASE_URL,
            timeout=timeout,
            max_retries=0,
            http_client=http_client,
        )

    def propose(self, context: TurnContext) -> Proposed:
        tools = [
            {"name": spec.name, "description": spec.description, "input_schema": spec.parameters}
            for spec in tool_specs(context.actions)
        ]
        blocks = self._complete(
            proposing_prompt(context), chat_messages(context.history, context.message), tools
        )
        proposals = tuple(_proposal(block) for block in blocks if block.type == "tool_use")
        reply = _text(blocks)
        if not proposals and not reply.strip():
            raise ModelUnavailable(f"{self.name}: neither a tool call nor text in the answer")
        return Proposed(proposals=proposals, reply=reply)

    def narrate(self, narration: Narration) -> str:
        turn = narration.turn
        blocks = self._complete(
            narration_prompt(narration), chat_messages(turn.history, turn.message), []
        )
        text = _text(blocks)
        if not text.strip():
            raise ModelUnavailable(f"{self.name}: the narration is empty")
        return text

    def _complete(
        self, system: str, turns: tuple[ChatMessage, ...], tools: list[dict[str, Any]]
    ) -> list[Any]:
        messages: list[Any] = [{"role": turn.role, "content": turn.content} for turn in turns]
        options: dict[str, Any] = {"tools": tools} if tools else {}
        with unavailable_on_failure(self.name, anthropic, anthropic.AnthropicError):
            message = self.client.messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                system=system,
                messages=messages,
                **options,
            )
        blocks = _blocks(message)
        if blocks is None:
            raise ModelUnavailable(f"{self.name}: unreadable answer")
        return blocks


def _blocks(message: object) -> list[Any] | None:
    """The answer's content blocks, or None when the body is no message.

    The SDK builds response objects leniently, so a garbled body arrives half-filled (an
    unknown block type even comes back as a ``TextBlock`` without text): blocks are kept only
    when they have a type this adapter reads, and the fields it reads are checked.
    """
    content = getattr(message, "content", None)
    if not isinstance(message, Message) or not isinstance(content, list):
        return None
    return [
        block
        for block in content
        if (field := READ_FIELD.get(getattr(block, "type", None))) is not None
        and isinstance(getattr(block, field, None), str)
    ]


def _text(blocks: list[Any]) -> str:
    return "".join(block.text for block in blocks if block.type == "text")


def _proposal(block: Any) -> Any:
    """A raw proposal from one tool_use block, as the model produced it."""
    fields = block.input
    # An input that is not an object, or that names its own "action" (which would re-route the
    # call to another command), stays raw for STRUCTURE to refuse.
    if not isinstance(fields, dict) or "action" in fields:
        return fields if isinstance(fields, str) else json.dumps(fields, default=str)
    return {"action": block.name, **fields}
