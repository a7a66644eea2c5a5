"""Tenant scoping for every dashboard page: querysets, object permissions, foreign-key choices,
list filters and bulk actions all see only the businesses the user belongs to.

The rules themselves are the pure table in ``bookings.access``; this module applies them to a
request. Superusers (Ordina's own administrators) are not scoped.
"""

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property

from django.contrib import admin
from django.contrib.admin.options import ActionLocation
from django.contrib.admin.utils import NotRelationField, get_fields_from_path
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model, QuerySet
from django.forms.utils import pretty_name
from django.http import Http404, HttpRequest

from bookings.access import (
    OPERATOR_READABLE,
    OPERATORS_GROUP,
    Action,
    businesses_allowing,
    operator_allows,
    role_allows,
)
from bookings.models import Membership


class TenantAccess:
    """One user's roles, read once per request."""

    def __init__(self, user) -> None:
        self.user = user

    @cached_property
    def roles(self) -> dict[int, str]:
        return dict(Membership.objects.filter(user=self.user).values_list("business_id", "role"))

    @cached_property
    def is_operator(self) -> bool:
        return self.user.groups.filter(name=OPERATORS_GROUP).exists()

    def allows(self, model_label: str, action: Action, business_id: int | None = None) -> bool:
        if self.is_operator and operator_allows(model_label, action):
            return True
        if business_id is None:
            return any(role_allows(role, model_label, action) for role in self.roles.values())
        return role_allows(self.roles.get(business_id), model_label, action)

    def businesses(self, model_label: str, *actions: Action) -> set[int]:
        return businesses_allowing(self.roles, model_label, actions)


def tenant_access(request: HttpRequest) -> TenantAccess:
    access = getattr(request, "_tenant_access", None)
    if access is None or access.user != request.user:
        access = TenantAccess(request.user)
        request._tenant_access = access  # type: ignore[attr-defined]
    return access


def business_id_of(obj: Model) -> int:
    path = type(obj).business_path  # type: ignore[attr-defined]
    if path == "pk":
        return obj.pk
    *hops, last = path.split("__")
    for hop in hops:
        obj = getattr(obj, hop)
    return getattr(obj, f"{last}_id")


def is_unscoped(request: HttpRequest) -> bool:
    return request.user.is_superuser


def staff_user(request: HttpRequest) -> bool:
    return request.user.is_active and request.user.is_staff


class TenantScopedPermissions:
    """The permission half, shared by model admins and inlines."""

    model: type[Model]

    def tenant_allows(self, request: HttpRequest, action: Action, business_id=None) -> bool:
        if not staff_user(request):
            return False
        if getattr(self.model, "append_only", False) and action is not Action.VIEW:
            return False
        if is_unscoped(request):
            return True
        return tenant_access(request).allows(self.model._meta.label_lower, action, business_id)

    def scope(self, request: HttpRequest, queryset: QuerySet, *actions: Action) -> QuerySet:
        """``queryset`` narrowed to the businesses where the user may do any of ``actions``."""
        if is_unscoped(request):
            return queryset
        label = self.model._meta.label_lower
        access = tenant_access(request)
        if access.is_operator and label in OPERATOR_READABLE and actions == (Action.VIEW,):
            return queryset
        path = self.model.business_path  # type: ignore[attr-defined]
        return queryset.filter(**{f"{path}__in": access.businesses(label, *actions)})

    def limit_related_choices(self, db_field, request: HttpRequest, kwargs: dict) -> None:
        """Offer in a foreign-key field only rows of businesses where this model may be written."""
        related = db_field.related_model
        path = getattr(related, "business_path", None)
        if path is None or is_unscoped(request):
            return
        allowed = tenant_access(request).businesses(
            self.model._meta.label_lower, Action.ADD, Action.CHANGE
        )
        kwargs["queryset"] = related._default_manager.filter(**{f"{path}__in": allowed})


