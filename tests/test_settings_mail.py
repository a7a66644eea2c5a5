"""EMAIL_URL → MAILERS: the URL's parts become the backend's OPTIONS, and only those it gives."""

import pytest
from django.core import mail
from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.core.mail.backends.smtp import EmailBackend as SmtpBackend
from django.test import override_settings

from ordina.settings.mail import mailer_from_url

SMTP = "django.core.mail.backends.smtp.EmailBackend"


def mailer(url: str):
    """The backend Django builds from ``url`` as its default mailer (nothing is sent)."""
    with override_settings(MAILERS={"default": mailer_from_url(url)}):
        return mail.mailers.default


def test_console_url_gives_the_console_backend_with_no_options():
    assert mailer_from_url("consolemail://") == {
        "BACKEND": "django.core.mail.backends.console.EmailBackend",
        "OPTIONS": {},
    }


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("consolemail://", ConsoleBackend),
        ("memorymail://", LocmemBackend),
    ],
)
def test_backends_without_a_host_are_built_by_django(url, backend):
    # A host-less backend refuses OPTIONS it does not know; it must receive none.
    assert isinstance(mailer(url), backend)


def test_smtp_tls_url_gives_every_option_it_names():
    assert mailer_from_url("smtp+tls://ordina:s3cret@smtp.example.com:587") == {
        "BACKEND": SMTP,
        "OPTIONS": {
            "host": "smtp.example.com",
            "port": 587,
            "username": "ordina",
            "password": "s3cret",
            "use_tls": True,
        },
    }


def test_smtp_ssl_url_asks_for_implicit_tls():
    config = mailer_from_url("smtp+ssl://ordina:s3cret@smtp.example.com:465")

    assert config["OPTIONS"]["use_ssl"] is True
    assert "use_tls" not in config["OPTIONS"]


def test_escaped_characters_in_the_credentials_are_decoded():
    config = mailer_from_url("smtp+tls://ordina%40example.com:p%40ss%2Fw0rd@smtp.example.com:587")

    assert config["OPTIONS"]["username"] == "ordina@example.com"
    assert config["OPTIONS"]["password"] == "p@ss/w0rd"


def test_smtp_url_without_credentials_passes_only_host_and_port():
    assert mailer_from_url("smtp://localhost:25") == {
        "BACKEND": SMTP,
        "OPTIONS": {"host": "localhost", "port": 25},
    }


def test_smtp_options_reach_the_backend_django_builds():
    backend = mailer("smtp+tls://ordina:s3cret@smtp.example.com:587")

    assert isinstance(backend, SmtpBackend)
    assert (backend.host, backend.port, backend.username, backend.password) == (
        "smtp.example.com",
        587,
        "ordina",
        "s3cret",
    )
    assert backend.use_tls is True
    assert backend.use_ssl is False


def test_smtp_query_options_are_passed_to_the_backend():
    config = mailer_from_url("smtp+tls://ordina:s3cret@smtp.example.com:587?timeout=5")

    assert config["OPTIONS"].get("timeout") == 5
