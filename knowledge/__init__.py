"""A business's knowledge base: text, documents and web pages the owner gives the assistant to
talk from. Never authority for a time, a price or a confirmation — the booking core is.

``extract``, ``read_limits`` and ``budget`` are pure; ``reading`` fetches and reads;
``services`` writes; ``tasks`` has documents and pages read by a worker, never in a request;
``selectors`` reads what a prompt may include.
"""
