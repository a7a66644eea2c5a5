// Where the client is: service → time → details → deposit → confirmed, from the stage the
// conversation is in (the server's word, never the page's guess). The current step carries
// aria-current="step" and its words say so; the deposit step shows only when a deposit is due.

const STEP_OF_STATE = {
  greeting: "service",
  service_chosen: "time",
  slot_offered: "time",
  slot_held: "details",
  details_collected: "details",
  awaiting_payment: "deposit",
  confirmed: "confirmed",
};

// A conversation a person has taken over (or one that ended) is still somewhere in its
// booking: its facts say where.
function stepOf(conversation) {
  const step = STEP_OF_STATE[conversation.state];
  if (step) return step;
  if (conversation.state !== "escalated") return null;
  const status = conversation.appointment_status;
  if (["confirmed", "attended", "no_show"].includes(status)) return "confirmed";
  if (status === "pending_payment") return "deposit";
  if (conversation.held_start) return "details";
  return conversation.service ? "time" : "service";
}

function depositDue(conversation, settings) {
  if (conversation.state === "awaiting_payment") return true;
  const services = settings.services;
  const chosen = services.find((service) => service.name === conversation.service);
  if (chosen) return Number(chosen.deposit) > 0;
  return services.some((service) => Number(service.deposit) > 0);
}

export function showProgress(list, conversation, { settings, strings }) {
  const current = stepOf(conversation);
  const showDeposit = depositDue(conversation, settings);
  const steps = [...list.querySelectorAll("[data-step]")];
  const shown = steps.filter((item) => item.dataset.step !== "deposit" || showDeposit);
  const at = shown.findIndex((item) => item.dataset.step === current);
  for (const item of steps) {
    const index = shown.indexOf(item);
    item.hidden = index < 0;
    const state = index < 0 || at < 0 ? "" : index < at ? "done" : index === at ? "current" : "";
    item.classList.toggle("is-done", state === "done");
    item.classList.toggle("is-current", state === "current");
    if (state === "current") item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
    item.querySelector(".progress-number").textContent = state === "done" ? "✓" : String(index + 1);
    item.querySelector(".progress-state").textContent =
      state === "done" ? strings.stepDone : state === "current" ? strings.stepCurrent : "";
  }
}
