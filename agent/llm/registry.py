"""Which model speaks for the assistant, from the ORDINA_MODEL_* settings.

``model_configuration`` is pure: it turns the settings' values into a ``ModelConfiguration`` or
refuses them with ``ImproperlyConfigured`` naming the setting to fix. The startup check
(``agent.llm.checks``) and ``language_model`` both go through it, so a setting that would fail
on the first chat fails at startup instead.

Adapters are imported only when chosen: the offline model needs neither SDK, and starting
Django should not pay for importing them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from agent.llm.base import LanguageModel

if TYPE_CHECKING:
    from agent.llm.anthropic_model import AnthropicModel
    from agent.llm.openai_compatible import OpenAICompatibleModel

OFFLINE = "offline"
OPENAI = "openai"
ANTHROPIC = "anthropic"
ACCEPTED = f'"{OFFLINE}", "{OPENAI}:<model>" or "{ANTHROPIC}:<model>"'


@dataclass(frozen=True)
class ModelConfiguration:
    provider: str  # OFFLINE, OPENAI or ANTHROPIC
    model: str  # the provider's model id; empty for the offline model
    base_url: str
    api_key: str
    timeout: float
    max_tokens: int


def model_configuration(
    *, model: str, base_url: str, api_key: str, timeout: float, max_tokens: int
) -> ModelConfiguration:
    """The configuration these setting values describe, or ImproperlyConfigured saying why not."""
    setting = model.strip()
    # Split at the first colon only: model ids carry their own ("llama3.1:8b" on Ollama).
    provider, _, model_id = setting.partition(":")
    model_id = model_id.strip()
    if setting == OFFLINE:
        model_id = ""
    elif provider not in (OPENAI, ANTHROPIC):
        raise ImproperlyConfigured(f"ORDINA_MODEL is {model!r}; expected {ACCEPTED}.")
    elif not model_id:
        raise ImproperlyConfigured(
            f"ORDINA_MODEL is {model!r}: name the model after the colon, e.g. {provider}:<model>."
        )
    if provider == ANTHROPIC and not api_key:
        raise ImproperlyConfigured(f"ORDINA_MODEL={setting} needs ORDINA_MODEL_API_KEY.")
    if provider == OPENAI and not (api_key or base_url):
        raise ImproperlyConfigured(
            f"ORDINA_MODEL={setting} needs ORDINA_MODEL_API_KEY, or ORDINA_MODEL_BASE_URL for a"
            " server that takes no key (vLLM, Ollama, llama.cpp)."
        )
    if base_url and not base_url.startswith(("http://", "https://")):
        raise ImproperlyConfigured(f"ORDINA_MODEL_BASE_URL {base_url!r} is not an http(s) URL.")
    if not timeout > 0:
        raise ImproperlyConfigured(f"ORDINA_MODEL_TIMEOUT must be positive seconds, not {timeout}.")
    if max_tokens <= 0:
        raise ImproperlyConfigured(f"ORDINA_MODEL_MAX_TOKENS must be positive, not {max_tokens}.")
    return ModelConfiguration(
        provider=OFFLINE if setting == OFFLINE else provider,
        model=model_id,
        base_url=base_url,
        api_key=api_key,
        timeout=timeout,
        max_tokens=max_tokens,
    )


def configured_model() -> ModelConfiguration:
    """The configuration in Django's settings."""
    return model_configuration(
        model=settings.ORDINA_MODEL,
        base_url=settings.ORDINA_MODEL_BASE_URL,
        api_key=settings.ORDINA_MODEL_API_KEY,
        timeout=settings.ORDINA_MODEL_TIMEOUT,
        max_tokens=settings.ORDINA_MODEL_MAX_TOKENS,
    )


def language_model() -> LanguageModel:
    """The model the settings choose, ready to propose and narrate."""
    configuration = configured_model()
    adapter: type[OpenAICompatibleModel | AnthropicModel]
    if configuration.provider == OPENAI:
        from agent.llm.openai_compatible import OpenAICompatibleModel as adapter
    elif configuration.provider == ANTHROPIC:
        from agent.llm.anthropic_model import AnthropicModel as adapter
    else:
        from agent.offline.model import OfflineModel

        return OfflineModel()
    # Each SDK is imported only when its provider is chosen; both adapters take the same options.
    return adapter(
        model=configuration.model,
        base_url=configuration.base_url,
        api_key=configuration.api_key,
        timeout=configuration.timeout,
        max_tokens=configuration.max_tokens,
    )
