"""What reading a bomb costs, measured in a process of its own: a DOCX that unpacks to 300 MB
of XML (before the limits: 2 GB of memory and over a minute) and a PDF whose stream inflates to
100 MB are refused within a second and a few megabytes. The reading process runs with its
address space capped at 1 GiB, so a regression fails here with a MemoryError instead of
taking the machine's memory."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.knowledge.documents import MB, docx_zip_bomb, pdf_bomb

ROOT = Path(__file__).resolve().parents[2]
ADDRESS_SPACE_CAP = 1024 * MB
MEASURE = f"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE_CAP}, {ADDRESS_SPACE_CAP}))
from knowledge.extract import UnreadableSource, document_text
import docx, lxml.etree, pypdf  # imported before measuring: their cost is not the read's
path, extension = sys.argv[1], sys.argv[2]
content = open(path, "rb").read()
def peak_kb():
    # VmHWM, the peak resident memory of this program alone (ru_maxrss would count the
    # parent's memory at the fork that started it).
    status = open("/proc/self/status").read()
    return int(status.split("VmHWM:")[1].split()[0])
before = peak_kb()
started = time.perf_counter()
try:
    document_text(content, extension=extension)
    refusal = None
except UnreadableSource as error:
    refusal = str(error)
seconds = time.perf_counter() - started
after = peak_kb()
print(json.dumps({{
    "refusal": refusal,
    "seconds": seconds,
    "grown_mb": (after - before) / 1024,
    "peak_mb": after / 1024,
}}))
"""


def cost_of_reading(path: Path, extension: str) -> dict:
    finished = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path), extension],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    return json.loads(finished.stdout)


@pytest.mark.parametrize(
    ("extension", "build", "refusal"),
    [
        pytest.param(
            "docx",
            lambda: docx_zip_bomb(unpacked_bytes=300 * MB),
            "This file can't be read: it expands to more than 16 MB in one part",
            id="docx-unpacking-to-300-MB",
        ),
        pytest.param(
            "pdf",
            lambda: pdf_bomb(inflated_bytes=100 * MB),
            "This file can't be read: part of it expands beyond what is read",
            id="pdf-inflating-to-100-MB",
        ),
    ],
)
def test_reading_a_bomb_is_refused_in_bounded_time_and_memory(
    tmp_path, record_property, extension, build, refusal
):
    bomb = tmp_path / f"bomb.{extension}"
    bomb.write_bytes(build())

    cost = cost_of_reading(bomb, extension)

    record_property("seconds", round(cost["seconds"], 3))
    record_property("grown_mb", round(cost["grown_mb"], 1))
    record_property("peak_mb", round(cost["peak_mb"], 1))
    print(
        f"{bomb.stat().st_size:,} bytes refused in {cost['seconds']:.2f} s; "
        f"peak {cost['peak_mb']:.0f} MB, {cost['grown_mb']:.0f} MB of it while reading"
    )
    assert cost["refusal"].startswith(refusal)
    assert cost["seconds"] < 5
    assert cost["grown_mb"] < 64
    assert cost["peak_mb"] < 256  # the interpreter and the readers' modules included
