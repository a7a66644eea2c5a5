"""The knowledge base in the dashboard: owners add, edit and remove their sources; staff read.

The form checks only what is cheap, before anything is stored: text written here is read at
once (it cannot expand, so an empty one is refused beside the field); an upload must be at
most 10 MB, carry a readable extension and begin as its format does (a PDF named .docx, an old
.doc, a binary .txt are refused beside the field, the row keeping its previous input and text).
Unpacking, parsing and fetching happen in a worker (``knowledge.tasks``): the source is saved
as "Reading…" and the list and the change page show, once the worker is done, "Ready" and what
was read, or "Could not be read" and why. Saving again reads the input again only when it
changed; the "refetch" action asks for the selected sources to be read again (a web page that
changed, or one that failed).
"""

from pathlib import PurePosixPath
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.core.files.uploadedfile import UploadedFile
from django.db.models.functions import Length
from django.utils.html import format_html

from bookings.access import Action
from bookings.scoped_admin import BusinessScopedAdmin
from knowledge.extract import HEAD_BYTES, UnreadableSource, cut_at_word, finished, upload_format
from knowledge.models import MAX_UPLOAD_BYTES, KnowledgeSource, SourceKind, SourceStatus
from knowledge.services import knowledge_source_read_again, knowledge_source_save

PREVIEW_CHARS = 5000
READING_NOTE = (
    "being read. Its status shows “Reading…” until it is ready, or says why it could not be read."
)
INPUT_OF_KIND: dict[str, str] = {
    SourceKind.TEXT: "body",
    SourceKind.DOCUMENT: "file",
    SourceKind.URL: "url",
}


class KnowledgeSourceForm(forms.ModelForm):
    class Meta:
        model = KnowledgeSource
        fields = ["business", "kind", "title", "is_active", "body", "file", "url"]

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if isinstance(upload, UploadedFile) and (upload.size or 0) > MAX_UPLOAD_BYTES:
            raise forms.ValidationError("The file is larger than 10 MB.")
        return upload

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        kind = cleaned.get("kind") or ""
        input_field = INPUT_OF_KIND.get(kind)
        if input_field is None or self.errors or not self.input_changed():
            return cleaned
        if not cleaned.get(input_field) or any(
            cleaned.get(other) for other in INPUT_OF_KIND.values() if other != input_field
        ):
            return cleaned  # the model's constraint says which input the kind needs
        try:
            if kind == SourceKind.TEXT:
                finished(cleaned["body"])
            elif isinstance(upload := cleaned["file"], UploadedFile):
                upload_format(_head(upload), extension=PurePosixPath(upload.name or "").suffix)
        except UnreadableSource as failure:
            self.add_error(input_field, str(failure))
        return cleaned

    def input_changed(self) -> bool:
        """Whether what the source is read from changed (always, for a new source)."""
        return self.instance.pk is None or bool(
            {"kind", *INPUT_OF_KIND.values()} & set(self.changed_data)
        )


def _head(upload: UploadedFile) -> bytes:
    upload.seek(0)
    head = upload.read(HEAD_BYTES)
    upload.seek(0)  # the storage reads it from the start when the row is saved
    return head


class KnowledgeSourceList(ChangeList):
    """The list says how much of each source was read, never what: the text read from a long
    document runs to megabytes, and a page of sources would fetch all of it only to count its
    characters (counted in SQL instead, ``KnowledgeSourceAdmin.get_queryset``)."""

    def get_queryset(self, request, exclude_parameters=None):
        return super().get_queryset(request, exclude_parameters).defer("text", "body")


@admin.register(KnowledgeSource)
class KnowledgeSourceAdmin(BusinessScopedAdmin):
    form = KnowledgeSourceForm
    list_display = ["title", "business", "kind", "is_active", "status", "text_length", "error"]
    list_filter = ["business", "kind", "status", "is_active"]
    search_fields = ["title", "url", "text"]
    readonly_fields = ["status", "error", "fetched_at", "text_length", "preview"]
    fieldsets = [
        (None, {"fields": ["business", "kind", "title", "is_active"]}),
        (
            "Input (fill in the one the kind names)",
            {"fields": ["body", "file", "url"]},
        ),
        (
            "What the assistant reads",
            {"fields": ["status", "error", "fetched_at", "text_length", "preview"]},
        ),
    ]
    actions = ["refetch"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(characters_read=Length("text"))

    def get_changelist(self, request, **kwargs):
        return KnowledgeSourceList

    @admin.display(description="characters read")
    def text_length(self, source: KnowledgeSource) -> str:
        # A row read through get_queryset carries its count; a new, unsaved one has no text.
        characters = getattr(source, "characters_read", None)
        return f"{len(source.text) if characters is None else characters:,}"

    @admin.display(description="text read")
    def preview(self, source: KnowledgeSource) -> str:
        if not source.text:
            return "—"
        return format_html(
            '<div class="text-read">{}</div>',  # styled in templates/admin/base_site.html
            cut_at_word(source.text, PREVIEW_CHARS),
        )

    def save_model(self, request, obj: KnowledgeSource, form, change: bool) -> None:
        knowledge_source_save(source=obj, input_changed=form.input_changed())
        if obj.status == SourceStatus.READING:
            self.message_user(request, f"{obj.title}: {READING_NOTE}")

    @admin.action(description="Fetch and read the selected sources again", permissions=["change"])
    def refetch(self, request, queryset) -> None:
        # The list's rows come without their input and text (KnowledgeSourceList): reading
        # again needs both, fetched here with the rows rather than one row at a time.
        for source in self.scope(request, queryset, Action.CHANGE).defer(None):
            source = knowledge_source_read_again(source=source)
            if source.status == SourceStatus.READING:
                self.message_user(request, f"{source.title}: {READING_NOTE}")
            elif source.status == SourceStatus.FAILED:
                self.message_user(request, f"{source.title}: {source.error}", messages.WARNING)
            else:
                self.message_user(request, f"{source.title}: {len(source.text):,} characters read.")
