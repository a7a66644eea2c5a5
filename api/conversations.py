"""The chat widget's API: start a conversation, send a message, read it back, and confirm.

Public like the rest of /api/v1/: no authentication, no session, no cookies, rate-limited, JSON.
A conversation is named by the token returned once when it starts (256 random bits; only its
hash is stored), so a conversation can be resumed from any device that has the token and from
none that has not. Confirm is the only call that books, and it wants an Idempotency-Key.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from agent.conversation.client_actions import NotOffered, details_give, slot_pick, time_hold
from agent.conversation.confirming import AlreadyBooked, ConversationClosed, conversation_confirm
from agent.conversation.facts import reference_of
from agent.conversation.language import starting_language
from agent.conversation.row_read import language_by_hash
from agent.conversation.states import State
from agent.conversation.telling import booked_choice, in_zone, slot_id
from agent.conversation.turns import (
    ConversationNotFound,
    TurnInProgress,
    TurnResult,
    conversation_for_token,
    conversation_start,
    locked_conversation,
    token_hash,
    turn_take,
)
from agent.conversation.wording import local_label
from agent.llm import registry
from agent.llm.base import LanguageModel
from agent.models import Conversation, Message
from api.appointments import (
    IDEMPOTENCY_HEADER,
    IDEMPOTENCY_PARAMETER,
    idempotency_key_errors,
)
from api.errors import conflict, error_responses
from api.fields import (
    NOT_BLANK_PATTERN,
    InstantField,
    StrictCharField,
    WholeNumberField,
    single_valued,
)
from api.lookups import SLUG, business_or_404
from api.public import SLUG_PARAMETER, PublicApi
from bookings.models import Business
from bookings.tokens import calendar_url, manage_url
from ordina.client_address import client_address

TRANSCRIPT_LIMIT = 200  # messages returned when a conversation is read back
CONVERSATION_TOKEN = OpenApiParameter(
    "token",
    str,
    OpenApiParameter.PATH,
    description="The conversation's token, as returned when it started.",
)


class ConversationApi(PublicApi):
    """An endpoint about one conversation (named by the token in its path, or about to start
    at the business of its slug): every word it answers with, errors included, is in the
    conversation's language (the business's, for one not started). Error codes stay English."""

    def dispatch(self, request, *args, **kwargs):
        language = _language(token=kwargs.get("token"), slug=kwargs.get("slug"))
        if language is None:  # nothing to speak of: the request's own language
            return super().dispatch(request, *args, **kwargs)
        with translation.override(language):
            return super().dispatch(request, *args, **kwargs)


def _language(*, token: str | None, slug: str | None) -> str | None:
    """The conversation's language, or the one a chat at the business would start in; None
    for a token or slug that names none, so an unknown token's 404 reads as any other."""
    if token is not None:
        return language_by_hash(token_hash(token))
    if slug is not None and SLUG.fullmatch(slug):  # a malformed one is a 404, never a query
        business = Business.objects.filter(slug=slug).values_list("language", flat=True).first()
        return None if business is None else starting_language(business)
    return None


class StoredChoicesField(serializers.JSONField):
    """The choices as the database stores them (DjangoJSONEncoder: money as "60.00"), so the
    reply of a turn and the same message read back later are written alike; DRF's renderer
    would otherwise turn the fresh reply's Decimals into floats (60.0)."""

    def to_representation(self, value: Any) -> Any:
        return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


class MessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    role = serializers.CharField(
        help_text="`client`, `assistant`, or `staff` (a person of the business, answering)."
    )
    text = serializers.CharField()
    choices = StoredChoicesField(
        help_text=(
            "What to show beside the text, all from the booking core: `services`, `slots` "
            "(press one through /pick/ with its `id`, or send its label), `confirm` (the "
            "booking to confirm), `effect` (a cancel, move or refund the client asked for, to "
            "press: `label` says exactly what it does, `button` its words, `card` what the "
            "press names), `payment` (where to pay the deposit), `booked` (the appointment "
            "made: its manage and calendar links). Times are ISO 8601 in the business's zone; "
            "money two-decimal strings."
        )
    )
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ChatMessage"


