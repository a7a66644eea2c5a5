"""Reminders and sweeps on fixed Celery beat schedules; each (appointment, kind) sent at most once."""
