"""A validly signed delivery whose fields have shapes Stripe never sends is never a 500.

An event with an id is stored once with outcome failed and the field named, answered 200 (so it
is not lost, and the replay command can run it again), and no payment moves. Only a body with
no id to store an event under is refused, 400, leaving nothing behind.
"""

import json
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bookings.models import AppointmentStatus
from bookings.services import ClientDetails, appointment_create
from devtools.fake_stripe import event_payload
from payments.models import Payment, PaymentStatus, WebhookEvent, WebhookOutcome
from payments.services import deposit_checkout_open
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.payments.test_replay_command import replay
from tests.payments.test_webhooks import (  # noqa: F401 - the `deposit` fixture
    awaiting_deposit,
    charge_object,
    deliver,
    intent_object,
    paid_events,
    reloaded,
    session_object,
    stored,
)

AMOUNT = "an amount (a whole number of minor units, 0 to 999,999,999,999)"
MISSING = object()  # a field taken out of the event


def event_with(payload: bytes, changes: dict[str, Any]) -> bytes:
    """``payload`` with its top-level fields changed (``MISSING`` removes one)."""
    event = json.loads(payload)
    for name, value in changes.items():
        if value is MISSING:
            del event[name]
        else:
            event[name] = value
    return json.dumps(event).encode()


def untouched(payment: Payment, intent: str | None) -> bool:
    payment, appointment = reloaded(payment)
    return (
        payment.status == PaymentStatus.PENDING
        and payment.paid_at is None
        and payment.payment_intent_id == intent
        and appointment.status == AppointmentStatus.PENDING_PAYMENT
        and paid_events(payment) == 0
    )


@pytest.fixture
def paid_session(fake_stripe, deposit) -> bytes:
    """The well-formed delivery that would mark the deposit paid."""
    return event_payload(
        "evt_shape", "checkout.session.completed", session_object(fake_stripe, deposit)
    )


