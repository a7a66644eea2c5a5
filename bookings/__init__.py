"""The deterministic core's booking domain: businesses, their calendars, services, clients and
appointments. Every booking fact is decided here, never by the agentic shell."""
