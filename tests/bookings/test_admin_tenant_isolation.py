"""Tenant isolation in the dashboard, as a matrix over every registered page of a tenant model.

The pages are read from ``admin.site._registry`` when the tests are collected, so a newly
registered model with a ``business_path`` is covered without editing this file (and fails here
until ``tenant_with_one_of_everything`` builds a row of it). Each matrix test gives two
businesses, A and B, one row of every model each, and signs in as A's owner. The inline check
signs in as every role the access table lets open a page with inlines, and compares what it
sees there with what a superuser sees: a new inline is covered the same way (and fails until
``with_inline_rows`` puts a row under it).
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.contrib import admin
from django.contrib.auth.models import AbstractUser
from django.db.models import Model, QuerySet
from django.forms import ModelChoiceField
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from agent.models import (
    AgentGrant,
    AuditEntry,
    AuditResult,
    AuditStage,
    Conversation,
    GuardRewrite,
    Message,
    MessageRole,
)
from bookings.access import Action, operator_allows, role_allows
from bookings.actors import Actor, ActorKind
from bookings.models import (
    Appointment,
    AppointmentEvent,
    Business,
    BusyBlock,
    CalendarFeed,
    Client,
    DateOverride,
    Membership,
    OpeningHours,
    Role,
    Service,
    SlotHold,
)
from knowledge.models import KnowledgeSource, SourceKind
from knowledge.services import knowledge_source_create
from payments.models import Payment, PaymentStatus, Refund, WebhookEvent
from reminders.models import Reminder, ReminderKind, ReminderSetting
from tests.factories import (
    AppointmentEventFactory,
    AppointmentFactory,
    BusinessFactory,
    BusyBlockFactory,
    ClientFactory,
    DateOverrideFactory,
    MembershipFactory,
    OpeningHoursFactory,
    ServiceFactory,
    SlotHoldFactory,
    UserFactory,
    operator,
    owner_of,
    staff_of,
)

SCOPED_ADMINS = {
    model: model_admin
    for model, model_admin in admin.site._registry.items()
    if hasattr(model, "business_path")
}
SCOPED_MODELS = sorted(SCOPED_ADMINS, key=lambda model: model._meta.label_lower)
# The apps whose pages show a business's rows; in them, only Ordina's own audit of Stripe's
# deliveries belongs to no business (operators read it, owners never see it).
TENANT_APPS = {"bookings", "payments", "agent", "knowledge"}
OPERATORS_ONLY = {WebhookEvent}
UNSCOPED_MODELS = sorted(
    (model for model in admin.site._registry if model not in SCOPED_ADMINS),
    key=lambda model: model._meta.label_lower,
)


def owner_may(model: type[Model], action: Action) -> bool:
    return role_allows(Role.OWNER, model._meta.label_lower, action)


def each(models) -> list:
    return [pytest.param(model, id=model._meta.model_name) for model in models]


FORM_PAGES = [
    pytest.param(model, page, id=f"{model._meta.model_name}-{page}")
    for page, action in [("add", Action.ADD), ("change", Action.CHANGE)]
    for model in SCOPED_MODELS
    if owner_may(model, action)
]


@dataclass(frozen=True)
class Tenant:
    business: Business
    owner: AbstractUser
    rows: dict[type[Model], Model]

    def row(self, model: type[Model]) -> Model:
        assert model in self.rows, f"add a {model.__name__} to tenant_with_one_of_everything()"
        return self.rows[model]


def tenant_with_one_of_everything() -> Tenant:
    """A business, its owner, and one row of each tenant model. The service and client rows are
    referenced by nothing, so an allowed delete of them is not blocked by the appointment. The
    payment and refund rows are written directly: their pages only read them."""
    business = BusinessFactory()
    ownership = MembershipFactory(business=business, role=Role.OWNER)
    appointment = AppointmentFactory(business=business)
    payment = Payment.objects.create(
        business=business,
        appointment=appointment,
        amount=Decimal("12.00"),
        currency=business.currency,
        status=PaymentStatus.PARTIALLY_REFUNDED,
        paid_at=timezone.now(),
        amount_refunded=Decimal("2.00"),
        checkout_session_id=f"cs_test_{business.slug}",
        payment_intent_id=f"pi_test_{business.slug}",
        expires_at=timezone.now(),
    )
    rows = {
        Business: business,
        Membership: ownership,
        OpeningHours: OpeningHoursFactory(business=business),
        DateOverride: DateOverrideFactory(business=business),
        BusyBlock: BusyBlockFactory(business=business),
        Service: ServiceFactory(business=business),
        Client: ClientFactory(business=business),
        Appointment: appointment,
        AppointmentEvent: AppointmentEventFactory(appointment=appointment),
        CalendarFeed: CalendarFeed.objects.create(
            business=business, url=f"https://calendar.example/{business.slug}.ics"
        ),
        SlotHold: SlotHoldFactory(business=business),
        Payment: payment,
        Refund: Refund.objects.create(
            business=business,
            payment=payment,
            amount=Decimal("2.00"),
            stripe_refund_id=f"re_test_{business.slug}",
            idempotency_key=f"ordina-refund-test-{business.slug}",
            actor=Actor.of_user(ownership.user, Role.OWNER),
        ),
        # Referenced by nothing, so an allowed delete of it is not blocked.
        AgentGrant: AgentGrant.objects.get_or_create(business=business, action="send_message")[0],
        AuditEntry: AuditEntry.objects.create(
            business=business,
            proposal={"action": "refund", "appointment": "A-1", "amount": "5000.00"},
            action="refund",
            result=AuditResult.BLOCK,
            stage=AuditStage.POLICY,
            reason="more than still refundable",
            money_contained=Decimal("5000.00"),
        ),
        Conversation: Conversation.objects.create(
            business=business, token_hash=f"hash-of-{business.slug}", name="Ana"
        ),
        GuardRewrite: GuardRewrite.objects.create(
            business=business,
            conversation="c-1",
            guard="completion_claims",
            reason="booking claimed without a record",
            before="You're booked!",
            after="Nothing is booked yet.",
        ),
        KnowledgeSource: knowledge_source_create(
            business=business,
            kind=SourceKind.TEXT,
            title="Parking",
            body=f"Free parking behind {business.name}.",
        ),
    }
    return Tenant(business=business, owner=ownership.user, rows=rows)


@pytest.fixture
def tenant_a(db) -> Tenant:
    return tenant_with_one_of_everything()


@pytest.fixture
def tenant_b(db) -> Tenant:
    return tenant_with_one_of_everything()


def admin_url(model: type[Model], page: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{page}", args=args)


def of_business(queryset: QuerySet, business: Business) -> QuerySet:
    return queryset.filter(**{queryset.model.business_path: business.pk})


def model_choice_fields(response) -> list[ModelChoiceField]:
    """The choice fields of the page's form and of its inline forms. An inline row's hidden
    primary-key field is left out: Django looks that row up among the parent's own rows."""
    fields = list(response.context["adminform"].form.fields.values())
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        pk_name = formset.model._meta.pk.name
        for form in [*formset.forms, formset.empty_form]:
            fields += [field for name, field in form.fields.items() if name != pk_name]
    return [field for field in fields if isinstance(field, ModelChoiceField)]


