from django.db import models


class TimeStampedModel(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


def money_field(verbose_name: str, **kwargs) -> models.DecimalField:
    """Amounts in the business's currency, to the cent: Decimal, never float."""
    return models.DecimalField(verbose_name, max_digits=10, decimal_places=2, **kwargs)
