"""The served entry points — ``ordina.wsgi``, ``ordina.asgi``, ``celery -A ordina`` — never run
on the local settings by default: without DJANGO_SETTINGS_MODULE they load the production
settings, which refuse to start without every secret. ``manage.py`` stays on the local settings
for development. Each case runs in a fresh interpreter, as a deployment starts it.
"""

import os
import subprocess
import sys

import pytest

from tests.test_settings import PRODUCTION_ENV, ROOT


def run(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``command`` with no settings module and no secrets in its environment but ``env``."""
    clean = {
        name: value
        for name, value in os.environ.items()
        if name not in PRODUCTION_ENV and name != "DJANGO_SETTINGS_MODULE"
    }
    return subprocess.run(
        command,
        cwd=ROOT,
        env={**clean, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def python(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return run([sys.executable, "-c", code], env)


SHOW_SETTINGS = "from django.conf import settings; print(settings.SETTINGS_MODULE, settings.DEBUG)"


@pytest.mark.parametrize("entry_point", ["ordina.wsgi", "ordina.asgi"])
def test_a_served_entry_point_without_settings_refuses_to_start(entry_point):
    result = python(f"import {entry_point}")

    assert result.returncode != 0
    assert "Set the SECRET_KEY environment variable" in result.stderr


def test_importing_the_package_first_does_not_choose_the_local_settings():
    # `import ordina` runs ordina/celery.py, which sets the default the entry points then see.
    result = python(f"import ordina; import ordina.wsgi; {SHOW_SETTINGS}")

    assert result.returncode != 0
    assert "Set the SECRET_KEY environment variable" in result.stderr


@pytest.mark.parametrize("entry_point", ["ordina.wsgi", "ordina.asgi"])
def test_a_served_entry_point_starts_on_production_settings_given_every_secret(entry_point):
    result = python(f"import {entry_point}; {SHOW_SETTINGS}", PRODUCTION_ENV)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["ordina.settings.production", "False"]


def test_a_celery_worker_without_settings_refuses_to_start():
    result = run([sys.executable, "-m", "celery", "-A", "ordina", "worker", "--pool=solo"])

    assert result.returncode != 0
    assert "Set the SECRET_KEY environment variable" in result.stderr


def test_manage_py_keeps_the_local_settings_for_development():
    code = "from django.conf import settings; print(settings.SETTINGS_MODULE)"

    result = run([sys.executable, "manage.py", "shell", "-c", code], {"DATABASE_URL": ""})

    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "ordina.settings.local"