def appointment_form_data(appointment: Appointment, **changes) -> dict:
    """What the change form posts for ``appointment`` (one without history or reminder rows)."""
    starts_at = timezone.localtime(appointment.starts_at)
    ends_at = timezone.localtime(appointment.ends_at)
    data = {
        "business": appointment.business_id,
        "service": appointment.service_id,
        "client": appointment.client_id,
        "starts_at_0": f"{starts_at:%Y-%m-%d}",
        "starts_at_1": f"{starts_at:%H:%M:%S}",
        "ends_at_0": f"{ends_at:%Y-%m-%d}",
        "ends_at_1": f"{ends_at:%H:%M:%S}",
        "status": appointment.status,
        "price": str(appointment.price),
        "notes": appointment.notes,
        "events-TOTAL_FORMS": "0",
        "events-INITIAL_FORMS": "0",
        "events-MIN_NUM_FORMS": "0",
        "events-MAX_NUM_FORMS": "0",
        "reminders-TOTAL_FORMS": "0",
        "reminders-INITIAL_FORMS": "0",
        "reminders-MIN_NUM_FORMS": "0",
        "reminders-MAX_NUM_FORMS": "0",
        "_save": "Save",
    }
    return data | changes


# The matrix: an owner of A against every page of every tenant model.


@pytest.mark.django_db
def test_matrix_covers_every_registered_tenant_model(tenant_a):
    registered = {
        model for model in admin.site._registry if model._meta.app_label in TENANT_APPS
    } - OPERATORS_ONLY

    assert set(SCOPED_MODELS) == registered
    assert set(tenant_a.rows) == registered
    assert {Payment, Refund} <= registered


