"""The dashboard's permission table, as plain values: no database, no requests."""

import pytest

from bookings.access import (
    OPERATOR_READABLE,
    ROLE_GRANTS,
    Action,
    businesses_allowing,
    operator_allows,
    role_allows,
)
from bookings.models import Role

VIEW, ADD, CHANGE, DELETE = Action.VIEW, Action.ADD, Action.CHANGE, Action.DELETE
EVERY_ACTION = [VIEW, ADD, CHANGE, DELETE]


def allowed(role, model_label) -> set[Action]:
    return {action for action in Action if role_allows(role, model_label, action)}


@pytest.mark.parametrize(
    ("model_label", "owner", "staff"),
    [
        ("bookings.business", {VIEW, CHANGE}, {VIEW}),
        ("bookings.membership", {VIEW}, set()),
        ("bookings.openinghours", {VIEW, ADD, CHANGE, DELETE}, {VIEW}),
        ("bookings.dateoverride", {VIEW, ADD, CHANGE, DELETE}, {VIEW}),
        ("bookings.busyblock", {VIEW, ADD, CHANGE, DELETE}, {VIEW, ADD, CHANGE, DELETE}),
        ("bookings.service", {VIEW, ADD, CHANGE, DELETE}, {VIEW}),
        ("bookings.client", {VIEW, ADD, CHANGE}, {VIEW, ADD, CHANGE}),
        ("bookings.appointment", {VIEW, ADD, CHANGE}, {VIEW, ADD, CHANGE}),
        ("bookings.appointmentevent", {VIEW}, {VIEW}),
        ("agent.conversation", {VIEW, CHANGE}, {VIEW, CHANGE}),
        ("agent.message", {VIEW}, {VIEW}),
    ],
)
def test_owner_and_staff_are_granted_exactly_their_actions(model_label, owner, staff):
    assert allowed(Role.OWNER, model_label) == owner
    assert allowed(Role.STAFF, model_label) == staff


def test_the_table_names_every_membership_role():
    assert set(ROLE_GRANTS) == set(Role.values)


def test_nobody_adds_or_deletes_a_business():
    for role in Role.values:
        assert not role_allows(role, "bookings.business", ADD)
        assert not role_allows(role, "bookings.business", DELETE)


def test_appointments_and_clients_are_never_deleted_in_the_dashboard():
    # Appointments are cancelled, so their history stays; clients hold appointments.
    for role in Role.values:
        for model_label in ("bookings.appointment", "bookings.client"):
            assert not role_allows(role, model_label, DELETE)


def test_history_is_read_only_for_every_role():
    for role in Role.values:
        assert allowed(role, "bookings.appointmentevent") == {VIEW}


def test_whoever_reads_a_conversation_reads_its_messages_and_nobody_edits_them():
    for role in Role.values:
        if role_allows(role, "agent.conversation", VIEW):
            assert allowed(role, "agent.message") == {VIEW}
        assert not {ADD, CHANGE, DELETE} & allowed(role, "agent.message")


@pytest.mark.parametrize("action", EVERY_ACTION)
@pytest.mark.parametrize(
    ("role", "model_label"),
    [
        pytest.param(None, "bookings.service", id="no role"),
        pytest.param("manager", "bookings.service", id="unknown role"),
        pytest.param("", "bookings.service", id="empty role"),
        pytest.param("OWNER", "bookings.service", id="role in the wrong case"),
        pytest.param("owner", "auth.user", id="model outside the table"),
        pytest.param("owner", "bookings.Service", id="label in the wrong case"),
        pytest.param("owner", "payments.webhookevent", id="another app's audit data"),
    ],
)
def test_anything_not_in_the_table_is_refused(role, model_label, action):
    assert not role_allows(role, model_label, action)


def test_operators_may_only_view_audit_data():
    assert set(OPERATOR_READABLE) == {
        "bookings.appointmentevent",
        "payments.webhookevent",
        "agent.auditentry",
        "agent.guardrewrite",
    }
    for label in OPERATOR_READABLE:
        assert operator_allows(label, VIEW)
        for action in (ADD, CHANGE, DELETE):
            assert not operator_allows(label, action)


@pytest.mark.parametrize(
    "model_label",
    [
        "bookings.appointment",
        "bookings.business",
        "bookings.client",
        "bookings.service",
        "bookings.membership",
        "auth.user",
    ],
)
def test_operators_see_nothing_but_history(model_label):
    for action in EVERY_ACTION:
        assert not operator_allows(model_label, action)


ROLES = {1: "owner", 2: "staff", 3: "manager"}


@pytest.mark.parametrize(
    ("model_label", "actions", "businesses"),
    [
        pytest.param("bookings.service", [VIEW], {1, 2}, id="both view services"),
        pytest.param("bookings.service", [CHANGE], {1}, id="only the owner changes services"),
        pytest.param("bookings.service", [ADD, CHANGE], {1}, id="add or change"),
        pytest.param("bookings.busyblock", [DELETE], {1, 2}, id="both delete busy blocks"),
        pytest.param("bookings.membership", [VIEW], {1}, id="staff cannot see memberships"),
        pytest.param("bookings.appointment", [DELETE], set(), id="no one deletes appointments"),
        pytest.param("bookings.service", [], set(), id="no action asked"),
        pytest.param("auth.user", [VIEW], set(), id="model outside the table"),
    ],
)
def test_businesses_allowing_lists_the_businesses_where_any_action_is_allowed(
    model_label, actions, businesses
):
    # Given an owner at business 1, staff at 2, and an unknown role at 3
    # Then the businesses allowing the actions are exactly those whose role grants one of them
    assert businesses_allowing(ROLES, model_label, actions) == businesses


def test_businesses_allowing_accepts_any_iterable_of_actions():
    actions = (action for action in [ADD, CHANGE])  # a generator is consumed only once

    assert businesses_allowing(ROLES, "bookings.client", actions) == {1, 2}


def test_businesses_allowing_with_no_roles_is_empty():
    assert businesses_allowing({}, "bookings.service", EVERY_ACTION) == set()