class BookedSerializer(serializers.Serializer):
    service = serializers.CharField()
    start = serializers.CharField(help_text="ISO 8601 in the business's zone, with its offset.")
    # The JSON's own name; mypy's stubs confuse it with Field.label, which DRF keeps apart.
    label = serializers.CharField()  # type: ignore[assignment]
    status = serializers.CharField()
    reference = serializers.CharField()
    manage_url = serializers.CharField()
    calendar_url = serializers.CharField()

    class Meta:
        ref_name = "Booked"


class ConversationSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    business = serializers.CharField(source="business.slug")
    state = serializers.CharField()
    service = serializers.CharField(source="service.name", allow_null=True, default=None)
    held_start = serializers.DateTimeField(allow_null=True)
    held_until = serializers.DateTimeField(allow_null=True)
    name = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    appointment = serializers.UUIDField(
        source="appointment.public_id", allow_null=True, default=None
    )
    appointment_status = serializers.CharField(
        source="appointment.status", allow_null=True, default=None
    )
    booked = serializers.SerializerMethodField(
        help_text="Once confirmed, the booking as `choices.booked` writes it (with its manage "
        "and calendar links); null before. A deposit paid between two messages confirms the "
        "booking with no reply to carry it."
    )

    class Meta:
        ref_name = "Conversation"

    @extend_schema_field(BookedSerializer(allow_null=True))
    def get_booked(self, conversation: Conversation) -> dict[str, Any] | None:
        appointment = conversation.appointment
        if conversation.state != State.CONFIRMED or appointment is None:
            return None
        return booked_choice(
            service=appointment.service.name,
            start=appointment.starts_at,
            status=appointment.status,
            reference=reference_of(appointment),
            time_zone=conversation.business.time_zone,
            manage_url=manage_url(appointment.public_id),
            calendar_url=calendar_url(appointment.public_id),
        )


class TranscriptSerializer(ConversationSerializer):
    messages = serializers.SerializerMethodField()

    class Meta:
        ref_name = "ConversationTranscript"

    @extend_schema_field(MessageSerializer(many=True))
    def get_messages(self, conversation: Conversation) -> list[dict[str, Any]]:
        latest = Message.objects.filter(conversation=conversation).order_by("-id")
        if (after := self.context.get("after")) is not None:
            latest = latest.filter(id__gt=after)
        return list(MessageSerializer(reversed(latest[:TRANSCRIPT_LIMIT]), many=True).data)


class StartedSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Keep it: it is the only key to this conversation.")
    conversation = ConversationSerializer()
    reply = MessageSerializer()

    class Meta:
        ref_name = "ConversationStarted"


class TurnSerializer(serializers.Serializer):
    conversation = ConversationSerializer()
    reply = MessageSerializer()

    class Meta:
        ref_name = "ConversationTurn"


class OfferedSlotSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="What /pick/ names to hold this time.")
    start = serializers.CharField(help_text="ISO 8601 in the business's time zone.")
    end = serializers.CharField(help_text="ISO 8601 in the business's time zone.")
    label = serializers.CharField(  # type: ignore[assignment]  # as in BookedSerializer
        help_text="The time in words, as the reply names it."
    )

    class Meta:
        ref_name = "OfferedSlot"


class TurnRefusedSerializer(serializers.Serializer):
    """A press the core refused is still a turn of the conversation: with a reply that says
    why (and offers what can be done instead), so the page keeps showing the conversation."""

    detail = serializers.CharField()
    code = serializers.ChoiceField(
        choices=[
            "slot_unavailable",
            "not_ready",
            "not_offered",
            "already_booked",
            "conversation_closed",
            "turn_in_progress",
            "idempotency_conflict",
            "payments_unavailable",
        ]
    )
    alternatives = OfferedSlotSerializer(
        many=True,
        required=False,
        help_text="With `slot_unavailable`: the open times nearest the one asked for, now "
        "offered (press one through /pick/).",
    )
    conversation = ConversationSerializer(
        required=False, help_text="With `slot_unavailable`, `not_ready`, `payments_unavailable`."
    )
    reply = MessageSerializer(
        required=False,
        help_text="The reply that says why, with `slot_unavailable`, `not_ready` and "
        "`payments_unavailable`.",
    )

    class Meta:
        ref_name = "ConversationTurnRefused"


def _turn(result: TurnResult) -> dict[str, Any]:
    return TurnSerializer({"conversation": result.conversation, "reply": result.reply}).data


