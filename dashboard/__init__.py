"""The owners' dashboard pages of the core's models (appointments, the business, services,
clients, hours): an HTTP surface above the shell, registered on the dashboard's admin site
(ordina.admin_site). Every page is tenant-scoped through ``bookings.scoped_admin``."""
