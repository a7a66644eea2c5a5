// The hosted booking page: the conversation with the business's assistant, kept in step with
// the server. Every fact shown (the stage, the times, the booking) is read from the API; the
// page decides only what to show of it and where focus goes.
//
// One request at a time talks to the conversation: a press or a message (a "turn"), or a poll
// for what is new (staff replies while a person has it, the deposit being paid). After each
// turn the page reads back what is new since the last message it has, so the transcript is
// exactly the stored one.

import { ApiError, NetworkError, api } from "./api.js";
import { detailsForm } from "./details.js";
import { el, fill, money, wallTime } from "./dom.js";
import { picker } from "./picker.js";
import { showProgress } from "./progress.js";
import { forget, idempotencyKey, keepToken, savedToken, takeHandedOver } from "./store.js";
import { bookedCard, choicesElement, messageElement, pendingElement } from "./transcript.js";
import { verifyForm } from "./verify.js";

const data = (id) => JSON.parse(document.getElementById(id).textContent);
const settings = data("booking-settings");
const strings = data("booking-strings");
const slug = settings.slug;

const log = document.getElementById("log");
const panel = document.getElementById("state-panel");
const notice = document.getElementById("notice");
const progress = document.getElementById("progress");
const composer = document.getElementById("composer");
const typed = composer.elements.namedItem("text");
const composerError = document.getElementById("composer-error");
const startOver = document.getElementById("start-over");
const startOverAsk = document.getElementById("start-over-ask");

// How often to ask what is new, by stage: a person's reply, a deposit being paid (the webhook
// usually lands within seconds of the client's return from Stripe).
const POLL_SECONDS = { escalated: 3, awaiting_payment: 2 };

let token = null;
let conversation = null;
let lastId = 0; // the newest message shown
let live = null; // the one reply whose choices can be pressed: { message, element }
let payment = null; // the latest deposit link offered
let busy = false;
let polling = null; // the poll in flight, if any
let pollTimer = null;
let panelShown = "";
// Where Stripe Checkout sent the client back from: "returned" or "cancelled". Only a
// confirmed conversation says the deposit was paid; this only picks the words meanwhile.
let paymentReturn = new URLSearchParams(window.location.search).get("payment");

const page = {
  settings,
  strings,
  embedded: window.self !== window.top,
  act: {
    service: (service) => turn(() => api.say(token, service.name), {}),
    pick: (slot, button) => turn(() => api.pick(token, slot.id), { button }),
    confirm: (card, button) =>
      turn(() => api.confirm(token, card.card, idempotencyKey(slug, token, card.card)), { button }),
    effect: (effect, button) =>
      turn(() => api.confirm(token, effect.card, idempotencyKey(slug, token, effect.card)), {
        button,
      }),
  },
};

const details = detailsForm(document.getElementById("details"), {
  strings,
  onSubmit: (given) => turn(() => api.details(token, given), { origin: "details" }),
});

// Verified, the chat may see and change the client's bookings: they now ask for it by writing.
const verify = verifyForm(document.getElementById("verify"), {
  strings,
  token: () => token,
  onVerified: () => typed.focus(),
});

// --- talking to the conversation -------------------------------------------------------------

async function turn(request, { button = null, text = null, origin = "press" } = {}) {
  if (busy || !token) return false;
  busy = true;
  stopPolling();
  if (polling) await polling;
  setBusy(true);
  if (button) button.disabled = true;
  say(notice, "");
  const pending = text === null ? null : log.appendChild(pendingElement(text, page));
  pending?.scrollIntoView({ block: "nearest" });
  let fresh = null;
  try {
    fresh = await catchUp(await request());
  } catch (error) {
    if (error instanceof ApiError && error.body.reply) {
      // A refused press is still a turn: its reply says why and what can be done instead.
      fresh = await catchUp(error.body);
      if (error.status === 503) say(notice, strings.paymentsUnavailable);
    } else {
      failed(error, origin);
    }
  } finally {
    pending?.remove();
    busy = false;
    setBusy(false);
    if (button?.isConnected) button.disabled = false;
  }
  if (fresh === null) {
    if (button?.isConnected) button.focus();
    return false;
  }
  update();
  moveFocus(fresh, origin);
  return true;
}

