"""The owners' dashboard. Every page is tenant-scoped through ``scoping.BusinessScopedAdmin``."""

from . import appointments, business, catalog, schedule  # noqa: F401 - registers the pages
