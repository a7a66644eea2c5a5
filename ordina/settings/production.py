"""Production: every secret and every shared service is required — unset or empty stops the
process at start with a message naming the variable — the database is PostgreSQL, the cache is
Redis, and the transport is hardened.

The served entry points (``ordina.wsgi``, ``ordina.asgi``, ``celery -A ordina``) default to
these settings, so a deployment that forgets DJANGO_SETTINGS_MODULE refuses to start rather
than run on the local settings and their public signing key.
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import LOG_LEVEL, env
from .database import with_server_settings
from .logging import logging_config
from .mail import mailer_from_url


def required(name: str) -> str:
    """The variable's value. Unset, empty or blank stops the process: ``env.str(name)`` alone
    would accept ``NAME=`` and run with an empty secret (an unsigned webhook, say)."""
    value = env.str(name, default="")
    if not value.strip():
        raise ImproperlyConfigured(
            f"Set the {name} environment variable: production settings require it "
            "(it is unset or empty)."
        )
    return value


DEBUG = False
SECRET_KEY = required("SECRET_KEY")
ALLOWED_HOSTS = [host.strip() for host in required("ALLOWED_HOSTS").split(",") if host.strip()]
STRIPE_SECRET_KEY = required("STRIPE_SECRET_KEY")
STRIPE_WEBHOOK_SECRET = required("STRIPE_WEBHOOK_SECRET")
PAYMENTS_INTERNAL_SECRET = required("PAYMENTS_INTERNAL_SECRET")
MAILERS = {"default": mailer_from_url(required("EMAIL_URL"))}  # a real mailer, no console default

# No embedded SQLite fallback: the booking guarantees (advisory locks, the exclusion
# constraint against double booking) are PostgreSQL's.
DATABASES = {"default": with_server_settings(env.db_url_config(required("DATABASE_URL")))}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# A web or worker process keeps its connection between requests (checked before reuse), rather
# than opening one per request. Every advisory lock Ordina takes ends with its transaction or
# is released in a `finally`, so a reused connection carries none over.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured(
        "DATABASE_URL must name a PostgreSQL database (postgres://user:pass@host:5432/ordina) "
        f"in production; got engine {DATABASES['default']['ENGINE']!r}."
    )

# One cache shared by every process: the public API's rate limit counts there, and a cache
# per process would let each worker allow the whole rate again.
CACHE_URL = required("CACHE_URL")
if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(
        "CACHE_URL must name a Redis server (redis://host:6379/1, rediss://… or unix://…) "
        "in production; the rate limits are shared through it."
    )
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_URL,
        # An unreachable Redis fails a request in seconds rather than holding a worker.
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
}

# Static files: gathered by `collectstatic` in the release step, served by the web process
# itself (whitenoise) under content-hashed names, compressed (gzip and Brotli), cached for a
# year by browsers and any CDN. A page naming a file collectstatic did not gather fails loudly.
MIDDLEWARE = [*MIDDLEWARE]  # noqa: F405
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "whitenoise.middleware.WhiteNoiseMiddleware",
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "ordina.static_storage.StaticFilesStorage"},
}

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# --- logs: one JSON object per line for the log collector (ordina.settings.logging) ----------
LOG_FORMAT = env.str("LOG_FORMAT", default="json")
LOGGING = logging_config(LOG_FORMAT, LOG_LEVEL)

# --- error reports (Sentry), only when SENTRY_DSN is set ------------------------------------
# Nothing personal is sent: no cookies, no body, no user, and no URL or Referer either, since
# paths carry the secret tokens of manage links and conversations (the report's transaction
# names the route instead); nor the stack's local variables, whose text (a request's, a
# token's) would carry them too. Each report is tagged with the request id of its log lines.
SENTRY_DSN = env.str("SENTRY_DSN", default="").strip()
if SENTRY_DSN:
    import sentry_sdk
    from django_guid import get_guid
    from sentry_sdk.integrations.celery import CeleryIntegration as SentryCeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.types import Event, Hint
    from sentry_sdk.utils import BadDsn

    def without_secrets(event: Event, hint: Hint) -> Event:
        request = event.get("request") or {}
        request.pop("url", None)
        request.pop("query_string", None)
        headers: dict[str, str] = request.get("headers") or {}  # type: ignore[assignment]
        for name in [name for name in headers if name.lower() == "referer"]:
            del headers[name]
        event.setdefault("tags", {})["request_id"] = get_guid()
        return event

    SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)
    if not 0.0 <= SENTRY_TRACES_SAMPLE_RATE <= 1.0:
        raise ImproperlyConfigured(
            f"SENTRY_TRACES_SAMPLE_RATE must be between 0 and 1 (got {SENTRY_TRACES_SAMPLE_RATE})."
        )
    try:
        sentry_sdk.init(
            dsn=SENTRY_DSN,
            environment=env.str("SENTRY_ENVIRONMENT", default="production"),
            release=env.str("SENTRY_RELEASE", default="") or None,
            send_default_pii=False,
            max_request_body_size="never",
            include_local_variables=False,
            traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE,
            integrations=[DjangoIntegration(), SentryCeleryIntegration()],
            before_send=without_secrets,
            before_send_transaction=without_secrets,  # traces carry the request too
        )
    except BadDsn as error:
        raise ImproperlyConfigured(
            f"SENTRY_DSN is not a Sentry DSN ({error}); it looks like "
            "https://<public key>@<host>/<project id>. Leave it unset to send no error reports."
        ) from None
