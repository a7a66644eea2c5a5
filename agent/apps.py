from django.apps import AppConfig


class AgentConfig(AppConfig):
    name = "agent"
    verbose_name = "Assistant"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from agent.grants_on_creation import grant_defaults_to_new_business
        from agent.llm import checks  # noqa: F401  (registers the ORDINA_MODEL startup check)
        from bookings.models import Business

        post_save.connect(
            grant_defaults_to_new_business,
            sender=Business,
            dispatch_uid="agent.grant_defaults_to_new_business",
        )
