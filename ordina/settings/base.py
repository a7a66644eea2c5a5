"""Settings shared by every environment. Secrets and machine-specific values come from ``env``."""

import datetime as dt
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django_guid.integrations import CeleryIntegration

from .database import with_server_settings
from .logging import logging_config
from .mail import mailer_from_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# A local .env file is a convenience for developers; real deployments set the environment.
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# --- core -----------------------------------------------------------------------------------
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "ordina.apps.DashboardConfig",  # Django's admin, with the dashboard's own site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "axes",
    "csp",
    "corsheaders",
    "django_guid",
    "bookings",
    "dashboard",  # the dashboard pages of the core's models (its admin module registers them)
    "payments",
    "agent",
    "reminders",
    "knowledge",
    "pages",
    "analytics",
]

MIDDLEWARE = [
    # The health endpoints answer before anything else reads the request (ordina.health).
    "ordina.health.HealthMiddleware",
    # A request id for every log line of the request and the tasks it queues (django-guid).
    "django_guid.middleware.guid_middleware",
    # One line per request, with its route, status and time, under that id (ordina.request_log).
    "ordina.request_log.RequestLogMiddleware",
    # Outermost, so a database failure anywhere below it (a view, the session, the dashboard's
    # time zone) answers 503 rather than a 500 page (ordina.database_unavailable).
    "ordina.database_unavailable.DatabaseUnavailableMiddleware",
    # Early, as django-cors-headers asks (it answers preflights itself), but inside the
    # outage guard: whether an origin may call the API is read from the database.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "bookings.middleware.BusinessTimeZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "ordina.urls"
WSGI_APPLICATION = "ordina.wsgi.application"
ASGI_APPLICATION = "ordina.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- what a browser may load and who may frame us (django-csp) -----------------------------
# One strict policy for every response: scripts and styles from this server only (no inline
# script, no eval; the one inline style is the business's accent, carrying the per-request
# nonce), nothing fetched from another host, and no page framed by anyone. The hosted booking
# page alone replaces frame-ancestors with its business's embedding sites
# (pages.embed.framing); the DEBUG-only embedding example loads the widget from the other
# loopback origin (pages.embed.views). Django's admin runs under the same policy.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF],
        "connect-src": [SELF],
        # Forms post only here; the deposit goes to Stripe Checkout by a link, not a form.
        "form-action": [SELF],
        "base-uri": [NONE],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
    }
}

# --- which browser origins may call the public API (django-cors-headers) -------------------
# Only /api/v1/, and only for the origins some business lists as its embedding sites
# (pages.embed.cross_origin answers corsheaders' check_request_enabled signal): nothing is
# allowed by these settings alone. No credentials: the public API reads no cookies.
CORS_URLS_REGEX = r"^/api/v1/"
CORS_ALLOWED_ORIGINS: list[str] = []
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ("GET", "POST", "OPTIONS")
CORS_ALLOW_HEADERS = ("accept", "content-type", "idempotency-key")
# A 409 turn_in_progress and a 429 say when to try again; the request id lets a widget's
# report of a failure be found in the server's logs.
CORS_EXPOSE_HEADERS = ("retry-after", "x-request-id")
CORS_PREFLIGHT_MAX_AGE = 600

# --- database -------------------------------------------------------------------------------
# Unset DATABASE_URL means the embedded SQLite file: the demo runs with nothing installed.
# Tests and production run on Postgres (the concurrency guarantees are Postgres's).
EMBEDDED_DATABASE = BASE_DIR / "var" / "ordina.sqlite3"
DATABASE_URL = env.str("DATABASE_URL", default="").strip()  # empty counts as unset
if not DATABASE_URL:
    EMBEDDED_DATABASE.parent.mkdir(exist_ok=True)
