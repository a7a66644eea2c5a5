"""The demo and local development: the embedded SQLite file unless DATABASE_URL says otherwise."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DEBUG", default=True)
# A fixed, public key is acceptable only here: local runs hold no real data or sessions.
SECRET_KEY = env.str("SECRET_KEY", default="ordina-local-development-only-not-a-secret")
