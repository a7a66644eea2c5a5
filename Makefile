# The README's two commands: `make demo` (embedded SQLite, nothing else needed) and `make test`
# (real Postgres and Redis). Everything else here serves those two.

VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: capstone venv demo run worker beat test check lint types migrations-check services clean

$(INSTALLED): pyproject.toml
	@test -x $(PY) || "$$(scripts/find-python)" -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $(INSTALLED)

venv: $(INSTALLED)

# The demo starts from a fresh embedded database each time: same salon, same conversations.
DEMO_DB := var/ordina.sqlite3

demo: venv
	@mkdir -p var && rm -f $(DEMO_DB)
	DATABASE_URL= $(PY) manage.py migrate --noinput -v 0
	DATABASE_URL= $(PY) manage.py seed_demo
	DATABASE_URL= $(PY) manage.py demo_chat

run: venv
	$(PY) manage.py runserver

worker: venv
	$(VENV)/bin/celery -A ordina worker --loglevel=INFO

beat: venv
	$(VENV)/bin/celery -A ordina beat --loglevel=INFO

services: venv
	$(PY) scripts/services.py

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

types: venv
	$(VENV)/bin/mypy

migrations-check: venv
	$(PY) manage.py makemigrations --check --dry-run

check: lint types migrations-check

# pytest exits 5 when it collected no tests: that is a failure here, never a pass.
test: services check
	@$(VENV)/bin/pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests; that is a failure." >&2; fi; \
	exit $$rc

clean:
	rm -rf $(VENV) var

# The module's capstone on Ordina: a fresh SQLite database, its world, its twelve proposals.
CAPSTONE_DB := var/capstone.sqlite3

capstone: venv
	@mkdir -p var && rm -f $(CAPSTONE_DB)
	@DATABASE_URL=sqlite:///$(CAPSTONE_DB) $(PY) manage.py migrate --noinput -v 0
	@DATABASE_URL=sqlite:///$(CAPSTONE_DB) $(PY) manage.py capstone
