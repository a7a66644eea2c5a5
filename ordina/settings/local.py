"""The demo and local development: the embedded SQLite file unless DATABASE_URL says otherwise."""

from pathlib import Path

from .base import *  # noqa: F403
from .base import BASE_DIR, DATABASE_URL, env

DEBUG = env.bool("DEBUG", default=True)
# A fixed, public key is acceptable only here: local runs hold no real data or sessions.
SECRET_KEY = env.str("SECRET_KEY", default="ordina-local-development-only-not-a-secret")
# The embedded database means no broker either (the demo needs nothing installed): documents
# and web pages are then read in the process that saved them (knowledge.tasks).
KNOWLEDGE_READ_INLINE = env.bool("KNOWLEDGE_READ_INLINE", default=not DATABASE_URL)

# `make run` starts a Celery worker and beat beside the web server (Procfile.dev). With no
# broker named, they pass messages through files under var/ (kombu's filesystem transport):
# like the embedded database, nothing needs installing. It suits one machine only; a
# deployment names its Redis in CELERY_BROKER_URL.
if not env.str("CELERY_BROKER_URL", default="").strip():
    LOCAL_BROKER_DIR = Path(env.str("LOCAL_BROKER_DIR", default=str(BASE_DIR / "var" / "broker")))
    LOCAL_BROKER_DIR.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://localhost//"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(LOCAL_BROKER_DIR),
        "data_folder_out": str(LOCAL_BROKER_DIR),
        "control_folder": str(LOCAL_BROKER_DIR / "control"),
    }
