"""Each settings module is loaded in a fresh interpreter, exactly as a deployment would."""

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
}


def run_manage(settings: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV}
    clean.update(env, DJANGO_SETTINGS_MODULE=settings)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_settings_pass_the_deployment_checks():
    result = run_manage("ordina.settings.production", PRODUCTION_ENV, "check", "--deploy")

    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    "missing", ["SECRET_KEY", "ALLOWED_HOSTS", "STRIPE_WEBHOOK_SECRET", "EMAIL_URL"]
)
def test_production_refuses_to_start_without_a_required_secret(missing):
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != missing}

    result = run_manage("ordina.settings.production", env, "check")

    assert result.returncode != 0
    assert missing in result.stderr


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
