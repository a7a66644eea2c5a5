"""The WSGI entry point of a served process (gunicorn, uWSGI, mod_wsgi).

It defaults to the production settings, which refuse to start without every secret: a server
started without DJANGO_SETTINGS_MODULE must never run on the local settings, whose signing key
is public. ``manage.py runserver`` also loads this module, with its settings already chosen.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ordina.settings.production")
application = get_wsgi_application()
