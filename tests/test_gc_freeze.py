"""Each web worker starts with the application it forked from frozen out of the garbage
collector's reach (ordina/gunicorn.py), so a full collection in a worker walks only what its
requests made. The worker says how many objects were frozen when it starts."""

import re
import time

import pytest

from tests.test_logging import json_lines

FROZEN = re.compile(r"worker \d+: (\d+) objects frozen at start-up")


def frozen_counts(server) -> list[int]:
    return [
        int(found.group(1))
        for line in json_lines(server.log_path.read_text())
        if (found := FROZEN.search(line["message"]))
    ]


@pytest.mark.django_db(transaction=True)
def test_every_worker_starts_with_the_loaded_application_frozen(production_servers):
    server = production_servers(workers=2)
    deadline = time.monotonic() + 60
    while len(frozen := frozen_counts(server)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)  # the server answers once one worker is up; the other follows
    server.kill()

    assert len(frozen) == 2, server.log
    # Django, DRF, the apps and their URL patterns are some hundred thousand objects; a worker
    # that froze nothing (or only gunicorn's own) would report far fewer.
    assert min(frozen) > 100_000, frozen
