"""The startup check of the model settings: a bad ORDINA_MODEL fails ``manage.py check`` (and
every command that runs checks) rather than the first client's chat."""

from typing import Any

from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from agent.llm.registry import configured_model


@checks.register()
def check_model_settings(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    try:
        configured_model()
    except ImproperlyConfigured as problem:
        return [
            checks.Error(
                str(problem),
                hint="See the configuration table in README.md (ORDINA_MODEL_*).",
                id="agent.E001",
            )
        ]
    return []
