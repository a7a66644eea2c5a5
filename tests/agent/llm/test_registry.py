"""ORDINA_MODEL picks the model; a setting that cannot work is refused with the setting named."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from agent.llm.anthropic_model import AnthropicModel
from agent.llm.openai_compatible import OpenAICompatibleModel
from agent.llm.registry import (
    ANTHROPIC,
    OFFLINE,
    OPENAI,
    language_model,
    model_configuration,
)
from agent.offline.model import OfflineModel


def configuration(model: str, **changes):
    values = {"base_url": "", "api_key": "", "timeout": 20.0, "max_tokens": 1024, **changes}
    return model_configuration(model=model, **values)


@pytest.mark.parametrize(
    ("setting", "changes", "provider", "model_id"),
    [
        ("offline", {}, OFFLINE, ""),
        (" offline ", {}, OFFLINE, ""),
        ("openai:gpt-4.1-mini", {"api_key": "sk-x"}, OPENAI, "gpt-4.1-mini"),
        (
            "openai:llama3.1:8b",
            {"base_url": "http://127.0.0.1:11434/v1"},
            OPENAI,
            "llama3.1:8b",  # Ollama's ids carry a colon of their own
        ),
        ("anthropic:claude-sonnet-5-5", {"api_key": "sk-ant-x"}, ANTHROPIC, "claude-sonnet-5-5"),
    ],
)
def test_a_valid_setting_names_provider_and_model(setting, changes, provider, model_id):
    chosen = configuration(setting, **changes)

    assert (chosen.provider, chosen.model) == (provider, model_id)


@pytest.mark.parametrize(
    ("setting", "changes", "complaint"),
    [
        ("", {}, "expected"),
        ("gpt-4.1-mini", {"api_key": "sk-x"}, "expected"),
        ("azure:gpt-4.1-mini", {"api_key": "sk-x"}, "expected"),
        ("offline:fast", {}, "expected"),
        ("anthropic:", {"api_key": "sk-ant-x"}, "name the model after the colon"),
        ("openai:  ", {"api_key": "sk-x"}, "name the model after the colon"),
        ("anthropic:claude-sonnet-5-5", {}, "needs ORDINA_MODEL_API_KEY"),
        ("anthropic:claude-sonnet-5-5", {"base_url": "http://x"}, "needs ORDINA_MODEL_API_KEY"),
        ("openai:gpt-4.1-mini", {}, "ORDINA_MODEL_BASE_URL for a server that takes no key"),
        ("openai:llama3", {"base_url": "localhost:11434"}, r"not an http\(s\) URL"),
        ("openai:gpt-4.1-mini", {"api_key": "sk-x", "timeout": 0}, "ORDINA_MODEL_TIMEOUT"),
        ("openai:gpt-4.1-mini", {"api_key": "sk-x", "max_tokens": 0}, "ORDINA_MODEL_MAX_TOKENS"),
    ],
)
def test_a_setting_that_cannot_work_is_refused_saying_why(setting, changes, complaint):
    with pytest.raises(ImproperlyConfigured, match=complaint):
        configuration(setting, **changes)


def test_openai_setting_builds_the_openai_compatible_adapter_from_the_settings(settings):
    settings.ORDINA_MODEL = "openai:llama3.1:8b"
    settings.ORDINA_MODEL_BASE_URL = "http://127.0.0.1:11434/v1"
    settings.ORDINA_MODEL_API_KEY = ""
    settings.ORDINA_MODEL_TIMEOUT = 9.0
    settings.ORDINA_MODEL_MAX_TOKENS = 300

    model = language_model()

    assert isinstance(model, OpenAICompatibleModel)
    assert model.name == "openai:llama3.1:8b"
    assert str(model.client.base_url) == "http://127.0.0.1:11434/v1/"
    assert model.client.timeout == 9.0
    assert model.client.max_retries == 0
    assert model.max_tokens == 300


def test_anthropic_setting_builds_the_anthropic_adapter_from_the_settings(settings):
    settings.ORDINA_MODEL = "anthropic:claude-sonnet-5-5"
    settings.ORDINA_MODEL_BASE_URL = ""
    settings.ORDINA_MODEL_API_KEY = "sk-ant-x"

    model = language_model()

    assert isinstance(model, AnthropicModel)
    assert model.name == "anthropic:claude-sonnet-5-5"
    assert str(model.client.base_url) == "https://api.anthropic.com"
    assert model.client.max_retries == 0


def test_offline_setting_builds_the_offline_model(settings):
    settings.ORDINA_MODEL = "offline"

    assert isinstance(language_model(), OfflineModel)


def test_a_bad_setting_is_refused_before_any_adapter_is_built(settings):
    settings.ORDINA_MODEL = "anthropic:"

    with pytest.raises(ImproperlyConfigured, match="ORDINA_MODEL"):
        language_model()
