from django.apps import AppConfig


class PagesConfig(AppConfig):
    """What a client sees in a browser: the hosted booking page, the embed that opens it on a
    business's own site, and the client's own appointment page. The pages hold no booking
    logic: they call the public API (``/api/v1/``) as any widget would."""

    name = "pages"
    verbose_name = "Client pages"

    def ready(self) -> None:
        # Connects the receiver that lets a business's embedding sites call the public API.
        from pages.embed import cross_origin  # noqa: F401
