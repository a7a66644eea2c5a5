"""The columns that record who did something: a typed actor (``bookings.actors``) as a kind and,
for people, their user account. Shared by the appointment history and by refunds."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from bookings.actors import PEOPLE, Actor, ActorKind, actor_label


class ActedBy(models.Model):
    """Abstract: ``actor_kind`` and ``actor_user``, read and written as one ``Actor``.

    The user is kept from deletion (PROTECT): a record that names a person keeps naming them.
    Deactivate an account that has acted instead of deleting it.
    """

    actor_kind = models.CharField("actor", max_length=20, choices=ActorKind.choices)
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The person who acted, for an owner, staff member or Ordina operator.",
    )

    class Meta:
        abstract = True
        constraints = [
            models.CheckConstraint(
                condition=Q(actor_kind__in=ActorKind.values),
                name="%(app_label)s_%(class)s_actor_kind_known",
                violation_error_message="Unknown kind of actor.",
            ),
            models.CheckConstraint(
                condition=Q(actor_user__isnull=True) | Q(actor_kind__in=sorted(PEOPLE)),
                name="%(app_label)s_%(class)s_actor_user_only_for_people",
                violation_error_message="Only a person (owner, staff, operator) has a user.",
            ),
        ]

    @property
    def actor(self) -> Actor:
        return Actor(ActorKind(self.actor_kind), self.actor_user_id)

    @actor.setter
    def actor(self, actor: Actor) -> None:
        # Model(actor=...) and objects.create(actor=...) set it through here.
        if not isinstance(actor, Actor):
            raise TypeError(f"An actor is a bookings.actors.Actor, not {type(actor).__name__}.")
        self.actor_kind, self.actor_user_id = actor.kind, actor.user_id

    @property
    def actor_display(self) -> str:
        """How the dashboard shows the actor: "Staff: maria", "The assistant", "Stripe"."""
        user = self.actor_user if self.actor_user_id else None
        return actor_label(self.actor_kind, user.get_username() if user else None)