class ConversationStartApi(ConversationApi):
    @extend_schema(
        operation_id="conversation_start",
        summary="Start a chat with a business's assistant",
        parameters=[SLUG_PARAMETER],
        request=None,
        responses={201: StartedSerializer, **error_responses(404, 429)},
    )
    def post(self, request: Request, slug: str) -> Response:
        business = business_or_404(slug)
        conversation, token, greeting = conversation_start(business=business)
        body = {"token": token, "conversation": conversation, "reply": greeting}
        return Response(StartedSerializer(body).data, status=201)


class ConversationReadApi(ConversationApi):
    class QuerySerializer(serializers.Serializer):
        after = WholeNumberField(
            required=False,
            min_value=0,
            max_value=2**63 - 1,
            help_text="Only messages after this message id (to poll for what is new).",
        )

    @extend_schema(
        operation_id="conversation_read",
        summary="Read a conversation back, to resume it or to see what is new",
        parameters=[CONVERSATION_TOKEN, QuerySerializer],
        responses={200: TranscriptSerializer, **error_responses(400, 404, 429)},
    )
    def get(self, request: Request, token: str) -> Response:
        # A plain dict, not the QueryDict: DRF reads a blank form value as "not given", and
        # `?after=` is a mistake to answer, not a request for everything.
        query = self.QuerySerializer(data=single_valued(request.query_params))
        query.is_valid(raise_exception=True)
        context = {"after": query.validated_data.get("after")}
        return Response(TranscriptSerializer(_up_to_date(token), context=context).data)


