"""gunicorn's configuration for the web process (Procfile: ``gunicorn --config
python:ordina.gunicorn ordina.wsgi``). Everything a deployment sizes comes from the environment.

Workers are synchronous: a request is short and holds its database connection for its length,
and the concurrency guarantees live in PostgreSQL, not in the process. Scale by running more
workers (``WEB_CONCURRENCY``) and more machines behind a load balancer (docs/deploy.md).
"""

import gc
import os

from ordina.settings.logging import gunicorn_logging_config


def _cores() -> int:
    # The cores this process may run on (a container's limit), not the host's count.
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# Every interface by default: the process is reached through a load balancer or a platform's
# router, on the port it is given.
bind = f"{os.environ.get('WEB_BIND', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"  # noqa: S104
# gunicorn's advice: two workers per core and one more.
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * _cores() + 1)
worker_class = "sync"
# A request that takes longer is killed and its worker replaced; the model's own deadline
# (ORDINA_MODEL_TIMEOUT) is well inside it.
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
# Each worker is replaced after about this many requests, so a slow leak cannot grow forever.
max_requests = 2000
max_requests_jitter = 200
# Django is loaded once, before the workers fork: they start faster and share its memory.
preload_app = True
# The worker heartbeats gunicorn writes go to memory, not to a disk that may stall.
SHARED_MEMORY = "/dev/shm"  # noqa: S108 (gunicorn's own files, private to its processes)
worker_tmp_dir = SHARED_MEMORY if os.path.isdir(SHARED_MEMORY) else None
# Requests are logged by Django, with their request id (ordina.request_log); gunicorn logs
# its own start, stop and worker events to stderr, as JSON like Django's lines unless
# LOG_FORMAT is "text" (these are the production settings' lines; an unknown format stops it).
accesslog = None
errorlog = "-"
logconfig_dict = gunicorn_logging_config(os.environ.get("LOG_FORMAT", "json"))
# No runtime control socket: processes are managed by signals from the supervisor, and two
# servers on one machine would otherwise share its default path.
control_socket_disable = True


def pre_fork(server, worker) -> None:
    """Before each worker forks from the loaded application: move everything the start-up made
    (Django, the apps, the URL patterns, the catalogues) to the collector's permanent
    generation. A full collection in a worker then walks only what its requests made, not the
    whole framework: those walks were the slowest requests' extra 100 ms or more
    (bench/gc_pauses.py). The frozen objects are never freed, which they never would be."""
    gc.freeze()


def post_fork(server, worker) -> None:
    server.log.info("worker %s: %s objects frozen at start-up", worker.pid, gc.get_freeze_count())
