"""Make the agent's audit log append-only in the database itself (ordina/append_only.py)."""

from django.db import migrations

from ordina.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("agent", "0001_initial")]
    operations = [
        append_only(
            "agent_auditentry", name="agent_audit", message="agent audit log is append-only"
        )
    ]
