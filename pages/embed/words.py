"""The widget's words in every language the product speaks, for the server to write into
``widget.js`` as it serves it: the script keeps no words of its own. It runs on the
business's site, before anything of ours is loaded, so it picks among them by the site's own
language (its ``data-lang``, else the page's ``<html lang>``), not by the business's."""

from django.conf import settings
from django.utils import translation
from django.utils.translation import pgettext


def widget_words() -> dict[str, dict[str, str]]:
    words = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            words[language] = {
                "open": pgettext("the widget's button on a business's site", "Book an appointment"),
                "close": pgettext("the widget's button that closes its dialog", "Close"),
            }
    return words
