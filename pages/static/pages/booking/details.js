// The details form: name, email and phone, shown whenever the conversation holds a time and
// waits for them, so a client who clicks never has to type them into the chat. What the
// conversation already has fills the form; what the client is typing is never overwritten.

const FIELDS = ["name", "email", "phone"];

export function detailsForm(form, { strings, onSubmit }) {
  const error = form.querySelector("#details-error");
  const input = (field) => form.elements.namedItem(field);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const given = {};
    for (const field of FIELDS) {
      const value = input(field).value.trim();
      if (value) given[field] = value;
    }
    if (!Object.keys(given).length) {
      showError(strings.detailsNeeded);
      input("name").focus();
      return;
    }
    showError("");
    await onSubmit(given);
  });

  function showError(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  return {
    show(conversation) {
      const wasHidden = form.hidden;
      form.hidden = false;
      for (const field of FIELDS) {
        const box = input(field);
        if (document.activeElement !== box && (wasHidden || !box.value)) {
          box.value = conversation[field] || "";
        }
      }
    },
    hide() {
      form.hidden = true;
      showError("");
    },
    showError,
    focus() {
      const empty = FIELDS.map(input).find((box) => !box.value);
      (empty || input("name")).focus();
    },
  };
}