@pytest.mark.django_db
@pytest.mark.parametrize("model", each(SCOPED_MODELS))
def test_owner_opens_own_row(model, tenant_a, tenant_b, login):
    response = login(tenant_a.owner).get(admin_url(model, "change", tenant_a.row(model).pk))

    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("model", each(SCOPED_MODELS))
def test_owner_changelist_lists_own_row_and_never_other_tenants_rows(
    model, tenant_a, tenant_b, login
):
    response = login(tenant_a.owner).get(admin_url(model, "changelist"))

    assert response.status_code == 200
    changelist = response.context["cl"]
    listed = {row.pk for row in changelist.result_list}
    assert tenant_a.row(model).pk in listed
    assert tenant_b.row(model).pk not in listed
    assert not of_business(changelist.queryset, tenant_b.business).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("page", "method"),
    [
        ("change", "get"),
        ("change", "post"),
        ("delete", "get"),
        ("delete", "post"),
        ("history", "get"),
    ],
)
@pytest.mark.parametrize("model", each(SCOPED_MODELS))
def test_owner_gets_404_for_other_tenants_row(model, page, method, tenant_a, tenant_b, login):
    foreign = tenant_b.row(model)
    http = login(tenant_a.owner)

    if method == "post":
        response = http.post(admin_url(model, page, foreign.pk), {"post": "yes"})
    else:
        response = http.get(admin_url(model, page, foreign.pk))

    assert response.status_code == 404
    assert model.objects.filter(pk=foreign.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("model", "page"), FORM_PAGES)