DATABASES = {
    "default": with_server_settings(
        env.db_url_config(DATABASE_URL or f"sqlite:///{EMBEDDED_DATABASE}")
    )
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has no advisory locks: every write transaction takes the database's write lock
    # when it begins, so bookings are serialised (and waiting writers queue, not fail).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- sign-in lock-out (django-axes) -----------------------------------------------------------
# Guessing a dashboard password is stopped: after AXES_FAILURE_LIMIT wrong passwords for one
# account from one address, that account cannot sign in from that address for
# AXES_COOLOFF_MINUTES (other accounts, and the same account elsewhere, are unaffected). A
# successful sign-in clears the count. Axes's backend comes first so it is asked before any
# password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_MINUTES = env.int("AXES_COOLOFF_MINUTES", default=15)
if AXES_FAILURE_LIMIT < 1 or AXES_COOLOFF_MINUTES < 1:
    raise ImproperlyConfigured(
        "AXES_FAILURE_LIMIT and AXES_COOLOFF_MINUTES must be whole numbers of at least 1 "
        f"(got {AXES_FAILURE_LIMIT} and {AXES_COOLOFF_MINUTES})."
    )
AXES_COOLOFF_TIME = dt.timedelta(minutes=AXES_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Failures while locked out do not restart the clock: "try again in 15 minutes" stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "ordina.sign_in_lockout.lockout_response"
# Failed sign-ins and lock-outs are still logged; this drops the banner axes prints at the start
# of every command (it would open `make demo`'s output).
AXES_VERBOSE = False

# --- i18n and time: aware datetimes stored in UTC; each business's rules in its own zone ----
LANGUAGE_CODE = "en-us"
# The languages a client is answered in: the assistant, the booking and manage pages, the
# widget, the emails. Each app's catalogue is in its own locale/ directory (Django finds them);
# `make messages` refreshes and compiles them.
LANGUAGES = [("en", "English"), ("es", "Español")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `collectstatic` gathers the files the web process serves (whitenoise).
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "var" / "static")
# Uploaded files (the knowledge base's documents). Never served as public URLs: they are read by
# the server only.
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "var" / "media")

# --- who the client is behind a load balancer ----------------------------------------------
# How many proxies in front of Ordina append the address they were reached from to
# X-Forwarded-For (a load balancer: 1). 0 trusts no X-Forwarded-For at all. Every per-client
# limit (the API's rate, holds per address, the sign-in lock-out) reads the client from it
# (ordina.client_address).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured(
        f"TRUSTED_PROXY_COUNT must be 0 or more (got {TRUSTED_PROXY_COUNT})."
    )
AXES_CLIENT_IP_CALLABLE = "ordina.client_address.client_address"

# --- health checks (ordina.health) ----------------------------------------------------------
# The longest a readiness probe waits for the database, the cache, the broker and the migrations.
HEALTH_CHECK_SECONDS = env.float("HEALTH_CHECK_SECONDS", default=2.0)
if not 0 < HEALTH_CHECK_SECONDS <= 60:
    raise ImproperlyConfigured(
        f"HEALTH_CHECK_SECONDS must be more than 0 and at most 60 (got {HEALTH_CHECK_SECONDS:g})."
    )

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_RATES": {"public": env.str("PUBLIC_API_RATE", default="120/minute")},
    # The same client as every other limit (ordina.client_address): with None, DRF would trust
    # whatever X-Forwarded-For a client sends and anyone could step around the rate limit.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
# How many live holds one client address (an IPv6 client's /64) may have at one business: with
# the rate limit alone, one address could hold a whole day and turn every other client away.
HOLDS_PER_ADDRESS = env.int("HOLDS_PER_ADDRESS", default=3)
if HOLDS_PER_ADDRESS < 1:
    raise ImproperlyConfigured("HOLDS_PER_ADDRESS must be at least 1: with 0 nobody could hold.")
SPECTACULAR_SETTINGS = {
    "TITLE": "Ordina API",
    "DESCRIPTION": "Booking engine: deterministic core, agentic shell.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "ENUM_NAME_OVERRIDES": {
        "AppointmentStatusEnum": "bookings.models.AppointmentStatus",
        "ConflictCodeEnum": "api.errors.CONFLICT_CODES",
    },
}

