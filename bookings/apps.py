from django.apps import AppConfig


class BookingsConfig(AppConfig):
    name = "bookings"
    verbose_name = "Bookings"

    def ready(self) -> None:
        from . import checks  # noqa: F401 - registers the start-up checks
