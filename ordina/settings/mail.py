"""Turn the EMAIL_URL variable into Django's MAILERS configuration."""

import environ

# django-environ's names for a parsed email URL → the SMTP/file backends' OPTIONS names.
_OPTION_NAMES = {
    "EMAIL_HOST": "host",
    "EMAIL_PORT": "port",
    "EMAIL_HOST_USER": "username",
    "EMAIL_HOST_PASSWORD": "password",
    "EMAIL_USE_TLS": "use_tls",
    "EMAIL_USE_SSL": "use_ssl",
    "EMAIL_FILE_PATH": "file_path",
}


def mailer_from_url(url: str) -> dict:
    """``smtp+tls://user:pass@host:587`` → ``{"BACKEND": ..., "OPTIONS": {...}}``.

    Only the options the URL actually gives are passed, so backends without a host (console,
    locmem) receive none.
    """
    parsed = environ.Env.email_url_config(url)
    options = {
        option: parsed[name]
        for name, option in _OPTION_NAMES.items()
        if parsed.get(name) not in (None, "")
    }
    return {"BACKEND": parsed["EMAIL_BACKEND"], "OPTIONS": options}
