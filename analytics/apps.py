from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    """The booking funnel and the figures around it, read from structured state (paper §10).
    No models of its own: it only reads what the core and the shell recorded."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analytics"
