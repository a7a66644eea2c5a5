"""Run by test_sqlite_door.py in a fresh interpreter on an embedded SQLite file: eight threads,
each with its own connection, try to book the same slot of a one-chair business at once."""

import datetime as dt
import json
import os
import sys
import threading

import django

os.environ["DJANGO_SETTINGS_MODULE"] = "ordina.settings.local"
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from bookings.demo import seed_demo  # noqa: E402
from bookings.errors import SlotUnavailable  # noqa: E402
from bookings.models import Appointment, Service  # noqa: E402
from bookings.selectors import open_slots_for  # noqa: E402
from bookings.services import ClientDetails, appointment_create  # noqa: E402

call_command("migrate", verbosity=0)
business = seed_demo(today=dt.date.today(), owner_password="x").business  # noqa: DTZ011
business.capacity = 1
business.save()
service = Service.objects.select_related("business").get(business=business, name="Haircut")
now = dt.datetime.now(dt.UTC)
slot = open_slots_for(
    service, first_day=now.date(), last_day=now.date() + dt.timedelta(days=14), now=now
)[0]

barrier = threading.Barrier(8)
outcomes: list[str] = []


def attempt(n: int) -> None:
    barrier.wait()
    try:
        appointment_create(
            service=service, start=slot.start, client=ClientDetails(f"C{n}", f"c{n}@example.com")
        )
        outcomes.append("booked")
    except SlotUnavailable as refusal:
        outcomes.append("taken" if refusal.alternatives else "taken without alternatives")
    except Exception as exc:
        outcomes.append(f"error: {exc!r}")
    finally:
        connection.close()


threads = [threading.Thread(target=attempt, args=(n,)) for n in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
stored = Appointment.objects.filter(starts_at=slot.start).count()
json.dump({"outcomes": sorted(outcomes), "stored": stored}, sys.stdout)
