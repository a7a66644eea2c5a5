"""The sites a business lets embed its booking page: what an owner types (one origin per line)
read into the exact origins a browser sends (``scheme://host[:port]``, lower case, no default
port, no path), or refused with a reason the owner can act on.

These origins end up in response headers (CSP ``frame-ancestors``, CORS
``Access-Control-Allow-Origin``), so nothing but a well-formed origin may pass: no wildcard, no
path, no space or semicolon. Plain http is refused except on the loopback hosts a developer
uses. Pure: no Django; ``bookings.validators`` turns a refusal into a form error.
"""

import ipaddress
import re
from urllib.parse import urlsplit

MAX_ORIGINS = 20
MAX_ORIGIN_CHARS = 300
# The whole field, so a pasted novel is refused before it is split into lines.
MAX_TEXT_CHARS = MAX_ORIGINS * (MAX_ORIGIN_CHARS + 2)
# Development only: a browser treats these as secure contexts even over plain http.
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
DEFAULT_PORTS = {"https": 443, "http": 80}
DNS_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


class OriginRefused(ValueError):
    """One line that is not an origin this field accepts; ``str()`` is the reason."""


def _host(netloc_host: str, line: str) -> str:
    """The host as a browser writes it in an Origin header (IDN in punycode, IPv6 bracketed)."""
    if "*" in netloc_host:
        raise OriginRefused(f"“{line}”: wildcards are not allowed; list each site on its own line.")
    if netloc_host.startswith("["):
        try:
            address = ipaddress.IPv6Address(netloc_host[1:-1])
        except ValueError:
            raise OriginRefused(f"“{line}” does not name a valid host.") from None
        return f"[{address.compressed}]"
    try:
        host = netloc_host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise OriginRefused(f"“{line}” does not name a valid host.") from None
    labels = host.split(".")
    if len(host) > 253 or not all(DNS_LABEL.fullmatch(label) for label in labels):
        raise OriginRefused(f"“{line}” does not name a valid host.")
    return host


def normalise_origin(line: str) -> str:
    """``line`` as an origin (``https://shop.example``, ``http://localhost:8000``), or
    OriginRefused saying what is wrong with it."""
    line = line.strip()
    if len(line) > MAX_ORIGIN_CHARS:
        raise OriginRefused(f"“{line[:40]}…” is longer than {MAX_ORIGIN_CHARS} characters.")
    if any(character.isspace() or character in ";,'\"" for character in line):
        raise OriginRefused(f"“{line}”: write one site per line, with no spaces or punctuation.")
    if "://" not in line:
        raise OriginRefused(f"“{line}” has no scheme: write it as https://{line.rstrip('/')}")
    try:
        parts = urlsplit(line)
        port = parts.port
    except ValueError:
        raise OriginRefused(f"“{line}” has an invalid host or port.") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise OriginRefused(
            f"“{line}”: only https:// sites can embed the booking page (http:// only for "
            "localhost while developing)."
        )
    if parts.username is not None or parts.password is not None:
        raise OriginRefused(f"“{line}”: a site's address has no user name or password in it.")
    if parts.path not in ("", "/") or parts.query or parts.fragment or line.endswith(("?", "#")):
        raise OriginRefused(
            f"“{line}” is a page, not a site: write just {scheme}://{parts.netloc} "
            "(no path, query or fragment)."
        )
    # The host as written (urlsplit's .hostname would drop the brackets of an IPv6 address).
    written_host = parts.netloc.rpartition("@")[2]
    if port is not None or written_host.endswith(":"):
        written_host = written_host.rpartition(":")[0]
    if not written_host:
        raise OriginRefused(f"“{line}” names no host.")
    host = _host(written_host, line)
    if scheme == "http" and host not in LOOPBACK_HOSTS:
        raise OriginRefused(
            f"“{line}” must use https://: plain http is allowed only for localhost and "
            "127.0.0.1, while developing."
        )
    if port == 0:
        raise OriginRefused(f"“{line}” has an invalid host or port.")
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def parse_origins(text: str) -> tuple[str, ...]:
    """Every non-blank line of ``text`` as an origin, duplicates dropped, in the owner's order.
    Raises OriginsRefused listing every line that is wrong (not just the first)."""
    if len(text) > MAX_TEXT_CHARS:
        raise OriginsRefused([f"The list is too long: at most {MAX_ORIGINS} sites, one per line."])
    lines = [line for line in text.splitlines() if line.strip()]
    problems: list[str] = []
    origins: list[str] = []
    for line in lines:
        try:
            origin = normalise_origin(line)
        except OriginRefused as refused:
            problems.append(str(refused))
            continue
        if origin not in origins:
            origins.append(origin)
    if len(origins) > MAX_ORIGINS:
        problems.append(f"At most {MAX_ORIGINS} sites may be listed; this list has {len(origins)}.")
    if problems:
        raise OriginsRefused(problems)
    return tuple(origins)


def stored_origins(text: str) -> tuple[str, ...]:
    """The origins of a stored list, for a response header: only lines that are valid origins
    (a row written around validation must not put anything else into a header)."""
    found: list[str] = []
    for line in text.splitlines()[: MAX_ORIGINS * 2]:
        try:
            origin = normalise_origin(line)
        except OriginRefused:
            continue
        if origin not in found:
            found.append(origin)
    return tuple(found[:MAX_ORIGINS])


class OriginsRefused(ValueError):
    """A list with wrong lines; ``problems`` says what is wrong with each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
