"""Finding or creating the client behind a booking: a returning client is the same row."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError
from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.db.models.lookups import Exact

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
    client when neither is known. ``details`` must be normalized."""
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
    changed = []
    if details.email and not client.email and not others.filter(_email_is(details.email)).exists():
        client.email = details.email
        changed.append("email")
    if details.phone and not client.phone and not others.filter(phone=details.phone).exists():
        client.phone = details.phone
        changed.append("phone")
    if changed:
        client.save(update_fields=[*changed, "updated_at"])
    return client