# --- the event's own fields -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"created": {}}, "created is {}, not a time (whole seconds since 1970)"),
        ({"created": "1700000000"}, 'created is "1700000000", not a time'),
        ({"created": 10**20}, "created is 100000000000000000000, not a time"),
        ({"created": MISSING}, "created is missing, not a time"),
        ({"data": [1]}, "data is [1], not an object"),
        ({"data": {"object": "str"}}, 'data.object is "str", not an object'),
        ({"data": {}}, "data.object is missing, not an object"),
        ({"data": None}, "data is null, not an object"),
        ({"livemode": "false"}, 'livemode is "false", not true or false'),
        ({"type": 5}, "type is 5, not an event type (text of 1 to 100 characters)"),
        ({"type": ["checkout.session.completed"]}, 'type is ["checkout.session.completed"], not'),
        ({"type": MISSING}, "type is missing, not an event type"),
    ],
    ids=lambda value: json.dumps(value, default=lambda _: "missing")[:40],
)
def test_a_signed_event_with_a_malformed_field_is_stored_as_failed_and_answered_200(
    deposit, paid_session, changes, error
):
    # Given a signed delivery of "paid" whose envelope has a field Stripe never sends
    intent = deposit.payment_intent_id
    body = event_with(paid_session, changes)

    # When it arrives
    response = deliver(body)

    # Then it is answered 200 and kept once, failed, with the field named and the body as sent
    assert response.status_code == 200
    assert response.json() == {"received": True, "duplicate": False, "outcome": "failed"}
    event = stored("evt_shape")
    assert event.outcome == WebhookOutcome.FAILED
    assert event.error.startswith(f"malformed event: {error}")
    assert event.payload == json.loads(body)
    assert event.processed_at is not None
    assert untouched(deposit, intent)


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"amount_total": {}}, f"data.object.amount_total is {{}}, not {AMOUNT}"),
        ({"amount_total": "1200"}, f'data.object.amount_total is "1200", not {AMOUNT}'),
        ({"amount_total": 1200.0}, f"data.object.amount_total is 1200.0, not {AMOUNT}"),
        ({"amount_total": True}, f"data.object.amount_total is true, not {AMOUNT}"),
        ({"amount_total": -1200}, f"data.object.amount_total is -1200, not {AMOUNT}"),
        ({"amount_total": 10**13}, f"data.object.amount_total is 10000000000000, not {AMOUNT}"),
        ({"currency": 5}, "data.object.currency is 5, not text"),
        ({"currency": {"code": "eur"}}, 'data.object.currency is {"code": "eur"}, not text'),
        (
            {"payment_intent": ["pi_1"]},
            'data.object.payment_intent is ["pi_1"], not an id (text of at most 255 characters)',
        ),
        ({"payment_intent": {"id": "pi_1"}}, 'data.object.payment_intent is {"id": "pi_1"}, not'),
        ({"payment_intent": "pi_" + "x" * 300}, 'data.object.payment_intent is "pi_xxxxxxx'),
        ({"id": {}}, "data.object.id is {}, not an id"),
        ({"metadata": "str"}, 'data.object.metadata is "str", not an object'),
        ({"metadata": [1]}, "data.object.metadata is [1], not an object"),
        ({"metadata": {"ordina_payment": 5}}, "data.object.metadata.ordina_payment is 5, not text"),
        ({"payment_status": {}}, "data.object.payment_status is {}, not text"),
        ({"object": 5}, "data.object.object is 5, not text"),
    ],
    ids=lambda value: json.dumps(value)[:40],
)
def test_a_completed_session_with_a_malformed_field_fails_and_pays_nothing(
    fake_stripe, deposit, changes, error
):
    # Given a signed "checkout completed, paid" whose session has a field Stripe never sends
    intent = deposit.payment_intent_id
    body = event_payload(
        "evt_shape", "checkout.session.completed", session_object(fake_stripe, deposit, **changes)
    )

    # When it arrives
    response = deliver(body)

    # Then it is kept, failed, with the field named; the payment and its intent are as they were
    assert response.status_code == 200
    assert response.json()["outcome"] == "failed"
    assert stored("evt_shape").error.startswith(f"malformed event: {error}")
    assert stored("evt_shape").payload == json.loads(body)
    assert untouched(deposit, intent)


@pytest.mark.parametrize(
    ("kind", "changes", "error"),
    [
        ("payment_intent.succeeded", {"amount_received": {}}, "amount_received is {}, not"),
        ("payment_intent.succeeded", {"id": [1]}, "data.object.id is [1], not an id"),
        ("charge.refunded", {"amount_refunded": "500"}, 'amount_refunded is "500", not'),
        ("charge.refunded", {"amount_refunded": -5}, "amount_refunded is -5, not"),
        ("charge.refunded", {"amount_refunded": 10**30}, "amount_refunded is 1000000000000000"),
        ("charge.refunded", {"amount": None, "amount_refunded": 1.5}, "amount_refunded is 1.5"),
        ("charge.refunded", {"payment_intent": {}}, "data.object.payment_intent is {}, not"),
    ],
    ids=lambda value: json.dumps(value)[:40],
)
def test_an_intent_or_refund_with_a_malformed_field_fails_and_moves_nothing(
    deposit, kind, changes, error
):
    intent = deposit.payment_intent_id
    obj = (
        intent_object(deposit, **changes)
        if kind == "payment_intent.succeeded"
        else charge_object(deposit, amount_refunded=500) | changes
    )

    response = deliver(event_payload("evt_shape", kind, obj))

    payment, _ = reloaded(deposit)
    assert response.status_code == 200
    assert response.json()["outcome"] == "failed"
    assert stored("evt_shape").error.startswith("malformed event: data.object.")
    assert error in stored("evt_shape").error
    assert payment.amount_refunded == 0
    assert untouched(deposit, intent)


