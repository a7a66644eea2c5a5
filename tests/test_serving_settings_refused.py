"""The serving settings refuse a value that cannot work, at start and by name, rather than
running with it: a negative proxy count, a readiness deadline of nothing, a heartbeat that is
not a number."""

import subprocess
import sys

import pytest

from ordina import liveness
from tests.test_settings import PRODUCTION_ENV, ROOT, load_production


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("TRUSTED_PROXY_COUNT", "-1", "TRUSTED_PROXY_COUNT must be 0 or more (got -1)"),
        ("HEALTH_CHECK_SECONDS", "0", "HEALTH_CHECK_SECONDS must be more than 0"),
        ("HEALTH_CHECK_SECONDS", "600", "at most 60 (got 600)"),
    ],
)
def test_a_serving_setting_that_cannot_work_stops_the_process(name, value, message):
    result = load_production({**PRODUCTION_ENV, name: value})

    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.parametrize(
    ("value", "message"), [("ten", "a number of seconds"), ("0", "more than 0")]
)
def test_a_heartbeat_interval_that_cannot_work_is_named(monkeypatch, value, message):
    monkeypatch.setenv("HEARTBEAT_SECONDS", value)

    with pytest.raises(ValueError, match=message):
        liveness.heartbeat_seconds()


def test_the_liveness_check_refuses_an_unknown_role_with_its_choices():
    result = subprocess.run(
        [sys.executable, "-m", "ordina.alive", "web"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )

    assert result.returncode == 2
    assert "invalid choice: 'web'" in result.stderr
    assert "worker" in result.stderr
