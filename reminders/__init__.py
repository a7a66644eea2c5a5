"""Reminders and sweeps on fixed Celery beat schedules.

Each (appointment, kind) is sent at most once, claimed by a database row.
"""
