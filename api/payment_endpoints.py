"""The two doors into payments from outside: Stripe's signed webhook, and the internal
server-to-server verification call. Both are thin; the services decide."""

import hmac
import uuid

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from orchestration.deposit_settlement import payment_verify, webhook_receive
from payments import stripe_api
from payments.models import Payment
from payments.services import PaymentMismatch
from payments.stripe_events import NotAnEvent

INTERNAL_SECRET_HEADER = "HTTP_X_ORDINA_INTERNAL_SECRET"  # noqa: S105 - a header name


@csrf_exempt  # authenticated by Stripe's signature over the raw body, not by a cookie
@require_POST
def stripe_webhook(request: HttpRequest) -> JsonResponse:
    try:
        receipt = webhook_receive(request.body, request.headers.get("Stripe-Signature"))
    except stripe_api.WebhookSignatureInvalid as refusal:
        return JsonResponse(
            {"detail": f"Signature verification failed: {refusal}", "code": "bad_signature"},
            status=400,
        )
    except NotAnEvent as refusal:
        # Nothing to store it under; an event with malformed fields is stored (200) instead.
        return JsonResponse(
            {"detail": f"Not a Stripe event: {refusal}.", "code": "not_an_event"},
            status=400,
        )
    return JsonResponse(
        {"received": True, "duplicate": receipt.duplicate, "outcome": receipt.event.outcome}
    )


def _trusted(request: HttpRequest) -> bool:
    expected = settings.PAYMENTS_INTERNAL_SECRET
    offered = request.META.get(INTERNAL_SECRET_HEADER, "")
    # An unset secret opens nothing; the comparison takes the same time whatever matches.
    return bool(expected) and hmac.compare_digest(offered.encode(), expected.encode())


@csrf_exempt  # a server-to-server call authenticated by a shared secret header
@require_POST
def verify_payment(request: HttpRequest, appointment_id: str) -> JsonResponse:
    """Ask Stripe about one appointment's deposit and record what Stripe confirms. Takes no
    payment status as input: the caller can only trigger the question, never give the answer."""
    if not _trusted(request):
        return JsonResponse({"detail": "Not allowed.", "code": "forbidden"}, status=403)
    public_id = _uuid_or_none(appointment_id)
    payment = (
        Payment.objects.select_related("appointment__business")
        .filter(appointment__public_id=public_id)
        .first()
        if public_id
        else None
    )
    if payment is None:
        return JsonResponse({"detail": "No such payment.", "code": "not_found"}, status=404)
    try:
        payment = payment_verify(payment)
    except stripe_api.StripeUnavailable as problem:
        return JsonResponse({"detail": str(problem), "code": "stripe_unavailable"}, status=503)
    except PaymentMismatch as problem:
        return JsonResponse({"detail": str(problem), "code": "mismatch"}, status=409)
    return JsonResponse(
        {"status": payment.status, "appointment_status": payment.appointment.status}
    )


def _uuid_or_none(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value)
    except ValueError:
        return None
