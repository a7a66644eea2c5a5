"""The production storage of static files: whitenoise's compressed, content-hashed copies, with
the imports between the pages' JavaScript modules rewritten to hashed names too.

Without the rewriting, ``main.<hash>.js`` would import ``./api.js`` by its plain name, which is
served with a short cache lifetime and replaced in place by the next release: a browser could
run one release's page script against another release's modules.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