def test_an_event_of_a_type_we_do_not_act_on_is_stored_as_ignored_whatever_its_fields(deposit):
    body = json.dumps(
        {"id": "evt_other", "type": "customer.created", "created": {}, "data": [1]}
    ).encode()

    response = deliver(body)

    assert response.status_code == 200
    assert response.json()["outcome"] == "ignored"
    assert stored("evt_other").payload == json.loads(body)


def test_a_malformed_event_delivered_again_is_a_duplicate_and_replaying_it_still_fails(
    fake_stripe, deposit
):
    # Given a malformed event, stored as failed
    intent = deposit.payment_intent_id
    body = event_payload(
        "evt_shape",
        "checkout.session.completed",
        session_object(fake_stripe, deposit, amount_total={}),
    )
    first = deliver(body)

    # When Stripe delivers it again, and the replay command runs it once more
    again = deliver(body)
    code, out, err = replay()

    # Then it is one row, answered 200 each time, still failed for the same reason
    assert [first.status_code, again.status_code] == [200, 200]
    assert again.json() == {"received": True, "duplicate": True, "outcome": "failed"}
    assert WebhookEvent.objects.filter(stripe_event_id="evt_shape").count() == 1
    assert code == 1
    assert "evt_shape checkout.session.completed: failed: malformed event: " in out
    assert "1 event(s) still failing." in err
    assert untouched(deposit, intent)


def test_a_session_naming_an_intent_that_is_another_payments_fails_instead_of_crashing(
    fake_stripe, salon, haircut, deposit
):
    # Given a second deposit, and ours not yet knowing its intent
    other = appointment_create(
        service=haircut,
        start=lisbon(WEDNESDAY, "14:00"),
        client=ClientDetails(name="Rui Costa", email="rui@example.com"),
        status=AppointmentStatus.PENDING_PAYMENT,
    )
    checkout = deposit_checkout_open(appointment=other.appointment)
    assert checkout is not None
    taken = checkout.payment.payment_intent_id
    Payment.objects.filter(pk=deposit.pk).update(payment_intent_id=None)

    # When our session completes naming the other deposit's intent
    response = deliver(
        event_payload(
            "evt_taken",
            "checkout.session.completed",
            session_object(fake_stripe, deposit, payment_intent=taken),
        )
    )

    # Then it fails with the reason, and neither payment changes
    assert response.status_code == 200
    assert stored("evt_taken").error == (
        f"intent {taken} is payment {checkout.payment.pk}'s, not payment {deposit.pk}'s"
    )
    assert untouched(deposit, None)
    assert untouched(checkout.payment, taken)


# --- text PostgreSQL cannot hold --------------------------------------------------------------


def test_text_the_database_cannot_hold_is_replaced_and_the_event_still_applied(
    fake_stripe, deposit
):
    # Given a paid session whose customer's name holds NUL and a half surrogate pair
    session = session_object(fake_stripe, deposit)
    session["customer_details"] = {"name": "Ana\u0000Silva\ud800", "\u0000key": 1}

    response = deliver(event_payload("evt_nul", "checkout.session.completed", session))

    assert response.status_code == 200
    assert response.json()["outcome"] == "processed"
    details = stored("evt_nul").payload["data"]["object"]["customer_details"]
    assert details == {"name": "Ana\ufffdSilva\ufffd", "\ufffdkey": 1}
    assert reloaded(deposit)[0].status == PaymentStatus.PAID


