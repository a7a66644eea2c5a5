"""Factories for test data. They build valid rows; tests override only what they are about."""

import datetime as dt
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from bench.harness import open_salon
from bookings.access import OPERATORS_GROUP
from bookings.actors import ActorKind
from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    Business,
    BusyBlock,
    Client,
    DateOverride,
    Membership,
    OpeningHours,
    Role,
    Service,
    SlotHold,
)

PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    is_staff = True
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def persist_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class BusinessFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Business

    slug = factory.Sequence(lambda n: f"business-{n}")
    name = factory.Sequence(lambda n: f"Business {n}")
    time_zone = "Europe/Lisbon"
    country = "PT"
    currency = "EUR"


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    business = factory.SubFactory(BusinessFactory)
    role = Role.OWNER


def owner_of(business: Business, **user_fields):
    return MembershipFactory(business=business, role=Role.OWNER, **user_fields).user


def staff_of(business: Business, **user_fields):
    return MembershipFactory(business=business, role=Role.STAFF, **user_fields).user


def operator(**user_fields):
    user = UserFactory(**user_fields)
    # get_or_create: a transactional test's flush removes what the data migration created.
    user.groups.add(Group.objects.get_or_create(name=OPERATORS_GROUP)[0])
    return user


class OpeningHoursFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = OpeningHours

    business = factory.SubFactory(BusinessFactory)
    weekday = 0
    opens_at = dt.time(9)
    closes_at = dt.time(17)


class DateOverrideFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = DateOverride

    business = factory.SubFactory(BusinessFactory)
    date = dt.date(2026, 12, 25)
    opens_at = None
    closes_at = None


class BusyBlockFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BusyBlock

    business = factory.SubFactory(BusinessFactory)
    starts_at = dt.datetime(2026, 12, 1, 10, tzinfo=dt.UTC)
    ends_at = dt.datetime(2026, 12, 1, 11, tzinfo=dt.UTC)
    summary = "Team meeting"


class ServiceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Service

    business = factory.SubFactory(BusinessFactory)
    name = factory.Sequence(lambda n: f"Service {n}")
    duration_minutes = 45
    list_price = Decimal("60.00")
    price_floor = Decimal("50.00")


class ClientFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Client

    business = factory.SubFactory(BusinessFactory)
    name = factory.Sequence(lambda n: f"Client {n}")
    email = factory.Sequence(lambda n: f"client{n}@example.com")


class AppointmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Appointment

    business = factory.SubFactory(BusinessFactory)
    service = factory.SubFactory(ServiceFactory, business=factory.SelfAttribute("..business"))
    client = factory.SubFactory(ClientFactory, business=factory.SelfAttribute("..business"))
    starts_at = dt.datetime(2026, 12, 2, 10, tzinfo=dt.UTC)
    ends_at = factory.LazyAttribute(lambda a: a.starts_at + dt.timedelta(minutes=45))
    occupied_from = factory.SelfAttribute("starts_at")
    occupied_until = factory.SelfAttribute("ends_at")
    # Raw rows, not bookings: each gets its own seat so rows at one time never collide in the
    # exclusion constraint. Tests of capacity book through bookings.services instead.
    seat = factory.Sequence(lambda n: n + 1)
    price = Decimal("60.00")


class AppointmentEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AppointmentEvent

    appointment = factory.SubFactory(AppointmentFactory)
    business = factory.SelfAttribute("appointment.business")
    kind = AppointmentEventKind.CREATED
    actor_kind = ActorKind.SYSTEM


class SlotHoldFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SlotHold

    business = factory.SubFactory(BusinessFactory)
    service = factory.SubFactory(ServiceFactory, business=factory.SelfAttribute("..business"))
    holder = factory.Sequence(lambda n: f"holder-{n}")
    starts_at = dt.datetime(2026, 12, 2, 11, tzinfo=dt.UTC)
    ends_at = factory.LazyAttribute(lambda h: h.starts_at + dt.timedelta(minutes=45))
    occupied_from = factory.SelfAttribute("starts_at")
    occupied_until = factory.SelfAttribute("ends_at")
    expires_at = dt.datetime(2026, 12, 2, 10, tzinfo=dt.UTC)


# --- the salon most tests book at -----------------------------------------------------------


def one_chair_salon(**business_fields) -> Business:
    """A Lisbon salon open 09:00–17:00 every day, one chair, 30-minute slots, bookable an hour
    to thirty days ahead; a slot is held ten minutes."""
    return open_salon(
        time_zone="Europe/Lisbon",
        capacity=1,
        slot_interval_minutes=30,
        min_notice_minutes=60,
        booking_horizon_days=30,
        hold_minutes=10,
        **business_fields,
    )


def haircut_at(business: Business) -> Service:
    """A one-hour haircut with nothing kept free after it, 60.00 listed, 50.00 the floor."""
    return ServiceFactory(
        business=business,
        name="Haircut",
        duration_minutes=60,
        buffer_after_minutes=0,
        list_price=Decimal("60.00"),
        price_floor=Decimal("50.00"),
    )
