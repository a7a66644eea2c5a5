"""The knowledge base in the dashboard: owners add, edit and remove their sources; staff read.

A source is read while its form is validated, before anything is stored: a document that is
not what its name says, an encrypted PDF or a page that cannot be fetched is refused with the
reason beside the field, and the row keeps its previous input and text (or, new, is never
created). Reading on save and recording a failure instead would store a source the owner has
not seen fail and leave them to find the reason on another page. Saving again only reads the
input again when it changed; the "refetch" action reads the selected sources again on demand
(a web page that changed, or one that failed).
"""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.files.uploadedfile import UploadedFile
from django.utils.html import format_html

from bookings.access import Action
from bookings.admin.scoping import BusinessScopedAdmin
from knowledge.extract import UnreadableSource, cut_at_word
from knowledge.models import MAX_UPLOAD_BYTES, KnowledgeSource, SourceKind
from knowledge.reading import source_text
from knowledge.services import knowledge_source_refresh, knowledge_source_save

PREVIEW_CHARS = 5000
INPUT_OF_KIND: dict[str, str] = {
    SourceKind.TEXT: "body",
    SourceKind.DOCUMENT: "file",
    SourceKind.URL: "url",
}


class KnowledgeSourceForm(forms.ModelForm):
    class Meta:
        model = KnowledgeSource
        fields = ["business", "kind", "title", "is_active", "body", "file", "url"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # What was read from the input while validating; None when the input did not change.
        self.read_text: str | None = None

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if isinstance(upload, UploadedFile) and (upload.size or 0) > MAX_UPLOAD_BYTES:
            raise forms.ValidationError("The file is larger than 10 MB.")
        return upload

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        input_field = INPUT_OF_KIND.get(cleaned.get("kind") or "")
        if input_field is None or self.errors or not self._input_changed():
            return cleaned
        if not cleaned.get(input_field) or any(
            cleaned.get(other) for other in INPUT_OF_KIND.values() if other != input_field
        ):
            return cleaned  # the model's constraint says which input the kind needs
        try:
            self.read_text = source_text(self._probe(cleaned), upload=self._upload(cleaned))
        except UnreadableSource as failure:
            self.add_error(input_field, str(failure))
        return cleaned

    def _input_changed(self) -> bool:
        return self.instance.pk is None or bool(
            {"kind", *INPUT_OF_KIND.values()} & set(self.changed_data)
        )

    def _probe(self, cleaned: dict[str, Any]) -> KnowledgeSource:
        """An unsaved source with the form's input, to read it before anything is stored."""
        probe = KnowledgeSource(
            kind=cleaned["kind"], body=cleaned.get("body") or "", url=cleaned.get("url") or ""
        )
        probe.file = cleaned.get("file") or self.instance.file
        return probe

    @staticmethod
    def _upload(cleaned: dict[str, Any]) -> bytes | None:
        upload = cleaned.get("file")
        if not isinstance(upload, UploadedFile):
            return None
        upload.seek(0)
        content = upload.read()
        upload.seek(0)  # the storage reads it again when the row is saved
        return content


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

    @admin.display(description="characters read")
    def text_length(self, source: KnowledgeSource) -> str:
        return f"{len(source.text):,}"

    @admin.display(description="text read")
    def preview(self, source: KnowledgeSource) -> str:
        if not source.text:
            return "—"
        return format_html(
            '<div style="white-space: pre-wrap; max-height: 30em; overflow: auto;">{}</div>',
            cut_at_word(source.text, PREVIEW_CHARS),
        )

    def save_model(self, request, obj: KnowledgeSource, form, change: bool) -> None:
        knowledge_source_save(source=obj, text=form.read_text)

    @admin.action(description="Fetch and read the selected sources again", permissions=["change"])
    def refetch(self, request, queryset) -> None:
        for source in self.scope(request, queryset, Action.CHANGE):
            result = knowledge_source_refresh(source)
            if result.error:
                self.message_user(request, f"{source.title}: {result.error}", messages.WARNING)
            else:
                self.message_user(
                    request, f"{source.title}: {len(result.source.text):,} characters read."
                )
