"""``manage.py create_operator``: Ordina's operators are made from the command line, the password
never on it; a refused run says why, exits non-zero and writes nothing."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError
from django.urls import reverse

from bookings.access import OPERATORS_GROUP
from tests.factories import PASSWORD, BusinessFactory, UserFactory, operator, owner_of

pytestmark = pytest.mark.django_db

User = get_user_model()
STRONG = "a long walk to the harbour"


class Terminal(io.StringIO):
    """What the command reads from when a person runs it at a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def password_env(monkeypatch):
    monkeypatch.setenv("OPERATOR_PASSWORD", STRONG)
    return "OPERATOR_PASSWORD"


def create_operator(*args: str, **options) -> str:
    out = io.StringIO()
    call_command("create_operator", *args, stdout=out, **options)
    return out.getvalue()


def is_operator(user) -> bool:
    return user.groups.filter(name=OPERATORS_GROUP).exists()


def accounts() -> list[tuple]:
    """Everything the command could write, to compare before and after a refused run."""
    return list(
        User.objects.order_by("pk").values_list(
            "username", "email", "password", "is_staff", "is_superuser", "groups__name"
        )
    )


def test_creates_a_staff_operator_who_is_no_superuser(password_env):
    said = create_operator("ana", email="ana@ordina.example", password_from_env=password_env)

    ana = User.objects.get(username="ana")
    assert "Created the operator 'ana'" in said
    assert ana.is_staff
    assert not ana.is_superuser
    assert is_operator(ana)
    assert ana.email == "ana@ordina.example"
    assert ana.check_password(STRONG)


def test_the_new_operator_signs_in_and_reads_the_audit_log_of_every_business(password_env, client):
    create_operator("ana", email="ana@ordina.example", password_from_env=password_env)

    assert client.login(username="ana", password=STRONG)
    assert client.get(reverse("admin:agent_auditentry_changelist")).status_code == 200
    # ... and nothing a business keeps: an operator reads, and only the audit data.
    assert client.get(reverse("admin:bookings_service_changelist")).status_code == 403


def test_makes_an_existing_account_an_operator_keeping_its_password():
    bea = UserFactory(username="bea", is_staff=False)

    said = create_operator("bea", interactive=False)

    bea.refresh_from_db()
    assert "'bea' is now an operator" in said
    assert bea.is_staff
    assert is_operator(bea)
    assert bea.check_password(PASSWORD)


def test_an_operator_made_again_changes_nothing():
    cid = operator(username="cid")
    before = accounts()

    said = create_operator("cid", interactive=False)

    assert "already is an operator; nothing changed" in said
    assert accounts() == before
    assert is_operator(cid)


def test_asks_for_the_password_twice_in_a_terminal(monkeypatch):
    answers = iter([STRONG, STRONG])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))

    create_operator("dan", email="dan@ordina.example", stdin=Terminal())

    assert User.objects.get(username="dan").check_password(STRONG)


@pytest.mark.parametrize(
    ("args", "options", "env", "reason"),
    [
        pytest.param(
            ["  "], {"email": "x@ordina.example"}, STRONG, "username is empty", id="blank username"
        ),
        pytest.param(
            ["a b"], {"email": "x@ordina.example"}, STRONG, "username 'a b'", id="bad username"
        ),
        pytest.param(["eve"], {}, STRONG, "needs an email address", id="no email"),
        pytest.param(["eve"], {"email": "eve"}, STRONG, "'eve' is not an email", id="bad email"),
        pytest.param(
            ["eve"],
            {"email": "eve@ordina.example"},
            "eve",
            "password is refused",
            id="weak password",
        ),
    ],
)
def test_refuses_bad_input_for_a_new_operator_and_writes_nothing(
    monkeypatch, args, options, env, reason
):
    monkeypatch.setenv("OPERATOR_PASSWORD", env)
    before = accounts()

    with pytest.raises(CommandError, match=reason):
        create_operator(*args, password_from_env="OPERATOR_PASSWORD", **options)

    assert accounts() == before


def test_refuses_a_missing_or_empty_password_variable(monkeypatch):
    monkeypatch.delenv("NOT_SET", raising=False)
    monkeypatch.setenv("EMPTY", "")

    with pytest.raises(CommandError, match="variable NOT_SET is not set"):
        create_operator("eve", email="eve@ordina.example", password_from_env="NOT_SET")
    with pytest.raises(CommandError, match="variable EMPTY is empty"):
        create_operator("eve", email="eve@ordina.example", password_from_env="EMPTY")

    assert not User.objects.filter(username="eve").exists()


def test_without_a_password_or_a_terminal_a_new_operator_is_refused():
    with pytest.raises(CommandError, match="needs a password: give --password-from-env"):
        create_operator("eve", email="eve@ordina.example", interactive=False)
    with pytest.raises(CommandError, match="Not in a terminal"):
        create_operator("eve", email="eve@ordina.example", stdin=io.StringIO())

    assert not User.objects.filter(username="eve").exists()


def test_two_different_passwords_at_the_terminal_write_nothing(monkeypatch):
    answers = iter([STRONG, STRONG + "!"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))

    with pytest.raises(CommandError, match="two passwords differ"):
        create_operator("eve", email="eve@ordina.example", stdin=Terminal())

    assert not User.objects.filter(username="eve").exists()


def test_refuses_to_make_a_superuser_an_operator():
    User.objects.create_superuser("root", "root@ordina.example", PASSWORD)
    before = accounts()

    with pytest.raises(CommandError, match="'root' is a superuser"):
        create_operator("root", interactive=False)

    assert accounts() == before


def test_refuses_to_make_a_member_of_a_business_an_operator():
    owner = owner_of(BusinessFactory(name="Salon Lua"), user__username="fay")
    before = accounts()

    with pytest.raises(CommandError, match="'fay' is a member of Salon Lua"):
        create_operator("fay", interactive=False)

    assert accounts() == before
    assert not is_operator(owner)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"email": "other@ordina.example"}, "another email address"),
        ({"password_from_env": "OPERATOR_PASSWORD"}, "keeps their password"),
    ],
)
def test_an_existing_account_keeps_its_email_and_password(password_env, options, reason):
    UserFactory(username="gus", email="gus@ordina.example", is_staff=False)
    before = accounts()

    with pytest.raises(CommandError, match=reason):
        create_operator("gus", interactive=False, **options)

    assert accounts() == before


def test_a_refused_run_exits_non_zero_and_says_why(capsys):
    with pytest.raises(SystemExit) as exit:
        execute_from_command_line(["manage.py", "create_operator", "", "--no-input"])

    assert exit.value.code != 0
    assert "The username is empty." in capsys.readouterr().err
