"""The chat widget's two verification calls: ask for a code for an email address, then type it.
Both are the client's own presses on a conversation they hold the token of."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from agent.conversation.turns import ConversationNotFound, TurnInProgress
from agent.verification import codes
from agent.verification.service import TooManyCodes, code_check, code_send
from api.conversations import CONVERSATION_TOKEN, ConversationApi, in_progress
from api.errors import conflict, error_responses
from api.fields import StrictCharField

# In the conversation's language (ConversationApi); the codes beside them stay English.
SENT = gettext_lazy(
    "If {email} is the address {business} has for you, a {digits}-digit code is on its way "
    "there. Type it here within {minutes} minutes."
)
TOLD = {
    codes.Verdict.WRONG: gettext_lazy("That code is not right."),
    codes.Verdict.EXPIRED: gettext_lazy("That code has expired: ask for a new one."),
    codes.Verdict.USED_UP: gettext_lazy("Too many wrong tries for that code: ask for a new one."),
    codes.Verdict.NONE_WAITING: gettext_lazy("No code is waiting: ask for one first."),
}


class SentSerializer(serializers.Serializer):
    detail = serializers.CharField()
    expires_in = serializers.IntegerField(help_text="Seconds the code is good for.")


class VerifiedSerializer(serializers.Serializer):
    verified = serializers.BooleanField()
    name = serializers.CharField(help_text="The client's name, to offer back.")
    email = serializers.CharField(help_text="Their address on file, masked (a…@example.com).")


class ConversationVerificationApi(ConversationApi):
    class InputSerializer(serializers.Serializer):
        email = serializers.EmailField(max_length=254)

        class Meta:
            ref_name = "VerificationRequest"

        def validate_email(self, value: str) -> str:
            # Lower-casing can lengthen an address ("İ" is two characters lower-cased): it is
            # compared and stored lower-cased, so that form must fit too.
            if len(value.strip().lower()) > 254:
                raise serializers.ValidationError(
                    gettext("Ensure this field has no more than 254 characters.")
                )
            return value

    @extend_schema(
        operation_id="conversation_verification_start",
        summary="Ask for a one-time code, to be recognised as a returning client",
        description="A code is emailed only if a client of this business has the address; the "
        "answer is the same either way. At most 3 codes an hour per conversation.",
        parameters=[CONVERSATION_TOKEN],
        request=InputSerializer,
        responses={
            202: SentSerializer,
            409: OpenApiResponse(description="`turn_in_progress`."),
            **error_responses(400, 404, 413, 415, 429),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        email = body.validated_data["email"]
        try:
            sent = code_send(token=token, email=email, now=timezone.now())
        except ConversationNotFound:
            raise NotFound() from None
        except TurnInProgress:
            return in_progress()
        except TooManyCodes:
            response = Response(
                {
                    "detail": gettext(
                        "Too many codes asked for in this chat: try again in an hour."
                    ),
                    "code": "too_many_codes",
                },
                status=429,
            )
            response["Retry-After"] = "3600"
            return response
        seconds = int(sent.lifetime.total_seconds())
        detail = SENT.format(
            email=email, business=sent.business, digits=codes.DIGITS, minutes=seconds // 60
        )
        return Response({"detail": detail, "expires_in": seconds}, status=202)


class ConversationVerificationCheckApi(ConversationApi):
    class InputSerializer(serializers.Serializer):
        code = StrictCharField(max_length=20, help_text="The code from the email.")

        class Meta:
            ref_name = "VerificationCheckRequest"

    @extend_schema(
        operation_id="conversation_verification_check",
        summary="Type the one-time code; a right one links the conversation to the client",
        parameters=[CONVERSATION_TOKEN],
        request=InputSerializer,
        responses={
            200: VerifiedSerializer,
            409: OpenApiResponse(
                description="`wrong_code` (with `attempts_left`), `code_expired`, "
                "`too_many_attempts`, `no_code`, `turn_in_progress`."
            ),
            **error_responses(400, 404, 413, 415, 429),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            checked = code_check(token=token, code=body.validated_data["code"], now=timezone.now())
        except ConversationNotFound:
            raise NotFound() from None
        except TurnInProgress:
            return in_progress()
        if checked.verdict is codes.Verdict.VERIFIED:
            return Response({"verified": True, "name": checked.name, "email": checked.email})
        extra = {"attempts_left": checked.attempts_left} if checked.attempts_left else {}
        if checked.verdict is codes.Verdict.WRONG and not checked.attempts_left:
            return conflict(codes.Verdict.USED_UP.value, str(TOLD[codes.Verdict.USED_UP]))
        return conflict(checked.verdict.value, str(TOLD[checked.verdict]), **extra)