# --- no event at all --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"[1]", "the body is JSON an array, not an object"),
        (b'"str"', "the body is JSON text, not an object"),
        (b"5", "the body is JSON a number, not an object"),
        (b"null", "the body is JSON null, not an object"),
        (b"{}", "id is missing, not an event id (text of 1 to 255 characters)"),
        (b'{"id": 5, "type": "customer.created"}', "id is 5, not an event id"),
        (b'{"id": "", "type": "customer.created"}', 'id is "", not an event id'),
        (b'{"id": {}, "type": "customer.created"}', "id is {}, not an event id"),
        (json.dumps({"id": "evt_" + "x" * 300}).encode(), 'id is "evt_xxxx'),
        (b'{"id": "evt_\\u0000"}', 'id is "evt_\\u0000", not an event id'),
        (b'{"id": "evt_nan", "amount": NaN}', "the body is not JSON (NaN is not a JSON number"),
        (b'{"id": "evt_inf", "amount": -Infinity}', "the body is not JSON (-Infinity is not"),
        (b'{"id": "evt_huge", "amount": 1e400}', "the body is not JSON (1e400 is too large"),
        (
            b'{"id": "evt_deep", "a": ' + b"[" * 100 + b"]" * 100 + b"}",
            "the body is nested deeper than 64",
        ),
        (
            b'{"id": "evt_deeper", "a": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
            "the body is nested deeper",
        ),
        (b'{"id": "evt_cut"', "the body is not JSON (Expecting"),
    ],
    ids=lambda value: value[:30].decode() if isinstance(value, bytes) else value[:30],
)
def test_a_signed_body_with_no_event_to_store_is_refused_400_and_leaves_nothing(
    deposit, body, reason
):
    intent = deposit.payment_intent_id

    response = deliver(body)

    assert response.status_code == 400
    assert response.json()["code"] == "not_an_event"
    assert response.json()["detail"].startswith(f"Not a Stripe event: {reason}")
    assert not WebhookEvent.objects.exists()
    assert untouched(deposit, intent)


# --- any JSON anywhere: never a 500, every delivery with an id stored exactly once ------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
TOP_LEVEL = ["type", "created", "livemode", "data", "object", "id"]
OBJECT_FIELDS = [
    "object",
    "id",
    "amount",
    "amount_total",
    "amount_received",
    "amount_refunded",
    "currency",
    "payment_intent",
    "payment_status",
    "metadata",
    "livemode",
]


def well_formed(fake_stripe, payment: Payment, kind: str) -> dict[str, Any]:
    if kind == "payment_intent.succeeded":
        return intent_object(payment)
    if kind == "charge.refunded":
        return charge_object(payment, amount_refunded=500)
    return session_object(fake_stripe, payment)


@settings(
    max_examples=120,
    deadline=None,
    # The deposit is made once; each example runs in a savepoint rolled back at its end.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    kind=st.sampled_from(
        [
            "checkout.session.completed",
            "checkout.session.expired",
            "payment_intent.succeeded",
            "charge.refunded",
        ]
    ),
    top_level=st.dictionaries(st.sampled_from(TOP_LEVEL), JSON, max_size=2),
    object_fields=st.dictionaries(st.sampled_from(OBJECT_FIELDS), JSON, max_size=3),
)
def test_any_json_in_an_events_fields_is_stored_once_or_refused_never_a_500(
    fake_stripe, deposit, kind, top_level, object_fields
):
    event = json.loads(
        event_payload("evt_any", kind, well_formed(fake_stripe, deposit, kind) | object_fields)
    )
    event |= top_level
    body = json.dumps(event).encode()
    event_id = event["id"]
    has_an_id = isinstance(event_id, str) and 0 < len(event_id) <= 255 and "\x00" not in event_id

    with transaction.atomic():
        first, again = deliver(body), deliver(body)
        rows = list(WebhookEvent.objects.all())
        payment, _ = reloaded(deposit)
        transaction.set_rollback(True)

    if not has_an_id:
        assert [first.status_code, again.status_code] == [400, 400]
        assert rows == []
        return
    assert [first.status_code, again.status_code] == [200, 200]
    assert [first.json()["duplicate"], again.json()["duplicate"]] == [False, True]
    assert [row.stripe_event_id for row in rows] == [event_id]
    (row,) = rows
    assert row.outcome in WebhookOutcome.values
    if row.outcome == WebhookOutcome.FAILED:
        assert row.error
    if row.outcome != WebhookOutcome.PROCESSED:
        assert payment.status == PaymentStatus.PENDING
        assert payment.paid_at is None
