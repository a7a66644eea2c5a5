"""Each settings module is loaded in a fresh interpreter, exactly as a deployment would."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION_ENV = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "book.ordina.example",
    "DATABASE_URL": "postgres://ordina:pw@db.internal:5432/ordina",
    "STRIPE_SECRET_KEY": "sk_live_x",
    "STRIPE_WEBHOOK_SECRET": "whsec_x",
    "PAYMENTS_INTERNAL_SECRET": secrets.token_urlsafe(32),
    "EMAIL_URL": "smtp+tls://ordina:pw@smtp.ordina.example:587",
    "CACHE_URL": "redis://cache.internal:6379/1",
}
REQUIRED_IN_PRODUCTION = sorted(PRODUCTION_ENV)


def run_manage(settings: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return run_python(settings, env, "manage.py", *args)


# Set in this test process, never in a deployed one: the browser tests' Playwright loop needs
# it for as long as their browser is open (tests/browser/conftest.py).
TEST_PROCESS_ONLY = {"DJANGO_ALLOW_ASYNC_UNSAFE"}


def run_python(settings: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in PRODUCTION_ENV and k not in TEST_PROCESS_ONLY
    }
    clean.update(env, DJANGO_SETTINGS_MODULE=settings)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def load_production(env: dict[str, str], code: str = "") -> subprocess.CompletedProcess:
    """The production settings read in a fresh interpreter; with ``code``, Django is set up on
    them and ``code`` runs."""
    program = (
        f"import django; django.setup(); {code}" if code else "import ordina.settings.production"
    )
    return run_python("ordina.settings.production", env, "-c", program)


def test_production_settings_pass_the_deployment_checks():
    result = run_manage("ordina.settings.production", PRODUCTION_ENV, "check", "--deploy")

    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "STRIPE_WEBHOOK_SECRET"])
def test_production_refuses_to_start_without_a_required_secret(missing):
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != missing}

    result = run_manage("ordina.settings.production", env, "check")

    assert result.returncode != 0
    assert f"Set the {missing} environment variable" in result.stderr


# Reads the production settings once per case, each time from scratch, in one fresh
# interpreter: {"NAME=value": the error, or "started"}. A value of None unsets NAME.
READ_EACH_CASE = """
import importlib, json, os, sys
cases, answers = json.loads(sys.argv[1]), {}
for name, value in cases:
    before = dict(os.environ)
    os.environ.pop(name, None) if value is None else os.environ.update({name: value})
    for module in ("ordina.settings.production", "ordina.settings.base"):
        sys.modules.pop(module, None)
    try:
        importlib.import_module("ordina.settings.production")
        answers[f"{name}={value}"] = "started"
    except Exception as error:
        answers[f"{name}={value}"] = str(error)
    os.environ.clear()
    os.environ.update(before)
print(json.dumps(answers))
"""


def test_production_refuses_every_required_variable_unset_or_empty():
    cases = [(name, value) for name in REQUIRED_IN_PRODUCTION for value in (None, "", "  ")]

    result = run_python(
        "ordina.settings.production", PRODUCTION_ENV, "-c", READ_EACH_CASE, json.dumps(cases)
    )

    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout)
    assert len(answers) == len(cases)
    for (name, value), error in zip(cases, answers.values(), strict=True):
        assert f"Set the {name} environment variable" in error, (name, value, error)


def test_production_starts_with_every_required_variable():
    result = load_production(PRODUCTION_ENV)

    assert result.returncode == 0, result.stderr


def test_production_refuses_a_blank_secret():
    result = load_production({**PRODUCTION_ENV, "PAYMENTS_INTERNAL_SECRET": "   "})

    assert result.returncode != 0
    assert "Set the PAYMENTS_INTERNAL_SECRET environment variable" in result.stderr


@pytest.mark.parametrize(
    "url", ["sqlite:////var/lib/ordina/ordina.sqlite3", "mysql://ordina:pw@db:3306/ordina"]
)
def test_production_refuses_a_database_other_than_postgres(url):
    result = load_production({**PRODUCTION_ENV, "DATABASE_URL": url})

    assert result.returncode != 0
    assert "DATABASE_URL must name a PostgreSQL database" in result.stderr


def test_production_refuses_a_cache_other_than_redis():
    result = load_production({**PRODUCTION_ENV, "CACHE_URL": "locmem://"})

    assert result.returncode != 0
    assert "CACHE_URL must name a Redis server" in result.stderr


def test_production_processes_share_one_redis_cache_for_the_rate_limits():
    # Two processes, as two web workers: what one counts, the other sees. DRF's throttle keeps
    # its counts in this cache, so the rate limit holds across workers.
    redis_url = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
    env = {**PRODUCTION_ENV, "CACHE_URL": redis_url}
    key = f"ordina-test-shared-{secrets.token_hex(8)}"

    first = load_production(
        env,
        "from django.conf import settings; from django.core.cache import cache; "
        f"print(settings.CACHES['default']['BACKEND']); cache.set({key!r}, 7, 60)",
    )
    second = load_production(
        env,
        f"from django.core.cache import cache; print(cache.get({key!r})); cache.delete({key!r})",
    )

    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["django.core.cache.backends.redis.RedisCache"]
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["7"]


@pytest.mark.parametrize("settings", ["ordina.settings.production", "ordina.settings.local"])
def test_postgresql_sessions_open_without_just_in_time_compilation(settings):
    """Every settings module's PostgreSQL connection (the test settings' own: the connection
    test in tests/test_database_connection.py)."""
    code = "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS'])"
    result = run_python(settings, PRODUCTION_ENV, "-c", f"import django; django.setup(); {code}")

    assert result.returncode == 0, result.stderr
    assert "-c jit=off" in result.stdout


def test_test_settings_refuse_a_non_postgres_database():
    result = run_manage("ordina.settings.test", {"DATABASE_URL": "sqlite:///x.sqlite3"}, "check")

    assert result.returncode != 0
    assert "The test suite runs on PostgreSQL" in result.stderr


def test_local_settings_default_to_the_embedded_sqlite_database():
    env = {"DATABASE_URL": ""}
    code = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    result = run_manage("ordina.settings.local", env, "shell", "-c", code)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "django.db.backends.sqlite3"