# --- Celery (Redis broker); the beat schedule is declared here, in one place ---------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/0")
CELERY_RESULT_BACKEND = None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# How often beat asks a worker to send the reminders that are due.
REMINDERS_DISPATCH_SECONDS = env.float("REMINDERS_DISPATCH_SECONDS", default=60.0)
# The one beat schedule: fixed times, none of them the model's to choose. Each task takes no
# arguments, claims its own work from the database and is safe to run twice.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "dispatch-reminders": {
        "task": "reminders.tasks.dispatch_reminders",
        "schedule": REMINDERS_DISPATCH_SECONDS,
    },
    "release-expired-holds": {"task": "bookings.tasks.release_holds", "schedule": 60.0},
    "release-unpaid-appointments": {"task": "orchestration.tasks.release_unpaid", "schedule": 60.0},
    "reconcile-payments": {"task": "orchestration.tasks.reconcile_payments", "schedule": 300.0},
    "sync-calendars": {"task": "bookings.tasks.sync_calendars", "schedule": 900.0},
    "sweep-knowledge-reads": {"task": "knowledge.tasks.sweep_knowledge_reads", "schedule": 120.0},
}
# Beat's scheduler touches its heartbeat file on every tick (ordina.liveness); its record of
# last runs is kept with the project's other local files, not in the working directory.
CELERY_BEAT_SCHEDULER = "ordina.liveness:HeartbeatScheduler"
CELERY_BEAT_SCHEDULE_FILENAME = env.str(
    "CELERY_BEAT_SCHEDULE_FILENAME", default=str(BASE_DIR / "var" / "celerybeat-schedule")
)
# A dispatcher's claim on due reminders: a claim older than this (its worker died) is taken
# again. It must outlast sending one batch, or a slow batch is sent twice.
REMINDERS_LEASE_SECONDS = env.int("REMINDERS_LEASE_SECONDS", default=300)

# --- connected calendars -------------------------------------------------------------------
# Feeds are owner-supplied URLs fetched by the server: only public addresses unless allowed.
CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = env.bool(
    "CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES", default=False
)

# --- the knowledge base ---------------------------------------------------------------------
# How many characters of a business's knowledge base a prompt may include, shared fairly
# between its sources (knowledge.budget).
KNOWLEDGE_BUDGET_CHARS = env.int("KNOWLEDGE_BUDGET_CHARS", default=6000)
# Uploaded documents and web pages are read by a Celery worker, never in the owner's request:
# at most this many seconds per source (then it is stopped and recorded as failed), on this
# queue ("" = Celery's default). Inline reads them in the process that saved them, after
# commit: only for running without a broker (the embedded demo; see knowledge.tasks).
KNOWLEDGE_READ_SECONDS = env.int("KNOWLEDGE_READ_SECONDS", default=60)
KNOWLEDGE_READ_QUEUE = env.str("KNOWLEDGE_READ_QUEUE", default="")
KNOWLEDGE_READ_INLINE = env.bool("KNOWLEDGE_READ_INLINE", default=False)

# --- the public face ------------------------------------------------------------------------
# Where clients reach this server: the base of every link written into an email, a reply or a
# Stripe Checkout (booking pages, appointment pages, calendars).
# Unset, it is this machine on `make run`'s port (RUN_PORT), so the emails' links work there.
PUBLIC_URL = env.str(
    "PUBLIC_URL", default=f"http://localhost:{env.int('RUN_PORT', default=8000)}"
).rstrip("/")

