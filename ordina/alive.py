"""``python -m ordina.alive worker`` (or ``beat``): exits 0 when this machine's Celery worker
(or beat) touched its heartbeat file lately, 1 otherwise, saying why (ordina.liveness). For a
process supervisor's or a container's liveness probe."""

import argparse
import sys

from ordina.liveness import ROLES, STALE_SECONDS, verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ordina.alive",
        description="Exit 0 when the Celery worker or beat of this machine is alive.",
    )
    parser.add_argument("role", choices=ROLES)
    parser.add_argument(
        "--within",
        type=float,
        default=STALE_SECONDS,
        help=f"seconds a heartbeat may be old (default {STALE_SECONDS:.0f})",
    )
    arguments = parser.parse_args(argv)
    alive, message = verdict(arguments.role, arguments.within)
    print(message, file=sys.stdout if alive else sys.stderr)
    return 0 if alive else 1


if __name__ == "__main__":
    sys.exit(main())
