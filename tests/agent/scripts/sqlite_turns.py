"""Run by test_stable_reads_on_sqlite.py in a fresh interpreter on an embedded SQLite file: the
demo's salon, chatted with through the turn's hand-written read (without its lock clause,
which SQLite has not), its read stamp moved by SQLite's own triggers, its rows written by
bulk_create. Prints one JSON report as its last line."""

import datetime as dt
import json
import os
import re

import django

os.environ["DJANGO_SETTINGS_MODULE"] = "ordina.settings.local"
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from agent import stable_reads  # noqa: E402
from agent.conversation import facts  # noqa: E402
from agent.conversation.row_read import conversation_locked_by_hash  # noqa: E402
from agent.conversation.turns import conversation_start, token_hash, turn_take  # noqa: E402
from agent.models import BusinessStamp, Message  # noqa: E402
from agent.offline.model import OfflineModel  # noqa: E402
from bookings.demo import seed_demo  # noqa: E402
from bookings.models import Service  # noqa: E402

call_command("migrate", verbosity=0)
business = seed_demo(today=dt.date.today(), owner_password="x").business  # noqa: DTZ011
report: dict = {}


def stamp() -> int | None:
    found = BusinessStamp.objects.filter(business_id=business.pk)
    return found.values_list("version", flat=True).first()


with connection.cursor() as cursor:
    cursor.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")
    triggered = {table for (table,) in cursor.fetchall()}
report["untriggered"] = sorted(
    model._meta.db_table
    for model in stable_reads.CACHED_MODELS
    if model._meta.db_table not in triggered
)

haircut = Service.objects.get(business=business, name="Haircut")
moves = {}
for kind, write in {
    "save": lambda: haircut.save(),
    "QuerySet.update": lambda: Service.objects.filter(pk=haircut.pk).update(description="x"),
    "raw SQL": lambda: connection.cursor().execute(
        "UPDATE bookings_service SET description = 'y' WHERE id = %s", [haircut.pk]
    ),
}.items():
    before = stamp()
    write()
    moves[kind] = stamp() not in (None, before)
report["stamp_moves"] = moves

_conversation, token, _greeting = conversation_start(business=business)
turn_take(token=token, text="Hi, I'd like a haircut", model=OfflineModel())
read = conversation_locked_by_hash(token_hash(token))
report["read"] = read is not None and read.business.read_stamp == stamp()

CACHED = {model._meta.db_table for model in stable_reads.CACHED_MODELS}
TABLE = re.compile(r'\b(?:FROM|JOIN)\s+"?(\w+)"?', re.IGNORECASE)
with CaptureQueriesContext(connection) as captured:
    result = turn_take(token=token, text="Is there parking?", model=OfflineModel())
report["cached_tables_read_again"] = sorted(
    {
        table
        for query in captured
        if 'FROM "agent_conversation"' not in query["sql"]
        for table in TABLE.findall(query["sql"])
        if table in CACHED and query["sql"].lstrip().upper().startswith(("SELECT", "("))
    }
)
report["reply_stored"] = (
    result.reply.pk is not None and Message.objects.filter(pk=result.reply.pk).exists()
)

connection.cursor().execute(
    "UPDATE bookings_service SET name = 'Fringe' WHERE id = %s", [haircut.pk]
)
seen = conversation_locked_by_hash(token_hash(token))
assert seen is not None
report["renamed_seen"] = "Fringe" in [s.name for s in facts.active_services(seen.business)]
print(json.dumps(report))
