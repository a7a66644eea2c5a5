"""Make sure the browser tests' two tools are here: Debian's Chromium (Playwright drives it; its
own browser download cannot reach the internet) and axe-core (from the npm registry, pinned in
package-lock.json), installing each where this machine knows how. Called by services.py; a tool
that cannot be had is a failure with a clear message, never a skipped test.
"""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LOG = ROOT / "var" / "tools.log"


def chromium_path() -> str | None:
    """The Chromium the tests launch: $CHROMIUM if set, else Debian's on PATH."""
    named = os.environ.get("CHROMIUM")
    if named:
        return named if Path(named).is_file() else None
    return shutil.which("chromium")


def _logged(command: list[str]) -> bool:
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with LOG.open("ab") as log:
        log.write(f"$ {' '.join(command)}\n".encode())
        log.flush()
        done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, check=False)
    return done.returncode == 0


def ensure_chromium() -> str | None:
    """None when Chromium is here (installed now if need be), else why not."""
    if chromium_path():
        print(f"services: Chromium found at {chromium_path()}")
        return None
    if os.environ.get("CHROMIUM"):
        return f"CHROMIUM={os.environ['CHROMIUM']} is not a file"
    apt = shutil.which("apt-get")
    if not apt or os.geteuid() != 0:
        return (
            "Chromium is not installed; install Debian's package (apt-get install chromium) "
            "or set CHROMIUM to a Chromium executable"
        )
    print(f"services: Chromium is missing; installing Debian's package (output: {LOG})")
    env_ok = _logged([apt, "update", "-q"]) and _logged([apt, "install", "-y", "-q", "chromium"])
    if not env_ok or not chromium_path():
        return f"installing Chromium with apt-get failed; see {LOG}"
    print(f"services: Chromium installed at {chromium_path()}")
    return None


def ensure_axe() -> str | None:
    """None when axe-core is in node_modules (installed from the lock file if need be)."""
    if AXE.is_file():
        print("services: axe-core found")
        return None
    npm = shutil.which("npm")
    if not npm:
        return "axe-core is not installed and npm is missing; install Node.js and npm"
    print(f"services: installing axe-core from package-lock.json (output: {LOG})")
    command = [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", str(ROOT)]
    if not _logged(command) or not AXE.is_file():
        return f"npm ci failed to install axe-core; see {LOG}"
    return None