def test_owner_form_offers_no_choice_of_other_tenants_rows(model, page, tenant_a, tenant_b, login):
    args = [tenant_a.row(model).pk] if page == "change" else []

    response = login(tenant_a.owner).get(admin_url(model, page, *args))

    assert response.status_code == 200
    for field in model_choice_fields(response):
        if hasattr(field.queryset.model, "business_path"):
            assert not of_business(field.queryset, tenant_b.business).exists(), field.label
            assert of_business(field.queryset, tenant_a.business).exists(), field.label


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model", each(model for model in SCOPED_MODELS if SCOPED_ADMINS[model].list_filter)
)
def test_owner_list_filters_offer_no_other_tenants_rows(model, tenant_a, tenant_b, login):
    response = login(tenant_a.owner).get(admin_url(model, "changelist"))

    assert response.status_code == 200
    for spec in response.context["cl"].filter_specs:
        if isinstance(spec, admin.RelatedFieldListFilter):
            offered = {pk for pk, _label in spec.lookup_choices}
            offered_rows = spec.field.related_model._default_manager.filter(pk__in=offered)
            assert not of_business(offered_rows, tenant_b.business).exists(), spec.title
            own_row = model.objects.filter(pk=tenant_a.row(model).pk)
            assert own_row.filter(**{f"{spec.field_path}__in": offered}).exists(), spec.title


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model", each(model for model in SCOPED_MODELS if owner_may(model, Action.DELETE))
)
def test_owner_bulk_delete_deletes_own_row_and_never_other_tenants_row(
    model, tenant_a, tenant_b, login
):
    own, foreign = tenant_a.row(model), tenant_b.row(model)

    response = login(tenant_a.owner).post(
        admin_url(model, "changelist"),
        {"action": "delete_selected", "_selected_action": [own.pk, foreign.pk], "post": "yes"},
    )

    assert response.status_code == 302
    assert not model.objects.filter(pk=own.pk).exists()
    assert model.objects.filter(pk=foreign.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("model", each(UNSCOPED_MODELS))
def test_owner_is_refused_pages_outside_any_tenant(model, tenant_a, tenant_b, login):
    response = login(tenant_a.owner).get(admin_url(model, "changelist"))

    assert response.status_code == 403


# The inlines of a page: every role that may open the page sees in it what a superuser sees.

OPERATOR = "operator"  # Ordina's operators: a group, not a membership role


def viewers(model: type[Model]) -> list[str]:
    """Every role the access table lets open ``model``'s pages."""
    label = model._meta.label_lower
    roles = [role for role in Role.values if role_allows(role, label, Action.VIEW)]
    return [*roles, OPERATOR] if operator_allows(label, Action.VIEW) else roles


INLINE_PAGES = [
    pytest.param(model, role, id=f"{model._meta.model_name}-{role}")
    for model in SCOPED_MODELS
    if SCOPED_ADMINS[model].inlines
    for role in viewers(model)
]


def with_inline_rows(tenant: Tenant) -> None:
    """Rows under the tenant's rows, so that every inline of every page has something to show
    (the schedule inlines' rows are already among ``tenant.rows``)."""
    Message.objects.create(
        conversation=tenant.row(Conversation),
        role=MessageRole.CLIENT,
        text=f"Is {tenant.business.name} open on Sunday?",
    )
    Message.objects.create(
        conversation=tenant.row(Conversation),
        role=MessageRole.ASSISTANT,
        text=f"{tenant.business.name} is closed on Sundays.",
    )
    appointment = tenant.row(Appointment)
    Reminder.objects.create(
        business=tenant.business,
        appointment=appointment,
        kind=ReminderKind.BEFORE_24H,
        due_at=appointment.starts_at - dt.timedelta(days=1),
    )
    ReminderSetting.objects.create(
        business=tenant.business, kind=ReminderKind.BEFORE_2H, offset_minutes=120
    )


def member_in_role(role: str, tenant: Tenant) -> AbstractUser:
    if role == OPERATOR:
        return operator()
    if role == Role.OWNER:
        return tenant.owner
    return MembershipFactory(business=tenant.business, role=role).user


def inline_rows(response) -> dict[str, list[Model]]:
    """Each inline the page shows (by its class name), with the rows it lists."""
    return {
        type(inline.opts).__name__: [form.instance for form in inline.formset.initial_forms]
        for inline in response.context["inline_admin_formsets"]
    }


@pytest.mark.django_db
@pytest.mark.parametrize(("model", "role"), INLINE_PAGES)
def test_every_role_that_opens_a_page_sees_its_inlines_rows_as_a_superuser_does(
    model, role, tenant_a, tenant_b, login
):
    for tenant in (tenant_a, tenant_b):
        with_inline_rows(tenant)
    url = admin_url(model, "change", tenant_a.row(model).pk)

    as_superuser = login(UserFactory(is_superuser=True)).get(url)
    as_role = login(member_in_role(role, tenant_a)).get(url)

    assert as_superuser.status_code == 200
    assert as_role.status_code == 200
    expected = inline_rows(as_superuser)
    declared = {inline.__name__ for inline in SCOPED_ADMINS[model].inlines}
    assert set(expected) == declared
    for name, rows in expected.items():
        assert rows, f"add a row under {model.__name__} for {name} in with_inline_rows()"
    seen = inline_rows(as_role)
    assert {name: [row.pk for row in rows] for name, rows in seen.items()} == {
        name: [row.pk for row in rows] for name, rows in expected.items()
    }
    page = as_role.content.decode()
    for inline in SCOPED_ADMINS[model].inlines:
        child = inline.model
        foreign = set(
            of_business(child.objects.all(), tenant_b.business).values_list("pk", flat=True)
        )
        assert foreign, f"tenant B needs a {child.__name__} too"
        assert not {row.pk for row in seen[inline.__name__]} & foreign
        for row in seen[inline.__name__]:
            assert escape(str(row)) in page, f"{inline.__name__} does not show {row}"


# Forms that are posted, roles other than owner.


@pytest.mark.django_db
def test_owner_cannot_book_another_tenants_service_into_own_business(login):
    business_a, business_b = BusinessFactory(), BusinessFactory()
    client = ClientFactory(business=business_a)
    foreign_service = ServiceFactory(business=business_b)

    response = login(owner_of(business_a)).post(
        admin_url(Appointment, "add"),
        {
            "business": business_a.pk,
            "service": foreign_service.pk,
            "client": client.pk,
            "starts_at_0": "2026-12-02",
            "starts_at_1": "10:00:00",
            "events-TOTAL_FORMS": "0",
            "events-INITIAL_FORMS": "0",
            "_save": "Save",
        },
    )

    assert response.status_code == 200
    assert "service" in response.context["adminform"].form.errors
    assert not Appointment.objects.exists()


@pytest.mark.django_db
def test_staff_views_but_cannot_change_own_business_service(login):
    business = BusinessFactory()
    service = ServiceFactory(business=business, name="Haircut")
    http = login(staff_of(business))

    page = http.get(admin_url(Service, "change", service.pk))
    response = http.post(
        admin_url(Service, "change", service.pk), {"name": "Free haircut", "_save": "Save"}
    )

    assert page.status_code == 200
    assert page.context["has_change_permission"] is False
    assert response.status_code == 403
    assert Service.objects.get(pk=service.pk).name == "Haircut"


@pytest.mark.django_db
def test_staff_changes_own_business_appointment(login):
    business = BusinessFactory()
    appointment = AppointmentFactory(business=business)

    response = login(staff_of(business)).post(
        admin_url(Appointment, "change", appointment.pk),
        appointment_form_data(appointment, notes="Prefers the window seat"),
    )

    assert response.status_code == 302
    assert Appointment.objects.get(pk=appointment.pk).notes == "Prefers the window seat"


@pytest.mark.django_db
def test_owner_of_one_business_cannot_edit_business_where_only_staff(login):
    owned, staffed = BusinessFactory(), BusinessFactory(name="Staffed salon")
    user = owner_of(owned)
    MembershipFactory(user=user, business=staffed, role=Role.STAFF)
    http = login(user)

    own_page = http.get(admin_url(Business, "change", owned.pk))
    staffed_page = http.get(admin_url(Business, "change", staffed.pk))
    response = http.post(
        admin_url(Business, "change", staffed.pk), {"name": "Taken over", "_save": "Save"}
    )

    assert own_page.context["has_change_permission"] is True
    assert staffed_page.status_code == 200
    assert staffed_page.context["has_change_permission"] is False
    assert response.status_code == 403
    assert Business.objects.get(pk=staffed.pk).name == "Staffed salon"


@pytest.mark.django_db
def test_operator_reads_appointment_history_of_every_business(login):
    event_a, event_b = AppointmentEventFactory(), AppointmentEventFactory()

    response = login(operator()).get(admin_url(AppointmentEvent, "changelist"))

    assert response.status_code == 200
    listed = {event.pk for event in response.context["cl"].result_list}
    assert {event_a.pk, event_b.pk} <= listed
    assert event_a.business_id != event_b.business_id


@pytest.mark.django_db
def test_operator_cannot_add_change_or_delete_appointment_history(login):
    event = AppointmentEventFactory(actor_kind=ActorKind.SYSTEM)
    http = login(operator())

    responses = [
        http.post(admin_url(AppointmentEvent, "change", event.pk), {"actor_kind": "operator"}),
        http.get(admin_url(AppointmentEvent, "add")),
        http.get(admin_url(AppointmentEvent, "delete", event.pk)),
        http.post(admin_url(AppointmentEvent, "delete", event.pk), {"post": "yes"}),
    ]

    assert [response.status_code for response in responses] == [403, 403, 403, 403]
    assert AppointmentEvent.objects.get(pk=event.pk).actor == Actor.system()


@pytest.mark.django_db
@pytest.mark.parametrize("model", [Business, Appointment], ids=["business", "appointment"])
def test_operator_is_refused_tenant_changelists(model, login):
    response = login(operator()).get(admin_url(model, "changelist"))

    assert response.status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("model", each(SCOPED_MODELS))
def test_staff_user_without_membership_is_refused_every_changelist(model, tenant_a, login):
    response = login(UserFactory(is_staff=True)).get(admin_url(model, "changelist"))

    assert response.status_code == 403


@pytest.mark.django_db
def test_superuser_sees_every_business(tenant_a, tenant_b, login):
    response = login(UserFactory(is_superuser=True)).get(admin_url(Business, "changelist"))

    listed = set(response.context["cl"].result_list)
    assert {tenant_a.business, tenant_b.business} <= listed
