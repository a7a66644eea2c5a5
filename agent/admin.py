"""The assistant in the dashboard: owners decide their agent's grants; owners and staff read
their conversations and reply in them; owners, staff and Ordina's operators read the audit
log and the guards' rewrites, which nobody edits. The audit log's page sums up what the gates
contained."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.decorators import method_decorator
from django.views.decorators.http import require_POST

from agent.actions import GRANTED_BY_TERMS, NEVER_GRANTED
from agent.containment import containment_summary
from agent.conversation.staff import STAFF_REPLY_CHARACTERS, hand_back_to_assistant, staff_reply
from agent.conversation.states import InvalidTransition
from agent.models import AgentGrant, AuditEntry, Conversation, GuardRewrite, Message
from agent.services import discount_given
from bookings.access import Action
from bookings.admin.scoping import BusinessScopedAdmin, BusinessScopedInline, ReadOnlyScopedAdmin


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
    list_display = ["created_at", "business", "action", "result", "stage", "reason", "money_moved"]
    list_filter = ["business", "action", "result", "stage", "created_at"]
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
        return response


@admin.register(GuardRewrite)
class GuardRewriteAdmin(ReadOnlyScopedAdmin):
    list_display = ["created_at", "business", "guard", "reason", "before", "after"]
    list_filter = ["business", "guard", "created_at"]
    search_fields = ["conversation", "before"]
    date_hierarchy = "created_at"
    readonly_fields = ["business", "conversation", "guard", "reason", "before", "after"]


class MessageInline(BusinessScopedInline, admin.TabularInline):
    """The transcript, shown to whoever may read the conversation (owners and staff of its
    business, Ordina's superusers). What was said is never edited or deleted, by anyone."""

    model = Message
    fields = ["created_at", "role", "author", "text", "choices"]
    readonly_fields = ["created_at", "role", "author", "text", "choices"]
    extra = 0
    can_delete = False

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).select_related("author")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyScopedAdmin):
    list_display = ["created_at", "business", "state", "name", "email", "service", "turns"]
    list_filter = ["business", "state", "created_at"]
    search_fields = ["name", "email", "phone", "public_id"]
    date_hierarchy = "created_at"
    inlines = [MessageInline]
    readonly_fields = [
        "public_id",
        "business",
        "state",
        "service",
        "offered",
        "held_start",
        "held_until",
        "name",
        "email",
        "phone",
        "appointment",
        "escalation_reason",
        "turns",
        "blocked_turns",
        "last_message_at",
        "created_at",
    ]
    exclude = ["token_hash", "reply_lease_until", "confirm_reply"]

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
        conversation = self.get_object(request, object_id)
        extra = {**(extra_context or {}), "may_reply": self.may_reply(request, conversation)}
        return super().change_view(request, object_id, form_url, extra)

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
            stage_name = stage.replace("_", " ")
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


class StaffReplyForm(forms.Form):
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 5, "cols": 80}),
        max_length=STAFF_REPLY_CHARACTERS,
        help_text="The client reads it in the chat as the business's reply.",
    )