// What is new since the last message shown, as stored; the turn's own answer if the read fails.
async function catchUp(answer) {
  try {
    const read = await api.read(token, lastId);
    return receive(read.messages, read);
  } catch {
    return receive(answer.reply ? [answer.reply] : [], answer.conversation);
  }
}

function receive(messages, row) {
  const fresh = messages.filter((message) => message.id > lastId);
  const newestReply = fresh.findLast((message) => message.role === "assistant");
  for (const message of fresh) {
    const isLive = message === newestReply;
    if (isLive) demote();
    const element = messageElement(message, { live: isLive, page });
    log.append(element);
    if (isLive) live = { message, element };
    if (message.choices?.payment) payment = message.choices.payment;
    lastId = Math.max(lastId, message.id);
  }
  if (row) conversation = row;
  if (fresh.length) log.lastElementChild.scrollIntoView({ block: "nearest" });
  return fresh;
}

// The choices of an older reply are history: shown, no longer pressed.
function demote() {
  if (!live) return;
  const history = choicesElement(live.message.choices || {}, { live: false, page });
  live.element.querySelector(".choices").replaceWith(history);
  live = null;
}

function failed(error, origin) {
  let text = strings.failed;
  if (error instanceof NetworkError) text = strings.offline;
  else if (error.status === 413) text = strings.tooLong;
  else if (error.status === 400) {
    const errors = Object.values(error.body.errors || {}).flat();
    text = errors[0] || error.body.detail || strings.failed;
  } else if (error.status === 404) text = strings.gone;
  else if (error.status === 429) text = strings.tooMany;
  else if (error.status === 409) {
    text = strings.conflicts[error.code] || error.body.detail || strings.failed;
    if (error.code === "already_booked") catchUp({}).then(update);
  }
  if (origin === "composer") say(composerError, text);
  else if (origin === "details") details.showError(text);
  else say(notice, text);
}

// --- what the page shows of the conversation --------------------------------------------------

function update() {
  if (!conversation) return;
  showProgress(progress, conversation, { settings, strings });
  if (conversation.state === "slot_held") details.show(conversation);
  else details.hide();
  showPanel();
  schedulePoll();
}

// What the stage itself says, beside the transcript: the deposit to pay (or being confirmed),
// the booking once confirmed, a person having the conversation, or its end. Redrawn only when
// it changes, so a poll does not announce the same words again.
function showPanel() {
  const { state, booked } = conversation;
  const shown = [state, paymentReturn, payment?.url, booked?.label, booked?.status].join("|");
  if (shown === panelShown) return;
  panelShown = shown;
  const parts = [];
  if (state === "awaiting_payment") {
    if (paymentReturn === "returned") {
      parts.push(noticeElement(strings.waitingForPayment, "warning", "status"));
    } else {
      if (paymentReturn === "cancelled") {
        parts.push(noticeElement(strings.paymentCancelled, "warning", "status"));
      }
      if (payment) parts.push(depositCard(payment));
    }
  } else if (state === "confirmed" && booked) {
    parts.push(
      el(
        "h2",
        { id: "booked-title", class: "panel-title", tabindex: "-1" },
        strings.bookingConfirmed,
      ),
      bookedCard(booked, page),
    );
  } else if (state === "escalated") {
    parts.push(noticeElement(strings.escalated, "", "status"));
  } else if (state === "cancelled") {
    parts.push(noticeElement(strings.cancelled, "", "status"));
  } else if (state === "expired") {
    parts.push(noticeElement(strings.expired, "warning", "status"));
  }
  panel.replaceChildren(...parts);
}

function noticeElement(text, kind, role) {
  return el("p", { class: `notice${kind ? ` notice--${kind}` : ""}`, role }, text);
}