class ConversationMessageApi(ConversationApi):
    class InputSerializer(serializers.Serializer):
        text = StrictCharField(max_length=2000, trim_whitespace=True)

        class Meta:
            ref_name = "ChatMessageRequest"

    # (conversation, model, now) when dispatch locked the row for an in-process model's turn.
    locked: tuple[Conversation, LanguageModel, dt.datetime] | None = None

    def dispatch(self, request, *args, **kwargs):
        """A message for a model that narrates in process (the offline model) is answered in
        one transaction from the start: the statement that locks the conversation's row (which
        the turn needs first anyway) gives its language, so the request's every answer —
        throttled, a body refused, the turn's reply — speaks it without a read of its own. A
        token that names no conversation, or one whose reply another request is writing, goes
        the way of any other request (its language read, then the turn refused as it is)."""
        if request.method != "POST":
            return super().dispatch(request, *args, **kwargs)
        model = registry.language_model()  # looked up per request, as the turn does
        token = kwargs.get("token")
        if not model.narrates_in_process or token is None:
            return super().dispatch(request, *args, **kwargs)
        now = timezone.now()
        with transaction.atomic():
            try:
                conversation = locked_conversation(token, now)
            except (ConversationNotFound, TurnInProgress):
                conversation = None
            if conversation is not None:
                self.locked = (conversation, model, now)
                with translation.override(conversation.language):
                    # PublicApi's dispatch: the language is known, not to be read again.
                    response = super(ConversationApi, self).dispatch(request, *args, **kwargs)
                if response.status_code >= 400:
                    # Refused before the turn (throttled, a body refused): nothing the lock's
                    # read brought up to date is kept, as if the row had not been read.
                    transaction.set_rollback(True)
                return response
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(
        operation_id="conversation_message",
        summary="Send the client's message; get the assistant's reply",
        parameters=[CONVERSATION_TOKEN],
        request=InputSerializer,
        responses={
            200: TurnSerializer,
            409: OpenApiResponse(
                TurnRefusedSerializer,
                description="`turn_in_progress`: the previous message is still being answered.",
            ),
            **error_responses(400, 404, 413, 415, 429),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        model, now, conversation = None, None, None
        if self.locked is not None:
            conversation, model, now = self.locked
        try:
            result = turn_take(
                token=token,
                text=body.validated_data["text"],
                address=client_address(request),
                model=model,
                now=now,
                locked=conversation,
            )
        except ConversationNotFound:
            raise NotFound() from None
        except TurnInProgress:
            return in_progress()
        return Response(_turn(result))


class ConversationConfirmApi(ConversationApi):
    class InputSerializer(serializers.Serializer):
        card = StrictCharField(
            max_length=64,
            allow_blank=True,  # nothing shown to confirm yet: refused as not ready (409)
            help_text=(
                "The `card` pressed: the booking shown to confirm (`choices.confirm.card`), "
                "booked exactly as the client saw it, or a cancel, move or refund card "
                "(`choices.effect.card`), carried out exactly as it says; refused if what it "
                "shows changed since."
            ),
        )

        class Meta:
            ref_name = "ConfirmRequest"

    @extend_schema(
        operation_id="conversation_confirm",
        summary="Press a card the conversation prepared: Confirm a booking, or a cancel, move "
        "or refund the client asked for",
        parameters=[CONVERSATION_TOKEN, IDEMPOTENCY_PARAMETER],
        request=InputSerializer,
        responses={
            201: OpenApiResponse(
                TurnSerializer,
                "Done: booked (or awaiting its deposit: see reply), cancelled, moved or refunded.",
            ),
            200: OpenApiResponse(TurnSerializer, "A repeat of a confirmed request: same answer."),
            409: OpenApiResponse(
                TurnRefusedSerializer,
                description=(
                    "`slot_unavailable` (with `alternatives` and the `reply`: the time was taken, "
                    "or its hold ran out and it was taken since), `not_ready` (no held slot, "
                    "details missing, the booking changed since its card was shown, or the "
                    "policy refused the cancel, move or refund — the `reply` says why in plain "
                    "words), `already_booked`, `conversation_closed` (a person has taken it "
                    "over, or it ended), `turn_in_progress`, `idempotency_conflict` (the key "
                    "was used for another booking)."
                ),
            ),
            503: OpenApiResponse(
                TurnRefusedSerializer,
                "`payments_unavailable`: a deposit is due and payments are unavailable; nothing "
                "was booked, the time is offered again (see `reply`); try again shortly.",
            ),
            **error_responses(400, 404, 429),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        key = request.headers.get(IDEMPOTENCY_HEADER)
        body = self.InputSerializer(data=request.data)
        body.is_valid()
        if errors := {**idempotency_key_errors(key), **body.errors}:
            raise ValidationError(errors)
        assert key is not None
        card = body.validated_data["card"]
        try:
            result = conversation_confirm(token=token, idempotency_key=key, card=card)
        except ConversationNotFound:
            raise NotFound() from None
        except TurnInProgress:
            return in_progress()
        except AlreadyBooked:
            return conflict(
                "already_booked", gettext("This conversation's booking is already made.")
            )
        except ConversationClosed:
            return conflict(
                "conversation_closed",
                gettext("This conversation is closed: a member of the team has it, or it ended."),
            )
        done = result.executed[0]
        if done.replayed:
            return Response(_turn(result), status=200)
        if done.verdict.passed:
            return Response(_turn(result), status=201)
        if done.payments_unavailable:
            refusal = {"detail": done.verdict.reason, "code": "payments_unavailable"}
            return Response({**refusal, **_turn(result)}, status=503)
        code = "slot_unavailable" if done.alternatives else "not_ready"
        return conflict(
            code,
            done.verdict.reason,
            alternatives=_slots(result, done.alternatives),
            **_turn(result),
        )


class ClientActionApi(ConversationApi):
    """What the three client actions share: their errors, and the turn they answer with."""

    def answered(self, request: Request, action) -> Response:
        try:
            result = action(address=client_address(request))
        except ConversationNotFound:
            raise NotFound() from None
        except TurnInProgress:
            return in_progress()
        except ConversationClosed:
            return conflict(
                "conversation_closed",
                gettext("This conversation is closed: a member of the team has it, or it ended."),
            )
        except NotOffered:
            return conflict(
                "not_offered", gettext("That time is not one of the times offered now.")
            )
        return Response(_turn(result))


class ConversationPickApi(ClientActionApi):
    class InputSerializer(serializers.Serializer):
        slot = StrictCharField(
            max_length=64,
            help_text="The `id` of one of the offered slots (`choices.slots[].id`).",
        )

        class Meta:
            ref_name = "PickRequest"

    @extend_schema(
        operation_id="conversation_pick",
        summary="Pick one of the times offered (the client's press on a slot button)",
        parameters=[CONVERSATION_TOKEN],
        request=InputSerializer,
        responses={
            200: OpenApiResponse(TurnSerializer, "The reply: the time held, or why not."),
            409: OpenApiResponse(
                TurnRefusedSerializer,
                description="`not_offered` (not a time offered now), `conversation_closed`, "
                "`turn_in_progress`.",
            ),
            **error_responses(400, 404, 413, 415, 429),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        slot = body.validated_data["slot"]
        return self.answered(
            request, lambda address: slot_pick(token=token, slot=slot, address=address)
        )


class ConversationHoldApi(ClientActionApi):
    class InputSerializer(serializers.Serializer):
        service = WholeNumberField(min_value=1, max_value=2**63 - 1)
        start = InstantField(help_text="A slot's start, as availability gives it.")

        class Meta:
            ref_name = "ConversationHoldRequest"

    @extend_schema(
        operation_id="conversation_hold",
        summary="Hold a time chosen in the pick-a-time view (the client's press)",
        parameters=[CONVERSATION_TOKEN],
        request=InputSerializer,
        responses={
            200: OpenApiResponse(TurnSerializer, "The reply: the time held, or why not."),
            409: OpenApiResponse(
                TurnRefusedSerializer, description="`conversation_closed`, `turn_in_progress`."
            ),
            **error_responses(400, 404, 413, 415, 429),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        service, start = body.validated_data["service"], body.validated_data["start"]
        return self.answered(
            request,
            lambda address: time_hold(token=token, service=service, start=start, address=address),
        )


class BodyRequiredSchema(AutoSchema):
    """A request body is required even though no one field is: the details form needs at
    least one of its fields, which the schema says with `anyOf` (see DetailsRequestSchema)."""

    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        body = super()._get_request_body(direction)
        return body and {**body, "required": True}


class ConversationDetailsApi(ClientActionApi):
    schema = BodyRequiredSchema()

    class InputSerializer(serializers.Serializer):
        name = StrictCharField(max_length=120, required=False, allow_blank=True)
        email = StrictCharField(max_length=254, required=False, allow_blank=True)
        phone = StrictCharField(max_length=32, required=False, allow_blank=True)

        class Meta:
            ref_name = "DetailsRequest"

        def validate(self, data: dict[str, str]) -> dict[str, str]:
            if not any(value.strip() for value in data.values()):
                raise ValidationError(gettext("Give a name, an email address or a phone number."))
            return data

    @extend_schema(
        operation_id="conversation_details",
        summary="Give the client's details from a form (name, email, phone)",
        parameters=[CONVERSATION_TOKEN],
        request=InputSerializer,
        responses={
            200: OpenApiResponse(
                TurnSerializer,
                "The reply: the details kept, or what is wrong with one (it is not kept).",
            ),
            409: OpenApiResponse(
                TurnRefusedSerializer, description="`conversation_closed`, `turn_in_progress`."
            ),
            **error_responses(400, 404, 413, 415, 429),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        given = body.validated_data
        return self.answered(
            request, lambda address: details_give(token=token, address=address, **given)
        )


class DetailsRequestSchema(OpenApiSerializerExtension):
    """The details form's schema says what the API wants of it together: at least one of
    name, email and phone with something in it."""

    target_class = ConversationDetailsApi.InputSerializer

    def map_serializer(self, auto_schema, direction) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        filled = {"minLength": 1, "pattern": NOT_BLANK_PATTERN}
        return schema | {
            "anyOf": [
                {"required": [field], "properties": {field: filled}}
                for field in ("name", "email", "phone")
            ]
        }


def _up_to_date(token: str) -> Conversation:
    """The conversation with its stage brought up to date (a lapsed hold, a deposit paid);
    as stored while a reply is being written, which brings it up to date itself."""
    try:
        try:
            with transaction.atomic():
                conversation = locked_conversation(token, timezone.now())
                conversation.save()
                return conversation
        except TurnInProgress:
            return conversation_for_token(token)
    except ConversationNotFound:
        raise NotFound() from None


def _slots(result: TurnResult, starts: list[dt.datetime]) -> list[dict[str, str]]:
    """Alternatives written as the reply's offered slots are: an ``id`` to pick by, start and
    end in the business's zone, and a label."""
    conversation = result.conversation
    zone = conversation.business.time_zone
    length = dt.timedelta(
        minutes=conversation.service.duration_minutes if conversation.service else 0
    )
    return [
        {
            "id": slot_id(start),
            "start": in_zone(start, zone),
            "end": in_zone(start + length, zone),
            "label": local_label(start, zone),
        }
        for start in starts
    ]


def in_progress() -> Response:
    response = conflict(
        "turn_in_progress",
        gettext("The previous message is still being answered; send again shortly."),
    )
    response["Retry-After"] = "2"
    return response