# --- Stripe: only payments/stripe_api.py reads these ----------------------------------------
STRIPE_SECRET_KEY = env.str("STRIPE_SECRET_KEY", default="")
STRIPE_WEBHOOK_SECRET = env.str("STRIPE_WEBHOOK_SECRET", default="")
# Lets tests point the SDK at a local fake Stripe server; production leaves it unset.
STRIPE_API_BASE = env.str("STRIPE_API_BASE", default="")
# How long an appointment awaiting its deposit is held (Stripe's minimum is 30 minutes), and
# where Stripe Checkout sends the client back to.
PAYMENT_HOLD_MINUTES = env.int("PAYMENT_HOLD_MINUTES", default=30)
# Where Stripe Checkout sends the client back to: the business's booking page ({slug}), which
# shows where the payment stands (it never takes the redirect as proof of payment).
PAYMENT_SUCCESS_URL = env.str(
    "PAYMENT_SUCCESS_URL", default=f"{PUBLIC_URL}/b/{{slug}}/?payment=returned"
)
PAYMENT_CANCEL_URL = env.str(
    "PAYMENT_CANCEL_URL", default=f"{PUBLIC_URL}/b/{{slug}}/?payment=cancelled"
)
# Shared secret of the internal server-to-server payment verification caller.
PAYMENTS_INTERNAL_SECRET = env.str("PAYMENTS_INTERNAL_SECRET", default="")

# --- client links in messages ---------------------------------------------------------------
MANAGE_URL_TEMPLATE = env.str("MANAGE_URL_TEMPLATE", default=f"{PUBLIC_URL}/manage/{{token}}/")
CALENDAR_URL_TEMPLATE = env.str(
    "CALENDAR_URL_TEMPLATE", default=f"{PUBLIC_URL}/manage/{{token}}/calendar.ics"
)
REBOOK_URL_TEMPLATE = env.str("REBOOK_URL_TEMPLATE", default=f"{PUBLIC_URL}/b/{{slug}}/")

# --- the model behind the agentic shell ----------------------------------------------------
# "offline" is the embedded deterministic model; "openai:<model>" or "anthropic:<model>" pick
# an adapter. These are read only by agent/llm/registry.py (and its startup check).
ORDINA_MODEL = env.str("ORDINA_MODEL", default="offline")
ORDINA_MODEL_BASE_URL = env.str("ORDINA_MODEL_BASE_URL", default="")
ORDINA_MODEL_API_KEY = env.str("ORDINA_MODEL_API_KEY", default="")
# Seconds one model request may take before the turn counts it unavailable (and re-asks).
ORDINA_MODEL_TIMEOUT = env.float("ORDINA_MODEL_TIMEOUT", default=20.0)
# The longest answer a hosted model may write in one request: a bound on cost and latency.
ORDINA_MODEL_MAX_TOKENS = env.int("ORDINA_MODEL_MAX_TOKENS", default=1024)

# --- email ----------------------------------------------------------------------------------
# An empty EMAIL_URL counts as unset, like DATABASE_URL.
MAILERS = {"default": mailer_from_url(env.str("EMAIL_URL", default="").strip() or "consolemail://")}
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Ordina <bookings@localhost>")

# --- logs (ordina.settings.logging) ---------------------------------------------------------
# "text" for a person at a terminal; production's default is "json", one object per line.
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = logging_config(LOG_FORMAT, LOG_LEVEL)

# --- request ids (django-guid) --------------------------------------------------------------
# Every response carries X-Request-ID, the id on each log line of its request. A client (or a
# load balancer) may send its own, kept only when it is a UUID: anything else is replaced, so
# nothing a client writes reaches the logs through it. A task queued by a request carries the
# request's id and logs under it; a scheduled task gets an id of its own.
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "VALIDATE_GUID": True,
    "RETURN_HEADER": True,
    # django-guid would write its own Access-Control-Expose-Headers over django-cors-headers'
    # (retry-after lost), and on every response; CORS_EXPOSE_HEADERS names the id instead.
    "EXPOSE_HEADER": False,
    # use_django_logging: the worker and beat log through LOGGING above, not Celery's own setup.
    "INTEGRATIONS": [CeleryIntegration(use_django_logging=True)],
}
