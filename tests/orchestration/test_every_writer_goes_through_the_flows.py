"""Every change of an appointment made outside the core keeps its reminders in step, because
every caller outside the core goes through ``orchestration``: the core's writers and payments'
appointment-moving functions leave the reminders alone unless handed them, so a module that
called them bare would book, move, cancel or confirm without planning or dropping reminders.

Read from the source, so a new caller that skips the flow fails here before it ships."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPLICATION = ("ordina", "bookings", "payments", "reminders", "knowledge", "agent", "pages")
APPLICATION += ("analytics", "scripts", "devtools")

# Whoever calls these without ``in_step`` leaves the reminders behind the appointment.
BARE_WRITERS = {
    "bookings.services": {
        "appointment_create",
        "appointment_reschedule",
        "appointment_cancel",
        "appointment_record_outcome",
        "appointment_confirm_deposit",
        "appointment_release_unpaid",
    },
    "payments.services": {
        "apply_payment_facts",
        "webhook_receive",
        "webhook_reprocess",
        "payment_verify",
        "reconcile_pending",
        "release_unpaid_expired",
        "deposit_checkout_open",
    },
}
# The writers themselves, and the package that hands them the reminders.
ALLOWED = ("bookings/services/", "payments/services/", "orchestration/")


def bare_writer_imports(path: Path) -> list[str]:
    """``module.name`` for each bare writer ``path`` imports (from the package or any of its
    modules), or the module itself when it is imported whole."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {alias.name for alias in node.names}
            for package, writers in BARE_WRITERS.items():
                parent, _, last = package.rpartition(".")
                if node.module == package or node.module.startswith(f"{package}."):
                    found += [f"{node.module}.{name}" for name in sorted(names & writers)]
                elif node.module == parent and last in names:
                    found.append(package)  # ``from payments import services``: all of them
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name in BARE_WRITERS]
    return found


def application_modules() -> list[Path]:
    paths = []
    for package in APPLICATION:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" not in relative and not relative.startswith(ALLOWED):
                paths.append(path)
    return paths


def test_no_caller_outside_the_flows_uses_a_writer_that_leaves_the_reminders_behind():
    skipping = {
        path.relative_to(ROOT).as_posix(): found
        for path in application_modules()
        if (found := bare_writer_imports(path))
    }

    assert skipping == {}, "call these through orchestration (appointment_changes, ...)"


def test_the_source_check_sees_a_bare_writer_however_it_is_imported(tmp_path):
    module = tmp_path / "caller.py"
    module.write_text(
        "from bookings.services import ClientDetails, appointment_create\n"
        "from bookings.services.changes import appointment_cancel\n"
        "from payments.services.reconcile import payment_verify\n"
        "from payments import services\n"
        "import bookings.services\n"
    )

    assert bare_writer_imports(module) == [
        "bookings.services.appointment_create",
        "bookings.services.changes.appointment_cancel",
        "payments.services.reconcile.payment_verify",
        "payments.services",
        "bookings.services",
    ]


def test_the_core_imports_no_app_beside_it_nor_the_flows_above_it():
    """The reminders reach the core only as its caller's ``in_step``."""
    wrong_way = [
        f"{path.name}: {node.module}"
        for path in sorted((ROOT / "bookings" / "services").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").split(".")[0] in {"reminders", "payments", "orchestration"}
    ]

    assert wrong_way == []
