"""How log lines look: one JSON object per line (``json``, for a log collector) or one line of
plain text (``text``, for a person at a terminal). Both carry the request id (django-guid): the
id of the request being answered, or of the Celery task being run, so a request's lines and
those of the tasks it queued can be found together.

The settings modules call ``logging_config``; gunicorn's config calls ``gunicorn_logging_config``
for its own lines (its start, stop and worker events). Nothing here imports Django or reads
the environment: the callers choose the format and the level.
"""

import logging
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from pythonjsonlogger.core import RESERVED_ATTRS

FORMATS = ("json", "text")

# Each JSON line: its time (ISO 8601, UTC), level, logger, message and request id, then any
# ``extra`` fields the call gave (ordina.request_log's method, route, status...).
JSON_FORMATTER = {
    "()": "pythonjsonlogger.json.JsonFormatter",
    "fmt": ["levelname", "name", "message"],
    "rename_fields": {"levelname": "level", "name": "logger"},
    "timestamp": "time",
    # Django's request on its own records, whose text is the path (ordina.request_log).
    "reserved_attrs": [*RESERVED_ATTRS, "request"],
}
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


def checked_format(log_format: str) -> str:
    if log_format not in FORMATS:
        raise ImproperlyConfigured(
            f"LOG_FORMAT must be one of {', '.join(FORMATS)} (got {log_format!r})."
        )
    return log_format


def checked_level(level: str) -> str:
    if level.upper() not in logging.getLevelNamesMapping():
        raise ImproperlyConfigured(
            f"LOG_LEVEL must be a logging level such as DEBUG, INFO or WARNING (got {level!r})."
        )
    return level.upper()


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """Django's LOGGING: every record through one stream handler, stamped with the request id."""
    formatter = (
        {**JSON_FORMATTER, "fmt": [*JSON_FORMATTER["fmt"], "request_id"]}
        if checked_format(log_format) == "json"
        else {"format": TEXT_FORMAT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            # On the handler, so every record is stamped, whichever logger it came from
            # (None outside a request or a task).
            "request_id": {
                "()": "django_guid.log_filters.CorrelationId",
                "correlation_id_field": "request_id",
            },
            # A database outage is logged once per request, by ordina.database_unavailable.
            "one_line_per_database_failure": {
                "()": "ordina.database_unavailable.OneLinePerDatabaseFailure"
            },
            # Django names a refused or failed request's path in its lines (django.request,
            # django.security.csrf...); on the handler, as a logger's filter would not see its
            # children's records.
            "path_as_route": {"()": "ordina.request_log.PathAsRoute"},
        },
        "formatters": {"chosen": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "chosen",
                "filters": ["request_id", "path_as_route"],
            }
        },
        "loggers": {
            "django.request": {"filters": ["one_line_per_database_failure"]},
            # django-guid says at INFO, for every request and task, that it made an id.
            "django_guid": {"level": "WARNING"},
        },
        "root": {"handlers": ["console"], "level": checked_level(level)},
    }


def gunicorn_logging_config(log_format: str) -> dict[str, Any]:
    """gunicorn's ``logconfig_dict``: its own lines as JSON on stderr under ``json``; under
    ``text`` nothing, so gunicorn keeps its usual lines. Requests are logged by Django
    (ordina.request_log), so gunicorn's access log, which any ``logconfig_dict`` turns on, is
    kept silent."""
    if checked_format(log_format) == "text":
        return {}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": JSON_FORMATTER},
        "handlers": {
            "gunicorn_stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "gunicorn.error": {
                "level": "INFO",
                "handlers": ["gunicorn_stderr"],
                "propagate": False,
            },
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
        },
        # Django's LOGGING replaces this once the application is loaded.
        "root": {"level": "INFO", "handlers": ["gunicorn_stderr"]},
    }
