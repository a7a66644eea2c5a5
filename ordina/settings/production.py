"""Production: no secret has a default, and the transport is hardened."""

from .base import *  # noqa: F403
from .base import env
from .mail import mailer_from_url

DEBUG = False
SECRET_KEY = env.str("SECRET_KEY")  # no default: a missing key stops the process at start
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
STRIPE_SECRET_KEY = env.str("STRIPE_SECRET_KEY")
STRIPE_WEBHOOK_SECRET = env.str("STRIPE_WEBHOOK_SECRET")
PAYMENTS_INTERNAL_SECRET = env.str("PAYMENTS_INTERNAL_SECRET")
MAILERS = {"default": mailer_from_url(env.str("EMAIL_URL"))}  # a real mailer, no console default

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
