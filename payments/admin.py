"""Payments in the dashboard: owners see their business's deposits and refunds and refund
through the policy; operators browse every webhook event read-only. Nothing here edits a
payment's state by hand."""

from django.contrib import admin, messages
from django.contrib.admin.options import ActionLocation

from bookings.access import Action
from bookings.dashboard_acting import dashboard_actor
from bookings.scoped_admin import ReadOnlyScopedAdmin
from payments import stripe_api
from payments.models import Payment, Refund, WebhookEvent
from payments.services import RefundRefused, refund_issue


@admin.register(Payment)
class PaymentAdmin(ReadOnlyScopedAdmin):
    list_display = ["appointment", "amount", "currency", "status", "amount_refunded", "created_at"]
    list_filter = ["status", "business"]
    list_select_related = ["appointment__business", "appointment__service", "appointment__client"]
    search_fields = ["appointment__public_id", "checkout_session_id", "payment_intent_id"]
    actions = ["refund_in_full"]

    def get_actions(self, request, action_location=ActionLocation.CHANGE_LIST):
        # Django 6.1 finds ``action_location`` by name; without it, it warns and offers no
        # action on the change form.
        actions = super().get_actions(request, action_location)
        # Refunding is a change of money: offered to those who may change payments' rows
        # (owners), checked again per row by the refund policy.
        if not self.tenant_allows(request, Action.CHANGE) and "refund_in_full" in actions:
            del actions["refund_in_full"]
        return actions

    @admin.action(description="Refund what is left of the selected deposits")
    def refund_in_full(self, request, queryset) -> None:
        for payment in self.scope(request, queryset, Action.CHANGE).select_related(
            "appointment__business", "appointment__service", "appointment__client"
        ):
            # Nothing left asks for zero; the policy then says why (already fully refunded).
            amount = payment.refundable
            try:
                refund_issue(
                    appointment=payment.appointment,
                    amount=amount,
                    actor=dashboard_actor(request, payment.business_id),
                    reason="refunded by the owner in the dashboard",
                )
            except RefundRefused as refusal:
                self.message_user(
                    request,
                    f"Deposit for {payment.appointment}: {refusal.reason}",
                    messages.WARNING,
                )
            except stripe_api.StripeUnavailable as outage:
                self.message_user(
                    request, f"Deposit for {payment.appointment}: {outage}", messages.ERROR
                )
            else:
                self.message_user(
                    request,
                    f"Refunded {amount} {payment.currency} of the deposit for "
                    f"{payment.appointment}.",
                    messages.SUCCESS,
                )


@admin.register(Refund)
class RefundAdmin(ReadOnlyScopedAdmin):
    list_display = ["payment", "amount", "acted_by", "reason", "created_at"]
    list_filter = ["business", "actor_kind"]
    list_select_related = ["payment", "actor_user"]
    search_fields = ["stripe_refund_id", "reason"]

    @admin.display(description="by", ordering="actor_kind")
    def acted_by(self, refund: Refund) -> str:
        return refund.actor_display


@admin.register(WebhookEvent)
class WebhookEventAdmin(admin.ModelAdmin):
    """Operators' view of every Stripe delivery; read-only for everyone."""

    list_display = ["received_at", "type", "stripe_event_id", "outcome", "payment"]
    list_filter = ["outcome", "type", "livemode"]
    search_fields = ["stripe_event_id", "type"]
    date_hierarchy = "received_at"

    def _may_view(self, request) -> bool:
        from bookings.scoped_admin import staff_user, tenant_access

        if not staff_user(request):
            return False
        return request.user.is_superuser or tenant_access(request).is_operator

    def has_module_permission(self, request) -> bool:
        return self._may_view(request)

    def has_view_permission(self, request, obj=None) -> bool:
        return self._may_view(request)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
