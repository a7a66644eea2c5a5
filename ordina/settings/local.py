"""The demo and local development: the embedded SQLite file unless DATABASE_URL says otherwise."""

from .base import *  # noqa: F403
from .base import DATABASE_URL, env

DEBUG = env.bool("DEBUG", default=True)
# A fixed, public key is acceptable only here: local runs hold no real data or sessions.
SECRET_KEY = env.str("SECRET_KEY", default="ordina-local-development-only-not-a-secret")
# The embedded database means no broker either (the demo needs nothing installed): documents
# and web pages are then read in the process that saved them (knowledge.tasks).
KNOWLEDGE_READ_INLINE = env.bool("KNOWLEDGE_READ_INLINE", default=not DATABASE_URL)
