"""The assistant in the dashboard: owners decide their agent's grants; owners and staff read
their conversations; owners, staff and Ordina's operators read the audit log and the guards'
rewrites, which nobody edits. The audit log's page sums up what the gates contained."""

from django.contrib import admin
from django.http import HttpRequest

from agent.actions import NEVER_GRANTED
from agent.containment import containment_summary
from agent.models import AgentGrant, AuditEntry, Conversation, GuardRewrite, Message
from bookings.admin.scoping import BusinessScopedAdmin


class ReadOnlyAdmin(BusinessScopedAdmin):
    """Records written only by the shell: browsable, never added, edited or deleted here."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AgentGrant)
class AgentGrantAdmin(BusinessScopedAdmin):
    list_display = ["action", "business", "created_at"]
    list_filter = ["business", "action"]
    fields = ["business", "action"]

    def formfield_for_choice_field(self, db_field, request, **kwargs):
        # Never offered: the database would refuse the grant anyway.
        if db_field.name == "action":
            kwargs["choices"] = [
                choice for choice in db_field.get_choices() if choice[0] not in NEVER_GRANTED
            ]
        return super().formfield_for_choice_field(db_field, request, **kwargs)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
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
            context["containment"] = containment_summary(
                changelist.queryset.select_related(None).only(
                    "result", "stage", "money_moved", "money_contained"
                )
            )
        return response


@admin.register(GuardRewrite)
class GuardRewriteAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "business", "guard", "reason", "before", "after"]
    list_filter = ["business", "guard", "created_at"]
    search_fields = ["conversation", "before"]
    date_hierarchy = "created_at"
    readonly_fields = ["business", "conversation", "guard", "reason", "before", "after"]


class MessageInline(admin.TabularInline):
    model = Message
    fields = ["created_at", "role", "text", "choices"]
    readonly_fields = ["created_at", "role", "text", "choices"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyAdmin):
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
        "model_failures",
        "blocked_turns",
        "last_message_at",
        "created_at",
    ]
    exclude = ["token_hash", "reply_lease_until", "confirm_offered"]
