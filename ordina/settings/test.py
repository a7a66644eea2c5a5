"""Tests run against real Postgres and Redis, never SQLite: the guarantees under test are theirs."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DATABASES, env
from .database import with_server_settings
from .mail import mailer_from_url

SECRET_KEY = env.str("SECRET_KEY", default="ordina-test-only-not-a-secret")
DEBUG = False

DATABASES["default"] = with_server_settings(
    env.db_url_config(
        env.str("DATABASE_URL", default="") or "postgres://postgres@127.0.0.1:5432/ordina"
    ),
    # Tests wait for no disk: a commit returns before its WAL is flushed. Only a crash of the
    # PostgreSQL server itself could lose such a commit, and no test crashes it (the crash
    # tests kill Ordina's processes, whose committed work the server already holds either way).
    "synchronous_commit=off",
)
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured(
        "The test suite runs on PostgreSQL; set DATABASE_URL to a postgres:// URL "
        f"(got engine {DATABASES['default']['ENGINE']!r})."
    )

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/15")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
# A real Celery worker is another process: its mail cannot land in this process's outbox. The
# worker tests start it with TEST_EMAIL_URL (a filemail:// directory the test reads) and, to
# stall delivery where a test kills the worker, TEST_EMAIL_BACKEND (a subclass taking the same
# options). A developer's EMAIL_URL is never honoured here, so tests cannot send real mail.
if test_mail_url := env.str("TEST_EMAIL_URL", default=""):
    MAILERS = {"default": mailer_from_url(test_mail_url)}
    MAILERS["default"]["BACKEND"] = env.str(
        "TEST_EMAIL_BACKEND", default=MAILERS["default"]["BACKEND"]
    )
# The calendar tests serve their feeds from 127.0.0.1; one test turns the guard back on.
CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = True
# No test reaches the internet: Stripe calls go to a closed local port unless a test's fake
# Stripe server (devtools/fake_stripe.py) takes its place.
STRIPE_API_BASE = env.str("STRIPE_API_BASE", default="http://127.0.0.1:9")
STRIPE_SECRET_KEY = env.str("STRIPE_SECRET_KEY", default="sk_test_ordina_unset")
# Django's test client signs in without a request (Client.login), which django-axes refuses;
# the lock-out's own tests switch it on (tests/test_admin_lockout.py). Other settings keep it on.
AXES_ENABLED = False
