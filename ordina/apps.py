from django.contrib.admin.apps import AdminConfig


class DashboardConfig(AdminConfig):
    """Django's admin, with the dashboard's own site (``ordina.admin_site``) as ``admin.site``."""

    default_site = "ordina.admin_site.DashboardSite"
