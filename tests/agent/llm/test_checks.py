"""A bad ORDINA_MODEL fails Django's system checks at startup, not the first client's chat."""

from django.core import checks

from agent.llm.checks import check_model_settings


def test_the_default_offline_model_passes_the_check(settings):
    settings.ORDINA_MODEL = "offline"

    assert check_model_settings() == []


def test_a_bad_model_setting_is_an_error_naming_the_setting(settings):
    settings.ORDINA_MODEL = "anthropic:"

    (error,) = check_model_settings()

    assert error.id == "agent.E001"
    assert error.level == checks.ERROR
    assert "ORDINA_MODEL is 'anthropic:'" in error.msg


def test_the_check_runs_with_djangos_startup_checks(settings):
    settings.ORDINA_MODEL = "openai:gpt-4.1-mini"
    settings.ORDINA_MODEL_API_KEY = ""
    settings.ORDINA_MODEL_BASE_URL = ""

    found = [message.id for message in checks.run_checks()]

    assert "agent.E001" in found
