"""Posting admin forms the way a browser does: start from what the GET page shows, change only
what the test is about. The admin's change forms carry inline formsets whose management forms
must be posted too; building the data from the rendered forms keeps tests free of that detail."""

import datetime as dt

from django import forms
from django.forms.utils import ErrorList


def _rendered_forms(context):
    """Every form on an admin add/change page: the model form, and for each inline its
    management form and row forms."""
    yield context["adminform"].form
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        yield formset.management_form
        yield from formset.forms


def _field_data(bound_field) -> dict[str, str]:
    widget = bound_field.field.widget
    value = bound_field.value()
    name = bound_field.html_name
    if isinstance(widget, forms.MultiWidget):
        parts = widget.decompress(value)
        return {
            f"{name}{suffix}": "" if part is None else str(part)
            for suffix, part in zip(widget.widgets_names, parts, strict=True)
        }
    if isinstance(widget, forms.CheckboxInput):
        return {name: "on"} if value else {}
    if value is None:
        return {name: ""}
    if isinstance(value, list | tuple):
        return {name: [str(item) for item in value]}
    return {name: str(value)}


def page_data(response) -> dict[str, str]:
    """The POST data a browser would send for the admin page in ``response``, unchanged."""
    data: dict[str, str] = {}
    for form in _rendered_forms(response.context):
        for bound_field in form:
            data.update(_field_data(bound_field))
    return data


def datetime_fields(name: str, value: dt.datetime) -> dict[str, str]:
    """The two inputs of an admin split date-time widget, in the value's own wall-clock time."""
    return {f"{name}_0": f"{value:%Y-%m-%d}", f"{name}_1": f"{value:%H:%M:%S}"}


def add_inline_rows(data: dict, prefix: str, *rows: dict) -> dict:
    """``data`` with extra new rows appended to the inline formset ``prefix``."""
    data = dict(data)
    total = int(data[f"{prefix}-TOTAL_FORMS"])
    for offset, row in enumerate(rows):
        for field, value in row.items():
            data[f"{prefix}-{total + offset}-{field}"] = value
    data[f"{prefix}-TOTAL_FORMS"] = str(total + len(rows))
    return data


def form_errors(response) -> list[str]:
    """Every validation message on the admin page in ``response``: the model form's field and
    non-field errors and every inline formset's row and formset-level errors."""
    messages: list[str] = []
    context = response.context
    messages.extend(_flatten(context["adminform"].form.errors))
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        messages.extend(formset.non_form_errors())
        for row_errors in formset.errors:
            messages.extend(_flatten(row_errors))
    return messages


def _flatten(errors: dict[str, ErrorList]) -> list[str]:
    return [message for field_errors in errors.values() for message in field_errors]
