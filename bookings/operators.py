"""Making a user one of Ordina's operators: staff who read the audit data of every business and
nothing else (``bookings.access``). What an operator may do comes from the ``Operators`` group
and the access table, not from Django's model permissions, so the group carries none (as the
migration that creates it).

An operator is an account of its own: never a superuser (who already sees everything, so the
group would only blur who has which reach) and never a member of a business (whose owner or
staff would then read every other business's audit log).
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models, transaction

from bookings.access import OPERATORS_GROUP
from bookings.models import Membership


class OperatorRefused(ValueError):
    """Why nobody was made an operator; nothing was written."""


@dataclass(frozen=True)
class OperatorMade:
    username: str
    created: bool  # a new account; else an existing one, now an operator
    changed: bool  # False: the account already was an operator, nothing was written


def vet_operator(*, username: str, email: str | None) -> bool:
    """Refuse (``OperatorRefused``) what ``make_operator`` would refuse whatever the password, so
    nobody is asked for a password only to be refused. True when ``username`` names no account
    yet: then a password is needed."""
    existing = _account(username=username)
    if existing is None:
        _vet_new(username=username.strip(), email=email)
        return True
    _vet_existing(user=existing, email=email)
    return False


def make_operator(*, username: str, email: str | None, password: str | None) -> OperatorMade:
    """Create the operator ``username``, or make the existing account ``username`` one. A new
    account needs an email and a password the project's validators accept; an existing one keeps
    its own (neither is changed here). Raises ``OperatorRefused`` with the reason."""
    with transaction.atomic():
        existing = _account(username=username)
        if existing is None:
            return _create(username=username.strip(), email=email, password=password)
        return _promote(user=existing, email=email, password=password)


def _account(*, username: str) -> User | None:
    username = username.strip()
    if not username:
        raise OperatorRefused("The username is empty.")
    return get_user_model()._default_manager.filter(**{_username_field(): username}).first()


def _vet_new(*, username: str, email: str | None) -> None:
    field = get_user_model()._meta.get_field(_username_field())
    try:
        if isinstance(field, models.Field):  # its length and characters
            field.clean(username, None)
    except ValidationError as invalid:
        raise OperatorRefused(f"The username {username!r}: {' '.join(invalid.messages)}") from None
    if not (email or "").strip():
        raise OperatorRefused("A new operator needs an email address (--email).")
    try:
        validate_email((email or "").strip())
    except ValidationError:
        raise OperatorRefused(f"{email!r} is not an email address.") from None


def _vet_existing(*, user: User, email: str | None) -> None:
    if user.is_superuser:
        raise OperatorRefused(
            f"{user.get_username()!r} is a superuser, who already sees everything; "
            "an operator is an account of its own."
        )
    businesses = list(Membership.objects.filter(user=user).values_list("business__name", flat=True))
    if businesses:
        raise OperatorRefused(
            f"{user.get_username()!r} is a member of {', '.join(sorted(businesses))}: an "
            "operator reads every business's audit log, so it is an account of its own."
        )
    if email and email.strip().lower() != user.email.lower():
        raise OperatorRefused(
            f"{user.get_username()!r} already exists with another email address; "
            "it is not changed here."
        )


def _create(*, username: str, email: str | None, password: str | None) -> OperatorMade:
    _vet_new(username=username, email=email)
    email = (email or "").strip()
    if not password:
        raise OperatorRefused("A new operator needs a password.")
    user_model = get_user_model()
    try:
        validate_password(password, user_model(username=username, email=email))
    except ValidationError as weak:
        raise OperatorRefused(f"The password is refused: {' '.join(weak.messages)}") from None
    user = user_model._default_manager.create_user(username, email, password, is_staff=True)
    user.groups.add(_operators_group())
    return OperatorMade(username=username, created=True, changed=True)


def _promote(*, user: User, email: str | None, password: str | None) -> OperatorMade:
    _vet_existing(user=user, email=email)
    if password:
        raise OperatorRefused(
            f"{user.get_username()!r} already exists and keeps their password; "
            "change it with `manage.py changepassword`."
        )
    group = _operators_group()
    if user.is_staff and user.groups.filter(pk=group.pk).exists():
        return OperatorMade(username=user.get_username(), created=False, changed=False)
    user.is_staff = True  # without it, Django's admin does not let them sign in
    user.save(update_fields=["is_staff"])
    user.groups.add(group)
    return OperatorMade(username=user.get_username(), created=False, changed=True)


def _operators_group() -> Group:
    # Normally there from the migration; a flushed test database has lost it.
    return Group.objects.get_or_create(name=OPERATORS_GROUP)[0]


def _username_field() -> str:
    return get_user_model().USERNAME_FIELD
