"""The Celery app. Its configuration, the beat schedule included, lives in Django settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ordina.settings.local")

app = Celery("ordina")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