function depositCard(due) {
  const amount = money(due.amount, due.currency, strings);
  const away = page.embedded ? { target: "_blank", rel: "noopener" } : {};
  return el(
    "div",
    { class: "card deposit-card" },
    el("h2", { id: "deposit-title", class: "panel-title", tabindex: "-1" }, strings.depositTitle),
    el("p", {}, fill(strings.depositDue, { amount })),
    due.expires_at
      ? el("p", { class: "muted" }, fill(strings.payBy, { time: wallTime(due.expires_at) }))
      : null,
    el("a", { class: "button button--primary", href: due.url, ...away }, strings.payDeposit),
  );
}

function moveFocus(fresh, origin) {
  if (origin === "composer") return; // the client is typing: the log announces the reply
  if (conversation.state === "slot_held") {
    details.focus();
    return;
  }
  const title = panel.querySelector(".panel-title");
  if (title) {
    title.focus();
    return;
  }
  const newest = live && fresh.includes(live.message) ? live.element : log.lastElementChild;
  newest?.focus();
}

function setBusy(on) {
  log.setAttribute("aria-busy", String(on));
  for (const button of document.querySelectorAll("#composer button, #details button")) {
    button.disabled = on;
  }
}

function say(element, text) {
  element.textContent = text;
  element.hidden = !text;
}

// --- polling: a person's replies, a deposit paid ----------------------------------------------

function schedulePoll() {
  stopPolling();
  const seconds = POLL_SECONDS[conversation?.state];
  if (seconds && !busy) pollTimer = setTimeout(poll, seconds * 1000);
}

function stopPolling() {
  clearTimeout(pollTimer);
  pollTimer = null;
}

async function poll() {
  if (busy || !token) return;
  polling = api
    .read(token, lastId)
    .then((read) => {
      if (!busy) receive(read.messages, read);
    })
    .catch(() => {
      // Offline for a moment: the next poll asks again.
    });
  await polling;
  polling = null;
  if (!busy) update();
}

// --- starting, resuming, starting over --------------------------------------------------------

async function boot() {
  say(notice, "");
  if (takeHandedOver(slug)) verify.showVerified(strings.verifiedByLink);
  token = savedToken(slug);
  if (token) {
    try {
      const read = await api.read(token);
      receive(read.messages, read);
      update();
      return;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) return bootFailed(error);
      forget(slug); // unknown or expired: a new conversation, without a word
      token = null;
      verify.reset();
    }
  }
  if (paymentReturn) say(notice, strings.paidElsewhere);
  try {
    const started = await api.start(slug);
    token = started.token;
    keepToken(slug, token);
    receive([started.reply], started.conversation);
    update();
  } catch (error) {
    bootFailed(error);
  }
}

function bootFailed(error) {
  const text = error instanceof NetworkError ? strings.offline : strings.failed;
  notice.replaceChildren(
    el("span", {}, text, " "),
    el("button", { type: "button", class: "button", onclick: boot }, strings.tryAgain),
  );
  notice.hidden = false;
}

function reset() {
  stopPolling();
  forget(slug);
  token = conversation = live = payment = null;
  lastId = 0;
  panelShown = "";
  paymentReturn = null;
  window.history.replaceState(null, "", window.location.pathname);
  log.replaceChildren();
  panel.replaceChildren();
  details.hide();
  verify.reset();
  say(notice, "");
  say(composerError, "");
}

startOver.addEventListener("click", () => {
  startOverAsk.hidden = false;
  document.getElementById("start-over-keep").focus();
});
document.getElementById("start-over-keep").addEventListener("click", () => {
  startOverAsk.hidden = true;
  startOver.focus();
});
document.getElementById("start-over-yes").addEventListener("click", async () => {
  if (busy) return;
  startOverAsk.hidden = true;
  reset();
  await boot();
  log.lastElementChild?.focus();
});

composer.addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = typed.value.trim();
  if (!text) {
    say(composerError, strings.typeSomething);
    return;
  }
  say(composerError, "");
  const answered = await turn(() => api.say(token, text), { text, origin: "composer" });
  if (answered && typed.value.trim() === text) typed.value = "";
});

const pickTimes = document.getElementById("picker");
if (pickTimes?.querySelector("#picker-service")) {
  picker(pickTimes, {
    settings,
    strings,
    onPick: (service, start) => turn(() => api.hold(token, service, start), { origin: "picker" }),
  });
}

boot();
