"""The ASGI entry point of a served process (uvicorn, daphne).

It defaults to the production settings, which refuse to start without every secret: a server
started without DJANGO_SETTINGS_MODULE must never run on the local settings, whose signing key
is public.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ordina.settings.production")
application = get_asgi_application()
