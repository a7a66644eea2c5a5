"""The assistant in the dashboard: owners decide their agent's grants; owners, staff and
Ordina's operators read the audit log, which nobody edits."""

from django.contrib import admin

from agent.actions import NEVER_GRANTED
from agent.models import AgentGrant, AuditEntry
from bookings.admin.scoping import BusinessScopedAdmin


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
class AuditEntryAdmin(BusinessScopedAdmin):
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

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
