from django.apps import AppConfig


class DashboardPagesConfig(AppConfig):
    name = "dashboard"
    verbose_name = "Dashboard"
