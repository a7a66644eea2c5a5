"""The assistant in the dashboard: owners decide their agent's grants; owners and staff read
their conversations and reply in them; owners, staff and Ordina's operators read the audit
log and the guards' rewrites, which nobody edits. The audit log's page sums up what the gates
contained."""

import uuid
from dataclasses import dataclass

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.decorators import method_decorator
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from agent.actions import GRANTED_BY_TERMS, NEVER_GRANTED
from agent.audit_sentences import Wording, audit_sentence
from agent.containment import containment_summary
from agent.conversation.staff import STAFF_REPLY_CHARACTERS, hand_back_to_assistant, staff_reply
from agent.conversation.states import InvalidTransition, State
from agent.conversation_reading import choices_text, short_label, stage_label, stage_words
from agent.models import (
    STATE_CHOICES,
    AgentGrant,
    AuditEntry,
    Conversation,
    GuardRewrite,
    Message,
    MessageRole,
)
from agent.services import discount_given
from bookings.access import Action
from bookings.models import Business, Service
from bookings.scoped_admin import BusinessScopedAdmin, ReadOnlyScopedAdmin, tenant_access


@admin.register(AgentGrant)
class AgentGrantAdmin(BusinessScopedAdmin):
    list_display = ["action", "business", "created_at"]
    list_filter = ["business", "action"]
    fields = ["business", "action"]

    def formfield_for_choice_field(self, db_field, request, **kwargs):
        # Never offered: the database would refuse the grant anyway; and what the negotiation
        # terms grant is switched on the business's terms, not here.
        if db_field.name == "action":
            hidden = NEVER_GRANTED | GRANTED_BY_TERMS
            kwargs["choices"] = [
                choice for choice in db_field.get_choices() if choice[0] not in hidden
            ]
        return super().formfield_for_choice_field(db_field, request, **kwargs)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyScopedAdmin):
    """Each entry as a sentence an owner reads, linked to its conversation. The gate and the
    reason in the system's terms are columns for Ordina's operators, and on every entry's own
    page for everyone who may read it."""

    list_display = ["created_at", "what_happened", "conversation_link", "business"]
    list_select_related = ["business"]
    list_filter = ["business", "result", "action", "created_at"]
    search_fields = ["reason", "conversation"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "business",
        "conversation",
        "proposal",
        "action",
        "result",
        "stage",
        "reason",
        "money_moved",
        "money_contained",
        "created_at",
    ]

    def get_list_display(self, request: HttpRequest):
        columns = list(super().get_list_display(request))
        return columns + OPERATOR_COLUMNS if sees_gates(request) else columns

    def get_list_filter(self, request: HttpRequest):
        filters = list(super().get_list_filter(request))
        return [*filters, "stage"] if sees_gates(request) else filters

    @admin.display(description="What happened")
    def what_happened(self, entry: AuditEntry) -> str:
        # Worded for the whole page at once in changelist_view; alone, with its own services.
        worded = getattr(entry, "sentence", None)
        return worded or audit_sentence(entry, wording_for(entry.business))

    @admin.display(description="Conversation")
    def conversation_link(self, entry: AuditEntry) -> str:
        url = getattr(entry, "conversation_url", "")
        if not url:
            return "—"
        name = getattr(entry, "conversation_name", "")
        return format_html('<a href="{}">{}</a>', url, name or "A client")

    def changelist_view(self, request: HttpRequest, extra_context=None):
        response = super().changelist_view(request, extra_context)
        context = getattr(response, "context_data", None) or {}
        if (changelist := context.get("cl")) is not None:
            # The figures of exactly the rows the filters select (and this user may see).
            rows = changelist.queryset.select_related(None)
            context["containment"] = containment_summary(
                rows.only("action", "result", "stage", "money_moved", "money_contained"),
                # Of the booked appointments of the businesses these rows are from.
                discount_given=discount_given(businesses=rows.values("business")),
            )
            self.word_page(request, list(changelist.result_list))
        return response

    def word_page(self, request: HttpRequest, entries: list[AuditEntry]) -> None:
        """The page's sentences and conversation links, in two queries however many rows."""
        business_ids = {entry.business_id for entry in entries}
        names: dict[int, dict[str, str]] = {business_id: {} for business_id in business_ids}
        for service in Service.objects.filter(business_id__in=business_ids).only(
            "id", "business_id", "name"
        ):
            names[service.business_id].update(service_references(service))
        linked = conversations_of(request, entries)
        for entry in entries:
            wording = wording_for(entry.business, names[entry.business_id])
            entry.sentence = audit_sentence(entry, wording)  # type: ignore[attr-defined]
            found = linked.get((entry.business_id, entry.conversation or ""))
            entry.conversation_url = found[0] if found else ""  # type: ignore[attr-defined]
            entry.conversation_name = found[1] if found else ""  # type: ignore[attr-defined]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        entry = self.get_object(request, object_id)  # another business's: 404
        services = Service.objects.filter(business_id=entry.business_id).only("id", "name")
        names = dict(pair for service in services for pair in service_references(service).items())
        linked = conversations_of(request, [entry])
        found = linked.get((entry.business_id, entry.conversation or ""))
        extra = {
            **(extra_context or {}),
            "sentence": audit_sentence(entry, wording_for(entry.business, names)),
            "conversation_url": found[0] if found else "",
            "conversation_name": found[1] if found else "",
        }
        return super().change_view(request, object_id, form_url, extra)


