"""The Celery app. Its configuration, the beat schedule included, lives in Django settings.

``celery -A ordina worker`` and ``beat`` are served processes: without DJANGO_SETTINGS_MODULE
they load the production settings, which refuse to start without every secret (``make worker``
and ``make beat`` choose the local settings explicitly). Importing the ``ordina`` package runs
this module, so the default set here is also the one ``ordina.wsgi`` and ``ordina.asgi`` see;
``manage.py`` chooses its own (local) before anything imports ``ordina``.
"""

import os

from celery import Celery

from ordina.liveness import WorkerHeartbeat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ordina.settings.production")

app = Celery("ordina")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The flows' periodic jobs (orchestration/tasks.py): a package of flows, not an installed app.
app.autodiscover_tasks(["orchestration"])
# The worker's heartbeat file, read by its liveness check (ordina.liveness).
app.steps["worker"].add(WorkerHeartbeat)
