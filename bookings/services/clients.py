"""Finding or creating the client behind a booking: a returning client is the same row."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, connection
from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.db.models.lookups import Exact
from django.utils import timezone

from bookings.errors import InvalidBooking
from bookings.models import Business, Client, normalize_phone

NAME_MAX = Client._meta.get_field("name").max_length or 120
EMAIL_MAX = Client._meta.get_field("email").max_length or 254
PHONE_INPUT_MAX = Client._meta.get_field("phone").max_length or 32


@dataclass(frozen=True)
class ClientDetails:
    name: str
    email: str = ""
    phone: str = ""

    def normalized(self, business: Business) -> "ClientDetails":
        """Trimmed, email lowercased, phone in E.164; InvalidBooking names each bad field."""
        errors = {}
        name, email, phone = self.name.strip(), self.email.strip().lower(), self.phone.strip()
        if not name:
            errors["name"] = "Please give a name."
        elif len(name) > NAME_MAX:
            errors["name"] = f"A name has at most {NAME_MAX} characters."
        if len(email) > EMAIL_MAX:
            errors["email"] = f"An email address has at most {EMAIL_MAX} characters."
            email = ""
        if len(phone) > PHONE_INPUT_MAX:
            errors["phone"] = f"A phone number has at most {PHONE_INPUT_MAX} characters."
            phone = ""
        if email:
            try:
                validate_email(email)
            except ValidationError:
                errors["email"] = f"{email!r} is not an email address."
        if phone:
            try:
                phone = normalize_phone(phone, business.country)
            except ValidationError as exc:
                errors["phone"] = exc.messages[0]
        if not email and not phone:
            errors.setdefault("email", "Please give an email address or a phone number.")
        if errors:
            raise InvalidBooking(errors)
        return ClientDetails(name=name, email=email, phone=phone)


def _clients(business: Business) -> QuerySet[Client]:
    return Client.objects.filter(business=business).order_by()


def _email_is(email: str) -> Exact:
    # lower(email) = %s, the unique index's own expression, so the look-up uses the index.
    return Exact(Lower("email"), email)


def _find(business: Business, details: ClientDetails) -> Client | None:
    if details.email:
        found = _clients(business).filter(_email_is(details.email)).first()
        if found:
            return found
    if details.phone:
        return _clients(business).filter(phone=details.phone).first()
    return None


def client_for_booking(business: Business, details: ClientDetails) -> Client:
    """The business's client with this email (or else phone), filling in what it lacked; a new
    client when neither is known. ``details`` must be normalized.

    On PostgreSQL the look-ups and the insert are one statement (a booking sends it under its
    lock, where every statement is paid for by whoever waits); elsewhere, and when a client
    committed by a concurrent booking got in that statement's way, the same answer in up to
    three."""
    if connection.vendor == "postgresql":
        found = client_by_one_statement(business, details)
        if found is not None:
            return found
    return client_by_queries(business, details)


def client_by_queries(business: Business, details: ClientDetails) -> Client:
    """``client_for_booking`` through the ORM, on any database."""
    client = _find(business, details)
    if client is None:
        # ON CONFLICT DO NOTHING: a client created a moment ago by another booking is simply
        # found below, without a savepoint around the insert.
        Client.objects.bulk_create(
            [
                Client(
                    business=business, name=details.name, email=details.email, phone=details.phone
                )
            ],
            ignore_conflicts=True,
        )
        client = _find(business, details)
        if client is None:
            raise IntegrityError("the client row could be neither created nor found")
        return client
    # Fill in what the known client lacked, unless another client of the business already has
    # it (an email on one row and the phone on another: the rows stay as they are).
    others = _clients(business).exclude(pk=client.pk)
    email_elsewhere = (
        bool(details.email and not client.email)
        and others.filter(_email_is(details.email)).exists()
    )
    phone_elsewhere = (
        bool(details.phone and not client.phone) and others.filter(phone=details.phone).exists()
    )
    return _filled_in(details, client, email_elsewhere, phone_elsewhere)


def _filled_in(
    details: ClientDetails,
    client: Client,
    email_elsewhere: bool,
    phone_elsewhere: bool,
) -> Client:
    changed = []
    if details.email and not client.email and not email_elsewhere:
        client.email = details.email
        changed.append("email")
    if details.phone and not client.phone and not phone_elsewhere:
        client.phone = details.phone
        changed.append("phone")
    if changed:
        client.save(update_fields=[*changed, "updated_at"])
    return client


_COLUMNS = ("id", "created_at", "updated_at", "business_id", "name", "email", "phone")
# Ranks: 0 the row just inserted, 1 the client with this email, 2 the client with this phone.
# The insert runs only when neither look-up found a row; ON CONFLICT DO NOTHING covers a client
# committed by another booking after this statement's snapshot (then no row comes back, and
# the caller looks again with a fresh snapshot).
_FOUND_OR_MADE = """
WITH by_email AS (
    SELECT id, created_at, updated_at, business_id, name, email, phone, 1 AS rank
    FROM bookings_client
    WHERE business_id = %(business)s AND %(email)s <> '' AND lower(email) = %(email)s
), by_phone AS (
    SELECT id, created_at, updated_at, business_id, name, email, phone, 2 AS rank
    FROM bookings_client
    WHERE business_id = %(business)s AND %(phone)s <> '' AND phone = %(phone)s
), made AS (
    INSERT INTO bookings_client (created_at, updated_at, business_id, name, email, phone)
    SELECT %(now)s, %(now)s, %(business)s, %(name)s, %(email)s, %(phone)s
    WHERE NOT EXISTS (SELECT FROM by_email) AND NOT EXISTS (SELECT FROM by_phone)
    ON CONFLICT DO NOTHING
    RETURNING id, created_at, updated_at, business_id, name, email, phone, 0 AS rank
)
SELECT * FROM made UNION ALL SELECT * FROM by_email UNION ALL SELECT * FROM by_phone
ORDER BY rank
"""


def client_by_one_statement(business: Business, details: ClientDetails) -> Client | None:
    """``client_for_booking`` in one statement on PostgreSQL (two when something is filled
    in), or None when a concurrent booking's new client got in the way."""
    with connection.cursor() as cursor:
        cursor.execute(
            _FOUND_OR_MADE,
            {
                "business": business.pk,
                "name": details.name,
                "email": details.email,
                "phone": details.phone,
                "now": timezone.now(),
            },
        )
        rows = cursor.fetchall()
    if not rows:
        return None
    *values, _ = rows[0]
    client = Client.from_db(connection.alias, _COLUMNS, values)
    client.business = business
    ids_by_rank = {rank: row[0] for *row, rank in rows}
    email_elsewhere = ids_by_rank.get(1, client.pk) != client.pk
    phone_elsewhere = ids_by_rank.get(2, client.pk) != client.pk
    return _filled_in(details, client, email_elsewhere, phone_elsewhere)
