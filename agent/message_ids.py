"""Marking a sentence for the translation catalogue without translating it yet.

Django's ``gettext_noop`` reads the settings even to return its argument unchanged, so a pure
module that marks its sentences at import time (a table of refusals) could not be imported
without settings. This one does the same — returns the message id as is — and needs nothing;
``makemessages`` finds the calls by the name ``gettext_noop`` wherever it is defined."""


def gettext_noop(message: str) -> str:
    return message
