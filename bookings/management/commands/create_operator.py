"""``manage.py create_operator USERNAME --email E``: one of Ordina's operators, who read the audit
data of every business in the dashboard and change nothing (``bookings.operators``).

The password never goes on the command line, where the shell's history and the process list
would keep it: it is read from an environment variable (``--password-from-env VAR``) or asked
for twice in a terminal, as ``createsuperuser`` does."""

import getpass
import os
import sys
from typing import TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bookings.operators import OperatorRefused, make_operator, vet_operator


class Command(BaseCommand):
    help = (
        "Create an operator (a staff account in the Operators group: reads the audit of every "
        "business, changes nothing), or make an existing account one."
    )
    # call_command(..., stdin=...) is how a test gives the command its terminal (or none).
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", help="The new operator's email address.")
        parser.add_argument(
            "--password-from-env",
            metavar="VAR",
            help="The environment variable holding the new operator's password.",
        )
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="Never ask for anything (then a new operator needs --password-from-env).",
        )

    def handle(
        self,
        *args,
        username: str,
        email: str | None,
        password_from_env: str | None,
        interactive: bool,
        **options,
    ) -> None:
        try:
            new_account = vet_operator(username=username, email=email)
            password = self._password(
                new_account=new_account,
                variable=password_from_env,
                interactive=interactive,
                terminal=options.get("stdin") or sys.stdin,
            )
            made = make_operator(username=username, email=email, password=password)
        except OperatorRefused as refused:
            raise CommandError(str(refused)) from None
        if made.created:
            message = f"Created the operator {made.username!r}."
        elif made.changed:
            message = f"{made.username!r} is now an operator."
        else:
            message = f"{made.username!r} already is an operator; nothing changed."
        self.stdout.write(self.style.SUCCESS(message))

    def _password(
        self, *, new_account: bool, variable: str | None, interactive: bool, terminal: TextIO
    ) -> str | None:
        if variable is not None:
            value = os.environ.get(variable)
            if value is None:
                raise CommandError(f"The environment variable {variable} is not set.")
            if not value:
                raise CommandError(f"The environment variable {variable} is empty.")
            return value
        if not new_account:
            return None  # an existing account keeps its password
        if not interactive:
            raise CommandError(
                "A new operator needs a password: give --password-from-env VAR, the name of "
                "the environment variable holding it, or run without --no-input to be asked."
            )
        if not terminal.isatty():
            raise CommandError(
                "Not in a terminal, so the password cannot be asked for: give "
                "--password-from-env VAR, the name of the environment variable holding it."
            )
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ; nothing was written.")
        return password
