"""The server settings every PostgreSQL connection of Ordina's opens with."""

# No just-in-time compilation: every query here is short, and compiling one the planner thinks
# large (the dashboard's year of bookings) cost ~0.4 s on its own (docs/decisions/0012).
ALWAYS = ("jit=off",)


def with_server_settings(config: dict, *server_settings: str) -> dict:
    """``config`` (a Django database entry) opening its PostgreSQL sessions with ``ALWAYS``
    and ``server_settings`` (``name=value``); another engine's entry is returned unchanged."""
    if config["ENGINE"] == "django.db.backends.postgresql":
        settings = " ".join(f"-c {setting}" for setting in (*ALWAYS, *server_settings))
        config.setdefault("OPTIONS", {})["options"] = settings
    return config
