"""Tests run against real Postgres and Redis, never SQLite: the guarantees under test are theirs."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DATABASES, env

SECRET_KEY = env.str("SECRET_KEY", default="ordina-test-only-not-a-secret")
DEBUG = False

DATABASES["default"] = env.db_url_config(
    env.str("DATABASE_URL", default="") or "postgres://postgres@127.0.0.1:5432/ordina"
)
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured(
        "The test suite runs on PostgreSQL; set DATABASE_URL to a postgres:// URL "
        f"(got engine {DATABASES['default']['ENGINE']!r})."
    )

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/15")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
# The calendar tests serve their feeds from 127.0.0.1; one test turns the guard back on.
CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = True