# What only Ordina's operators (and superusers) see in the list: the gate in its own terms.
OPERATOR_COLUMNS = ["action", "result", "stage", "reason"]


def sees_gates(request: HttpRequest) -> bool:
    return request.user.is_superuser or tenant_access(request).is_operator


def wording_for(business: Business, service_names: dict[str, str] | None = None) -> Wording:
    if service_names is None:
        services = Service.objects.filter(business=business).only("id", "name")
        service_names = {
            reference: name
            for service in services
            for reference, name in service_references(service).items()
        }
    return Wording(
        currency=business.currency, time_zone=business.time_zone, service_names=service_names
    )


def service_references(service: Service) -> dict[str, str]:
    """How a proposal may name the service (its id, its name in any case), to its name."""
    return {str(service.pk): service.name, service.name.lower(): service.name}


def conversations_of(
    request: HttpRequest, entries: list[AuditEntry]
) -> dict[tuple[int, str], tuple[str, str]]:
    """(business id, conversation public id) → (its page, its client's name), for the entries'
    conversations this user may open. One query; none for an operator, who reads no chat."""
    readable = (
        None
        if request.user.is_superuser
        else tenant_access(request).businesses("agent.conversation", Action.VIEW)
    )
    wanted = {
        entry.conversation
        for entry in entries
        if entry.conversation
        and is_uuid(entry.conversation)
        and (readable is None or entry.business_id in readable)
    }
    if not wanted:
        return {}
    found = Conversation.objects.filter(public_id__in=wanted)
    if readable is not None:
        found = found.filter(business_id__in=readable)
    return {
        (business_id, str(public_id)): (
            reverse("admin:agent_conversation_change", args=[pk]),
            name,
        )
        for pk, business_id, public_id, name in found.values_list(
            "pk", "business_id", "public_id", "name"
        )
    }


def is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


@admin.register(GuardRewrite)
class GuardRewriteAdmin(ReadOnlyScopedAdmin):
    list_display = ["created_at", "business", "guard", "reason", "before", "after"]
    list_filter = ["business", "guard", "created_at"]
    search_fields = ["conversation", "before"]
    date_hierarchy = "created_at"
    readonly_fields = ["business", "conversation", "guard", "reason", "before", "after"]


