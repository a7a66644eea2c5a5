from django.apps import AppConfig


class AgentConfig(AppConfig):
    name = "agent"
    verbose_name = "Assistant"

    def ready(self) -> None:
        from agent.llm import checks  # noqa: F401  (registers the ORDINA_MODEL startup check)
