import datetime as dt
import io
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import F
from django.test import Client as HttpClient
from django.urls import reverse

from agent.models import GuardRewrite
from bookings.demo import CLINIC_OWNER_USERNAME, next_christmas, seed_demo, seed_demo_clinic
from bookings.models import (
    Appointment,
    AppointmentStatus,
    Business,
    DateOverride,
    OpeningHours,
    Service,
)
from bookings.negotiation import Kind, Rule, State, negotiate
from bookings.selectors import negotiation_enabled, negotiation_terms

TODAY = dt.date(2026, 11, 29)


@pytest.mark.django_db
def test_demo_owner_signs_in_and_sees_the_salon_services():
    setup = seed_demo(today=TODAY, owner_password="demo pass 123")

    http = HttpClient()
    assert http.login(username=setup.owner_username, password="demo pass 123")
    response = http.get(reverse("admin:bookings_service_changelist"))

    assert response.status_code == 200
    names = {service.name for service in response.context["cl"].result_list}
    assert names == {"Haircut", "Colour", "Beard trim"}


@pytest.mark.django_db
def test_running_the_demo_twice_resets_it_instead_of_duplicating():
    seed_demo(today=TODAY, owner_password="first")
    counts = (OpeningHours.objects.count(), DateOverride.objects.count(), Service.objects.count())

    setup = seed_demo(today=TODAY, owner_password="second")

    assert Business.objects.count() == 1
    assert (
        OpeningHours.objects.count(),
        DateOverride.objects.count(),
        Service.objects.count(),
    ) == counts
    owner = get_user_model().objects.get(username=setup.owner_username)
    assert owner.check_password("second")


@pytest.mark.django_db
def test_demo_has_a_closure_special_hours_a_floor_and_a_deposit_rule():
    setup = seed_demo(today=TODAY)
    business = setup.business

    closed = DateOverride.objects.get(business=business, date=setup.closed_on)
    assert closed.is_closed
    special = DateOverride.objects.get(business=business, date=setup.special_hours_on)
    assert not special.is_closed
    assert business.services.filter(price_floor__lt=F("list_price")).exists()
    assert business.deposit_rule == "percent"
    assert len(setup.owner_password) >= 16


@pytest.mark.django_db
def test_demo_haircut_alone_negotiates_meeting_a_client_halfway_above_its_floor():
    business = seed_demo(today=TODAY).business

    negotiable = {s.name: negotiation_terms(s) for s in business.services.all()}
    haircut = negotiable.pop("Haircut")

    assert negotiation_enabled(business)
    assert negotiable == {"Colour": None, "Beard trim": None}
    assert haircut is not None
    assert (haircut.rule, haircut.list_price, haircut.floor) == (
        Rule.HALFWAY,
        Decimal("60.00"),
        Decimal("50.00"),
    )
    # The demo's scene: "can you do 45?" is countered at 55.00 (halfway to 45, up to 5.00).
    answer = negotiate(haircut, State(), Decimal("45.00"))
    assert (answer.kind, answer.price) == (Kind.COUNTER, Decimal("55.00"))


@pytest.mark.django_db
def test_demo_scene_a_haggled_haircut_is_booked_at_the_cores_price_not_the_models_concession():
    call_command("seed_demo", stdout=io.StringIO())
    out = io.StringIO()

    call_command("demo_chat", stdout=out)

    told = " ".join(out.getvalue().split())  # the demo wraps its lines
    hugo = Appointment.objects.get(client__email="hugo.reis@example.com")
    assert "client: That's a lot. Can you do 45?" in told
    # The careless model conceded the client's 45; the client read the core's counter.
    assert "assistant: Sure, I can do it for €55.00." in told
    assert "do it for 45." not in told
    rewrite = GuardRewrite.objects.get(guard="prices", before="45")
    assert rewrite.after == "€55.00"
    assert "'45' rewritten to '€55.00'" in told
    # The client accepted the counter: the booking, its card and its deposit are at 55.00.
    assert "price 55.00, deposit 11.00" in told
    assert (hugo.price, hugo.list_price, hugo.status) == (
        Decimal("55.00"),
        Decimal("60.00"),
        AppointmentStatus.CONFIRMED,
    )
    assert hugo.payment.amount == Decimal("11.00")  # 20 % of the agreed price, paid
    assert "discount given 5.00 EUR" in told


@pytest.mark.parametrize(
    ("today", "christmas"),
    [
        (dt.date(2026, 11, 29), dt.date(2026, 12, 25)),
        (dt.date(2026, 12, 25), dt.date(2027, 12, 25)),
        (dt.date(2026, 12, 31), dt.date(2027, 12, 25)),
    ],
)
def test_the_demo_closure_is_the_next_christmas_after_today(today, christmas):
    assert next_christmas(today) == christmas


@pytest.mark.django_db
def test_the_spanish_clinic_is_its_own_tenant_and_resets_on_a_second_run():
    seed_demo(today=TODAY, owner_password="salon pass")
    seed_demo_clinic(owner_password="first")
    counts = (OpeningHours.objects.count(), Service.objects.count())
    clinic = seed_demo_clinic(owner_password="clinic pass")

    assert (OpeningHours.objects.count(), Service.objects.count()) == counts
    assert (clinic.language, clinic.time_zone, clinic.country) == ("es", "Europe/Madrid", "ES")
    http = HttpClient()
    assert http.login(username=CLINIC_OWNER_USERNAME, password="clinic pass")
    response = http.get(reverse("admin:bookings_service_changelist"))
    names = {service.name for service in response.context["cl"].result_list}
    assert names == {"Fisioterapia", "Masaje deportivo", "Primera consulta"}