class BusinessScopedAdmin(TenantScopedPermissions, admin.ModelAdmin):
    """Base of every dashboard page over a tenant's rows."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.tenant_allows(request, Action.VIEW)

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return self._allows(request, Action.VIEW, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._allows(request, Action.ADD, None)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return self._allows(request, Action.CHANGE, obj)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return self._allows(request, Action.DELETE, obj)

    def _allows(self, request: HttpRequest, action: Action, obj) -> bool:
        business_id = None if obj is None else business_id_of(obj)
        return self.tenant_allows(request, action, business_id)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return self.scope(request, super().get_queryset(request), Action.VIEW)

    def get_object(self, request: HttpRequest, object_id: str, from_field=None):
        # Another business's row and a missing row look the same: 404, nothing leaks.
        obj = super().get_object(request, object_id, from_field)
        if obj is None:
            raise Http404(f"No {self.model._meta.verbose_name} with that id.")
        return obj

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        self.limit_related_choices(db_field, request, kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict:
        # An owner of one business should not have to pick it on every new row.
        initial = super().get_changeform_initial_data(request)
        if self.model.business_path == "business" and not is_unscoped(request):  # type: ignore[attr-defined]
            businesses = tenant_access(request).businesses(self.model._meta.label_lower, Action.ADD)
            if len(businesses) == 1:
                initial.setdefault("business", str(next(iter(businesses))))
        return initial

    def get_list_filter(self, request: HttpRequest):
        # A plain related-field filter lists every row of the related table, other tenants'
        # included; the related-only filter lists only what this user's rows point at. A filter
        # given with its own class must scope itself.
        return [
            (name, admin.RelatedOnlyFieldListFilter)
            if isinstance(name, str) and self._is_relation_path(name)
            else name
            for name in super().get_list_filter(request)
        ]

    def _is_relation_path(self, path: str) -> bool:
        try:
            fields = get_fields_from_path(self.model, path)
        except (FieldDoesNotExist, NotRelationField):
            return False
        return fields[-1].is_relation

    def get_actions(self, request: HttpRequest, action_location=ActionLocation.CHANGE_LIST):
        actions = super().get_actions(request, action_location)
        if (delete := actions.get("delete_selected")) is not None:
            actions["delete_selected"] = replace(
                delete, func=self.scoped_action(delete.func, Action.DELETE)
            )
        return actions

    def scoped_action(self, func: Callable, action: Action) -> Callable:
        """Wrap a bulk action so it only ever touches rows the user may ``action``."""

        def run(modeladmin, request, queryset):
            return func(modeladmin, request, self.scope(request, queryset, action))

        run.__name__ = getattr(func, "__name__", "action")
        return run


class BusinessScopedInline(TenantScopedPermissions):
    """Mixin for every inline on a scoped page; ``obj`` in their permission calls is the parent
    row (or None on add). Without it an inline falls back to Django's model permissions, which
    members do not have: it silently vanishes from their page. The inline's model needs a
    ``business_path`` (through its parent when it has no business column, as
    ``conversation__business``) and a row in ``bookings.access`` for each role that opens the
    page."""

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return self.tenant_allows(request, Action.VIEW, self._parent_business(obj))

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return self.tenant_allows(request, Action.ADD, self._parent_business(obj))

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return self.tenant_allows(request, Action.CHANGE, self._parent_business(obj))

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return self.tenant_allows(request, Action.DELETE, self._parent_business(obj))

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return self.scope(request, super().get_queryset(request), Action.VIEW)  # type: ignore[misc]

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        self.limit_related_choices(db_field, request, kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]

    def get_formset(self, request: HttpRequest, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)  # type: ignore[misc]
        if isinstance(self, admin.TabularInline):
            # A table's inputs sit under a column header, with no <label> of their own.
            return type(formset.__name__, (RowNamedInputs, formset), {})
        return formset

    @staticmethod
    def _parent_business(parent) -> int | None:
        return None if parent is None else business_id_of(parent)


def row_input_name(field_label: str, index: int | None) -> str:
    """What a screen reader says for an input in a table of rows: its column, then its row
    (counted from 1); the blank row the "Add another" link copies is the new row."""
    row = "new row" if index is None else f"row {index + 1}"
    return f"{field_label} ({row})"


class RowNamedInputs:
    """Formset mixin: each visible input of each row is named by ``row_input_name``, unless the
    form already gave it a name of its own."""

    def add_fields(self, form, index: int | None) -> None:
        super().add_fields(form, index)  # type: ignore[misc]
        for name, field in form.fields.items():
            if field.widget.is_hidden:
                continue
            label = pretty_name(name) if field.label is None else str(field.label)
            field.widget.attrs.setdefault("aria-label", row_input_name(label, index))


class ReadOnlyScopedAdmin(BusinessScopedAdmin):
    """Records only services write (payments, the assistant's log): browsable within the
    user's businesses, never added, edited or deleted by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
