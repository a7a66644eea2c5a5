# The README's two commands: `make demo` (embedded SQLite, nothing else needed) and `make test`
# (real Postgres and Redis). Everything else here serves those two.

VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: capstone venv demo run worker beat test check lint types migrations-check services clean messages

# pip's own output (including warnings a machine's pip configuration may add) goes to a log:
# it is shown only when an install fails.
PIP_LOG := var/pip.log

$(INSTALLED): pyproject.toml
	@test -x $(PY) || "$$(scripts/find-python)" -m venv $(VENV)
	@mkdir -p var
	@echo "Installing the pinned dependencies into $(VENV) (pip's output: $(PIP_LOG))"
	@{ $(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip \
	  && $(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'; } \
	  > $(PIP_LOG) 2>&1 \
	  || { cat $(PIP_LOG) >&2; echo "make: installing the dependencies failed; pip's output is above and in $(PIP_LOG)." >&2; exit 1; }
	@touch $(INSTALLED)

venv: $(INSTALLED)

# The demo starts from a fresh embedded database each time: same salon, same conversations,
# same owner password. The password is the demo's only: the demo database lives on this
# machine and `make run` listens on 127.0.0.1. `make demo DEMO_PASSWORD=...` chooses another.
DEMO_DB := var/ordina.sqlite3
DEMO_PASSWORD ?= studio-lumen-demo

demo: venv
	@mkdir -p var && rm -f $(DEMO_DB) && rm -rf var/broker
	DATABASE_URL= $(PY) manage.py migrate --noinput -v 0
	DATABASE_URL= $(PY) manage.py seed_demo --password '$(DEMO_PASSWORD)'
	DATABASE_URL= $(PY) manage.py demo_chat
	@printf '\nSign in to the owner'"'"'s dashboard\n'
	@printf '  make run, then open  http://127.0.0.1:8000/admin/\n'
	@printf '  username             owner\n'
	@printf '  password             %s\n' '$(DEMO_PASSWORD)'
	@printf '  the calendar         http://127.0.0.1:8000/admin/bookings/appointment/calendar/\n'
	@printf '  the booking funnel   http://127.0.0.1:8000/admin/analytics/\n'
	@printf '\nBook as a client (after make run: the server, a worker sending the emails, and beat)\n'
	@printf '  the booking page     http://localhost:8000/b/studio-lumen/\n'
	@printf '  in Spanish           http://localhost:8000/b/clinica-sol/  (owner: clinica, same password)\n'
	@printf '  embedded on a site   http://127.0.0.1:8000/embed-example/\n'

# Development processes on the local settings, named explicitly: the served entry points
# (ordina.wsgi, ordina.asgi, celery -A ordina) default to production.
LOCAL := DJANGO_SETTINGS_MODULE=ordina.settings.local

# The web server, a Celery worker and beat together (Procfile.dev, run by honcho), so
# reminders and codes are sent and holds swept while you try it; Ctrl-C stops all three.
# The Procfile's `python` and `celery` are the virtualenv's: its bin/ leads PATH, made absolute
# since VENV may be given relative (the default) or absolute.
run: venv
	@mkdir -p var
	$(LOCAL) PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/honcho --procfile Procfile.dev start

worker: venv
	$(LOCAL) $(VENV)/bin/celery -A ordina worker --loglevel=INFO

beat: venv
	$(LOCAL) $(VENV)/bin/celery -A ordina beat --loglevel=INFO

services: venv
	$(PY) scripts/services.py

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

types: venv
	$(VENV)/bin/mypy

migrations-check: venv
	$(PY) manage.py makemigrations --check --dry-run

check: lint types migrations-check

# pytest exits 5 when it collected no tests: that is a failure here, never a pass. The suite
# runs on every core (pytest-xdist; each worker has its own test database); PYTEST_WORKERS=0
# runs it in one process.
PYTEST_WORKERS ?= auto
test: services check
	@$(VENV)/bin/pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests; that is a failure." >&2; fi; \
	exit $$rc

clean:
	rm -rf $(VENV) var node_modules

# The Spanish catalogues. Each app's strings, and those of its templates kept in templates/, are
# gathered into <app>/locale/es/LC_MESSAGES/django.po (new ones untranslated, changed ones fuzzy:
# both refused by tests/test_catalogues.py until translated) and compiled to the django.mo
# committed beside it, so `make demo` needs no gettext tools. makemessages reads one folder, so
# each catalogue's sources are linked into one for it. Needs GNU gettext (xgettext, msgmerge,
# msgfmt). MESSAGES_CATALOGUES: each app, then its sources outside its folder, ':'-separated.
MESSAGES_CATALOGUES := agent bookings payments pages:templates/pages \
	reminders:templates/reminders:templates/agent/verification_code.txt
MESSAGES_LANGUAGES ?= es

messages: venv
	@set -e; for entry in $(MESSAGES_CATALOGUES); do \
	  app=$${entry%%:*}; outside=$$(echo "$${entry#$$app}" | tr ':' ' '); \
	  sources=$$(mktemp -d); \
	  ln -s "$(CURDIR)/$$app" "$$sources/$$app"; ln -s "$(CURDIR)/$$app/locale" "$$sources/locale"; \
	  for source in $$outside; do mkdir -p "$$sources/$$(dirname $$source)"; \
	    ln -s "$(CURDIR)/$$source" "$$sources/$$source"; done; \
	  echo "make messages: $$app"; \
	  for language in $(MESSAGES_LANGUAGES); do \
	    (cd "$$sources" && "$(CURDIR)/$(PY)" "$(CURDIR)/manage.py" makemessages \
	      --locale $$language --symlinks --ignore "$$app/locale" --add-location file \
	      --no-obsolete --verbosity 0); \
	    (cd "$(CURDIR)/$$app" && "$(CURDIR)/$(PY)" "$(CURDIR)/manage.py" compilemessages \
	      --locale $$language --verbosity 0); \
	  done; rm -r "$$sources"; done

# The module's capstone on Ordina: a fresh SQLite database, its world, its twelve proposals.
CAPSTONE_DB := var/capstone.sqlite3

capstone: venv
	@mkdir -p var && rm -f $(CAPSTONE_DB)
	@DATABASE_URL=sqlite:///$(CAPSTONE_DB) $(PY) manage.py migrate --noinput -v 0
	@DATABASE_URL=sqlite:///$(CAPSTONE_DB) $(PY) manage.py capstone
