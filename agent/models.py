"""The assistant's tables: what each business's agent may propose (its grants), the references
clients and the model use for appointments, and the append-only audit log of every proposal."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q

from agent.actions import MENU, NEVER_GRANTED
from bookings.models import Appointment, Business
from bookings.models.base import TimeStampedModel, money_field

ACTION_CHOICES = [(name, name.replace("_", " ")) for name in MENU]


class AgentGrant(TimeStampedModel):
    """One command this business's agent may propose. No row, no capability."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="agent_grants")
    action = models.CharField(max_length=40, choices=ACTION_CHOICES)

    class Meta:
        ordering = ["business", "action"]
        constraints = [
            models.UniqueConstraint(
                fields=["business", "action"],
                name="agent_grant_unique_action",
                violation_error_message="This action is already granted.",
            ),
            models.CheckConstraint(
                condition=~Q(action__in=sorted(NEVER_GRANTED)),
                name="agent_grant_never_dangerous",
                violation_error_message="A booking agent is never granted this action.",
            ),
        ]

    def __str__(self) -> str:
        return self.action


class AppointmentReference(models.Model):
    """A human reference for an appointment ("A-1001"), as clients and the model name it."""

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="+")
    appointment = models.OneToOneField(
        Appointment, on_delete=models.CASCADE, related_name="reference"
    )
    reference = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["business", "reference"], name="appointment_reference_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.reference


class AuditResult(models.TextChoices):
    EXECUTE = "EXECUTE", "Executed"
    BLOCK = "BLOCK", "Blocked"


class AuditStage(models.TextChoices):
    STRUCTURE = "STRUCTURE", "Structure"
    CAPABILITY = "CAPABILITY", "Capability"
    POLICY = "POLICY", "Policy"


class AuditEntry(models.Model):
    """Every proposal the agent made, what the gates said and what moved. Append-only: the
    model refuses updates and deletes, and a database trigger refuses them for any writer."""

    business_path = "business"
    append_only = True

    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="+")
    conversation = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    proposal = models.JSONField(encoder=DjangoJSONEncoder, help_text="As the model proposed it.")
    action = models.CharField(max_length=64, blank=True, help_text="Blank for free text.")
    result = models.CharField(max_length=10, choices=AuditResult.choices)
    stage = models.CharField(max_length=10, choices=AuditStage.choices, blank=True)
    reason = models.TextField()
    money_moved = money_field("money moved", default=Decimal("0"))
    money_contained = money_field("money contained", default=Decimal("0"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name_plural = "audit entries"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["business", "created_at"], name="audit_by_business")]
        constraints = [
            models.CheckConstraint(
                condition=Q(money_moved__gte=0, money_contained__gte=0),
                name="audit_money_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(result=AuditResult.EXECUTE, stage="", money_contained=0)
                | Q(result=AuditResult.BLOCK, money_moved=0),
                name="audit_result_consistent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action or '(free text)'}: {self.result}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValidationError("The audit log is append-only; add a new entry instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError("The audit log is append-only; entries are never deleted.")
