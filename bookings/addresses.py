"""A client's network address as the hold limit counts it: narrowed to what one client controls,
and kept only as a keyed hash.

Why a keyed hash and not the address: an IP address is personal data, and the holds table is
readable in the dashboard by the business's owners and staff. A plain SHA-256 would not hide
it — there are only 2**32 IPv4 addresses, so an unkeyed hash is reversed by trying them all.
An HMAC-SHA-256 keyed with the server's SECRET_KEY (which the database does not hold) can only
be compared — "is this the same client?" — which is all the limit needs. Rotating SECRET_KEY
forgets the counts of holds still alive (at most one hold length), nothing more.

Why a network for IPv6: a subscriber is usually given a whole /64 and may use any of its 2**64
addresses, so counting single IPv6 addresses would not bound one client. IPv4 addresses (and
IPv4 addresses written as IPv6) count as themselves.
"""

import ipaddress

from django.utils.crypto import salted_hmac

IPV6_CLIENT_PREFIX = 64
HASH_PURPOSE = "ordina.bookings.hold-address"


def client_network(address: str) -> str:
    """``address`` as the one client it stands for: an IPv4 address as itself, an IPv6 address
    as its /64. Text that is no IP address (a server on a Unix socket may report "") is kept
    as it is: every request carrying it counts as the same client, as the rate limit counts it."""
    text = address.strip()
    try:
        parsed = ipaddress.ip_address(text.split("%", 1)[0])  # an IPv6 zone names no client
    except ValueError:
        return text
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_CLIENT_PREFIX), strict=False))
    return str(parsed)


def address_hash(address: str) -> str:
    """The 64-hex-digit keyed hash stored for ``address`` (its client network)."""
    return salted_hmac(HASH_PURPOSE, client_network(address), algorithm="sha256").hexdigest()
