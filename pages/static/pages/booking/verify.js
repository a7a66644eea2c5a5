// "Already booked with us?": a returning client proves who they are with a one-time code
// emailed to the address they booked with. Two presses of the client's own, never a model's:
// ask for a code for an address, then type it. The answer to the first is the same whether or
// not the address is on file; a right code lets the chat see and change their bookings here,
// which the client then asks for in the chat ("move my appointment").
//
// Every word comes from the page (strings); what the API refuses is told in the page's own
// words for its code, else in the API's.

import { ApiError, NetworkError, api } from "./api.js";
import { fill } from "./dom.js";

export function verifyForm(root, { strings, token, onVerified }) {
  const emailStep = root.querySelector("#verify-email");
  const codeStep = root.querySelector("#verify-code");
  const email = emailStep.elements.namedItem("email");
  const code = codeStep.elements.namedItem("code");
  const status = root.querySelector("#verify-status");
  const error = root.querySelector("#verify-error");
  let busy = false;

  function showError(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  function showStatus(text) {
    status.textContent = text;
  }

  function step(shown) {
    emailStep.hidden = shown !== "email";
    codeStep.hidden = shown !== "code";
  }

  function refusal(failure) {
    if (failure instanceof NetworkError) return strings.offline;
    const body = failure.body || {};
    const refused = strings.verifyRefused;
    if (failure.status === 409 && failure.code === "wrong_code" && body.attempts_left) {
      return fill(refused.wrongCodeTriesLeft, { tries: body.attempts_left });
    }
    if (refused[failure.code]) return refused[failure.code];
    if (failure.status === 404) return strings.gone;
    if (failure.status === 413) return strings.tooLong;
    if (failure.status === 400) {
      return Object.values(body.errors || {}).flat()[0] || body.detail || strings.failed;
    }
    if (failure.status === 429) return strings.tooMany;
    if (failure.status === 409) return strings.conflicts[failure.code] || body.detail;
    return body.detail || strings.failed;
  }

  // One request at a time; its form's buttons are off meanwhile.
  async function send(form, request) {
    if (busy) return null;
    const current = token();
    if (!current) {
      showError(strings.failed);
      return null;
    }
    busy = true;
    showError("");
    const buttons = form.querySelectorAll("button");
    for (const button of buttons) button.disabled = true;
    try {
      return await request(current);
    } catch (failure) {
      if (!(failure instanceof ApiError || failure instanceof NetworkError)) throw failure;
      showError(refusal(failure));
      return null;
    } finally {
      busy = false;
      for (const button of buttons) button.disabled = false;
    }
  }

  emailStep.addEventListener("submit", async (event) => {
    event.preventDefault();
    const address = email.value.trim();
    if (!address) {
      showError(strings.verifyEmailNeeded);
      email.focus();
      return;
    }
    const sent = await send(emailStep, (current) => api.verify(current, address));
    if (!sent) {
      email.focus();
      return;
    }
    showStatus(
      fill(strings.verifySent, {
        email: address,
        digits: 6,
        minutes: Math.round(sent.expires_in / 60),
      }),
    );
    code.value = "";
    step("code");
    code.focus();
  });

  codeStep.addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = code.value.trim();
    if (!typed) {
      showError(strings.verifyCodeNeeded);
      code.focus();
      return;
    }
    const checked = await send(codeStep, (current) => api.verifyCheck(current, typed));
    if (!checked) {
      code.focus();
      return;
    }
    showVerified(fill(strings.verified, { name: checked.name, email: checked.email }));
    onVerified();
  });

  root.querySelector("#verify-restart").addEventListener("click", () => {
    showError("");
    showStatus("");
    step("email");
    email.focus();
  });

  function showVerified(text) {
    step("");
    showError("");
    showStatus(text);
    root.open = true;
  }

  return {
    showVerified,
    // A new conversation knows nobody: back to the first step.
    reset() {
      step("email");
      showError("");
      showStatus("");
      email.value = code.value = "";
      root.open = false;
    },
  };
}