class WaitingForAPerson(admin.SimpleListFilter):
    title = "waiting for a person"
    parameter_name = "waiting"

    def lookups(self, request, model_admin):
        return [("yes", "Waiting for a person"), ("no", "With the assistant or over")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(state=State.ESCALATED)
        if self.value() == "no":
            return queryset.exclude(state=State.ESCALATED)
        return queryset


class StageFilter(admin.ChoicesFieldListFilter):
    """The stage filter in plain words; its parameter stays ``state__exact`` (the header's
    badge links to the escalated ones with it)."""

    def choices(self, changelist):
        words = {display: stage_label(value) for value, display in STATE_CHOICES}
        for choice in super().choices(changelist):
            yield {**choice, "display": words.get(str(choice["display"]), choice["display"])}


# Newest activity first: a conversation nobody has written in yet counts from its start.
LAST_ACTIVITY = Coalesce("last_message_at", "created_at")


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyScopedAdmin):
    """A conversation's page reads like the chat it was: the client on one side, the assistant
    and the business's people on the other, the stage and the held time on top; "Reply as
    staff" and "Hand back to the assistant" beside it for whoever may reply. What was said is
    never edited or deleted, by anyone."""

    list_display = ["last_activity", "client", "stage", "service", "business", "turns"]
    list_display_links = ["last_activity", "client"]
    list_select_related = ["business", "service"]
    list_filter = [WaitingForAPerson, ("state", StageFilter), "business", "created_at"]
    search_fields = ["name", "email", "phone", "public_id"]
    date_hierarchy = "created_at"
    ordering = [LAST_ACTIVITY.desc(), "-pk"]
    fields = ["name", "email", "phone", "service", "appointment"]
    readonly_fields = ["name", "email", "phone", "service", "appointment"]

    @admin.display(description="Last activity", ordering=LAST_ACTIVITY)
    def last_activity(self, conversation: Conversation) -> str:
        moment = conversation.last_message_at or conversation.created_at
        return short_label(moment, conversation.business.time_zone)

    @admin.display(description="Client", ordering="name")
    def client(self, conversation: Conversation) -> str:
        return conversation.name or "(no name yet)"

    @admin.display(description="Stage", ordering="state")
    def stage(self, conversation: Conversation) -> str:
        return stage_label(conversation.state)

    # --- a person answering in the conversation -----------------------------------------------

    def get_urls(self):
        reply = self.admin_site.admin_view(self.reply_view)
        hand_back = self.admin_site.admin_view(self.hand_back_view)
        return [
            path("<path:object_id>/reply/", reply, name="agent_conversation_reply"),
            path("<path:object_id>/hand-back/", hand_back, name="agent_conversation_hand_back"),
            *super().get_urls(),
        ]

    def may_reply(self, request: HttpRequest, conversation: Conversation) -> bool:
        return self.tenant_allows(request, Action.CHANGE, conversation.business_id)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        conversation = self.get_object(request, object_id)  # another business's: 404
        extra = {
            **(extra_context or {}),
            **self.reading_context(conversation),
            "title": f"Conversation with {conversation.name or 'a client'}",
            "may_reply": self.may_reply(request, conversation),
            "reply_form": StaffReplyForm(),
            "reply_characters": STAFF_REPLY_CHARACTERS,
        }
        return super().change_view(request, object_id, form_url, extra)

    def reading_context(self, conversation: Conversation) -> dict:
        business = conversation.business
        zone = business.time_zone
        messages = Message.objects.filter(conversation=conversation).select_related("author")
        return {
            "stage_words": stage_words(
                conversation.state,
                time_zone=zone,
                service=conversation.service.name if conversation.service else "",
                held_start=conversation.held_start,
                held_until=conversation.held_until,
                escalation_reason=conversation.escalation_reason,
            ),
            "held": short_label(conversation.held_start, zone) if conversation.held_start else "",
            "transcript": [
                TranscriptLine(
                    side=message.role,
                    who=who_wrote(message),
                    when=short_label(message.created_at, zone),
                    text=message.text,
                    cards=choices_text(message.choices, currency=business.currency),
                )
                for message in messages.order_by("id")
            ],
        }

    @method_decorator(require_POST)
    def hand_back_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        conversation = self.get_object(request, object_id)  # another business's: 404
        if not self.may_reply(request, conversation):
            raise PermissionDenied
        try:
            stage = hand_back_to_assistant(conversation=conversation)
        except InvalidTransition:
            self.message_user(request, "Only a conversation with the team is handed back.")
        else:
            stage_name = stage_label(stage).lower()
            self.message_user(request, f"The assistant answers again (stage: {stage_name}).")
        return redirect("admin:agent_conversation_change", conversation.pk)

    def reply_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        conversation = self.get_object(request, object_id)  # another business's: 404
        if not self.may_reply(request, conversation):
            raise PermissionDenied
        form = StaffReplyForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            staff_reply(
                conversation=conversation, author=request.user, text=form.cleaned_data["text"]
            )
            self.message_user(request, "Your reply is in the conversation.", messages.SUCCESS)
            return redirect("admin:agent_conversation_change", conversation.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "conversation": conversation,
            "form": form,
            "title": f"Reply to {conversation}",
        }
        return TemplateResponse(request, "admin/agent/conversation/reply.html", context)


@dataclass(frozen=True)
class TranscriptLine:
    side: str  # client, assistant or staff
    who: str
    when: str  # in the business's zone
    text: str
    cards: list[str]


def who_wrote(message: Message) -> str:
    if message.role == MessageRole.STAFF:
        author = message.author
        name = (author.get_full_name() or author.get_username()) if author else ""
        return f"{name} (your team)" if name else "Your team"
    return "Client" if message.role == MessageRole.CLIENT else "Assistant"


class StaffReplyForm(forms.Form):
    text = forms.CharField(
        label="Reply as staff",
        widget=forms.Textarea(attrs={"rows": 5, "cols": 40}),
        max_length=STAFF_REPLY_CHARACTERS,
        help_text="The client reads it in the chat as the business's reply.",
    )
