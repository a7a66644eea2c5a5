"""Turn the EMAIL_URL variable into Django's MAILERS configuration."""

from urllib.parse import urlsplit

import environ

# django-environ's names for a parsed email URL → the SMTP/file backends' OPTIONS names.
_OPTION_NAMES = {
    "EMAIL_HOST": "host",
    "EMAIL_PORT": "port",
    "EMAIL_HOST_USER": "username",
    "EMAIL_HOST_PASSWORD": "password",
    "EMAIL_USE_TLS": "use_tls",
    "EMAIL_USE_SSL": "use_ssl",
}


def mailer_from_url(url: str) -> dict:
    """``smtp+tls://user:pass@host:587?timeout=5`` → ``{"BACKEND": ..., "OPTIONS": {...}}``.

    Only the options the URL actually gives are passed, so backends without a host (console,
    locmem) receive none. Query parameters become options too (``timeout=5``).
    """
    parsed = environ.Env.email_url_config(url)
    options = {
        option: parsed[name]
        for name, option in _OPTION_NAMES.items()
        if parsed.get(name) not in (None, "")
    }
    options.update({name.lower(): value for name, value in parsed.get("OPTIONS", {}).items()})
    if parsed["EMAIL_BACKEND"].endswith("filebased.EmailBackend"):
        # django-environ drops the leading slash of an absolute path; read it from the URL.
        options["file_path"] = urlsplit(url).path
    return {"BACKEND": parsed["EMAIL_BACKEND"], "OPTIONS": options}
