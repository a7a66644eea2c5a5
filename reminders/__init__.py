"""Reminders: planned for each appointment, sent by one job on Celery beat's schedule.

Each (appointment, kind) is sent at most once, claimed by a database row.
"""
