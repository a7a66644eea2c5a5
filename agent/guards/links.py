"""Links: a reply carries only the links the core handed over this turn.

Those are the deposit's Checkout, the client's page for their appointment and the business's
own site (any page of it). Any other address — written with a scheme, as www.…, or as a bare
host with a path or a common top-level domain — takes its sentence with it: a model can be
talked into "pay the rest at https://…", and a sentence with its link cut out would still
send the client looking for it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from agent.guards.ledger import GuardResult, TurnFacts
from agent.guards.sentences import drop_sentences

_HOST = r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+"
_COMMON_TLDS = (
    r"(?:com|net|org|io|co|app|dev|info|biz|xyz|link|pay|shop|site|online|me|ly|to|gg|"
    r"example|eu|uk|pt|es|de|fr|it|nl|br|us)"
)
LINK = re.compile(
    r"(?<![\w@.-])(?:"
    r"(?:https?|ftp|javascript|data|file|mailto|tel|sms|intent):[^\s<>\"']+"
    r"|www\.[^\s<>\"']+"
    rf"|{_HOST}[a-z]{{2,24}}/[^\s<>\"']*"
    rf"|{_HOST}{_COMMON_TLDS}\b(?![.-]?\w)"
    r")",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?)]}'\""


def _normal(link: str) -> str:
    return link.rstrip(_TRAILING).rstrip("/")


def _host(link: str) -> str:
    address = link if "://" in link else f"http://{link}"
    return (urlsplit(address).hostname or "").lower().removeprefix("www.")


def link_allowed(link: str, facts: TurnFacts) -> bool:
    link = _normal(link)
    if any(link == _normal(given) for given in facts.links if given):
        return True
    site = _host(facts.site) if facts.site else ""
    return bool(site) and _host(link) == site and link.lower().startswith(("http", "www", site))


def links_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """Every link stated is one the core handed over; a sentence with any other goes."""

    def offending(sentence: str) -> str | None:
        for match in LINK.finditer(sentence):
            if not link_allowed(match[0], facts):
                return f"link the core did not hand over: {_normal(match[0])[:200]!r}"
        return None

    return drop_sentences(reply, facts, "links", offending)
