// The conversation as the client reads it: each message as text, with what its reply offers.
// Only the last reply's choices can be pressed (``live``); older ones are history, shown as
// plain text. Nothing from the server is ever parsed as HTML.

import { dayName, el, fill, money, wallTime } from "./dom.js";
import { roving } from "./roving.js";

function author(message, page) {
  const { strings, settings } = page;
  if (message.role === "client") return strings.you;
  if (message.role === "staff") return fill(strings.staff, { business: settings.business });
  return strings.assistant;
}

export function messageElement(message, { live, page }) {
  return el(
    "div",
    { class: `message message--${message.role}`, "data-id": message.id, tabindex: "-1" },
    el("p", { class: "message-author" }, author(message, page)),
    el("p", { class: "message-text" }, message.text),
    choicesElement(message.choices || {}, { live, page }),
  );
}

// A client's message on its way: shown at once, replaced by the stored one when answered.
export function pendingElement(text, page) {
  return el(
    "div",
    { class: "message message--client message--pending" },
    el("p", { class: "message-author" }, page.strings.you),
    el("p", { class: "message-text" }, text),
    el("p", { class: "message-note muted" }, page.strings.sending),
  );
}

export function choicesElement(choices, { live, page }) {
  const box = el("div", { class: "choices" });
  if (choices.services && live) box.append(services(choices.services, live, page));
  if (choices.slots) box.append(slots(choices.slots, live, page));
  if (choices.confirm) box.append(confirmCard(choices.confirm, live, page));
  if (choices.effect) box.append(effectCard(choices.effect, live, page));
  if (choices.payment) box.append(paymentHistory(choices.payment, page));
  if (choices.booked) box.append(bookedHistory(choices.booked, page));
  return box;
}

export function hasControls(choices) {
  return Boolean(choices.services || choices.slots || choices.confirm || choices.effect);
}

function history(label, items) {
  return el("p", { class: "choices-history muted" }, `${label}: ${items.join(" · ")}`);
}

function services(list, live, page) {
  const { strings, settings, act } = page;
  const group = el("div", { class: "choice-buttons", role: "group", "aria-label": strings.services });
  for (const service of list) {
    const details = `${fill(strings.minutes, { minutes: service.minutes })} · ${money(
      service.price,
      settings.currency,
      strings,
    )}`;
    group.append(
      el(
        "button",
        { type: "button", class: "button choice", onclick: () => act.service(service) },
        el("span", {}, service.name),
        el("span", { class: "choice-detail" }, details),
      ),
    );
  }
  return roving(group);
}

// The offered times, by day: "10:00" on each button, the whole label for a screen reader.
export function slotButtons(list, { label, strings, onPress }) {
  const group = el("div", { class: "slot-days", role: "group", "aria-label": label });
  const days = new Map();
  for (const slot of list) {
    const day = slot.start.slice(0, 10);
    if (!days.has(day)) days.set(day, []);
    days.get(day).push(slot);
  }
  for (const [day, daySlots] of days) {
    const buttons = daySlots.map((slot) =>
      el(
        "button",
        {
          type: "button",
          class: "button slot",
          "aria-label": slot.label,
          onclick: (event) => onPress(slot, event.currentTarget),
        },
        wallTime(slot.start),
      ),
    );
    group.append(
      el(
        "div",
        { class: "slot-day" },
        el("p", { class: "slot-day-name" }, dayName(day, strings)),
        el("div", { class: "slot-buttons" }, buttons),
      ),
    );
  }
  return roving(group);
}

function slots(list, live, page) {
  const { strings, act } = page;
  if (!live) return history(strings.timesOffered, list.map((slot) => slot.label));
  return slotButtons(list, {
    label: strings.timesOffered,
    strings,
    onPress: (slot, button) => act.pick(slot, button),
  });
}

function facts(rows) {
  return el(
    "dl",
    {},
    rows.filter(([, value]) => value).map(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]),
  );
}

function confirmCard(card, live, page) {
  const { strings, act } = page;
  const deposit = Number(card.deposit) > 0 ? money(card.deposit, card.currency, strings) : "";
  const rows = facts([
    [strings.service, card.service],
    [strings.when, card.label],
    [strings.price, money(card.price, card.currency, strings)],
    [strings.deposit, deposit && fill(strings.depositNow, { amount: deposit })],
    [strings.name, card.name],
    [strings.email, card.email],
    [strings.phone, card.phone],
  ]);
  if (!live) return el("div", { class: "card card--history" }, rows);
  const button = el(
    "button",
    { type: "button", class: "button button--primary", onclick: (event) => act.confirm(card, event.currentTarget) },
    deposit ? strings.confirmAndPay : strings.confirm,
  );
  const held = card.hold_expires
    ? el("p", { class: "muted" }, fill(strings.heldUntil, { time: wallTime(card.hold_expires) }))
    : null;
  return el(
    "div",
    { class: "card confirm-card", role: "group", "aria-label": strings.checkAndConfirm },
    el("h3", {}, strings.checkAndConfirm),
    rows,
    held,
    el("div", { class: "row" }, button),
  );
}

function effectCard(effect, live, page) {
  const { strings, act } = page;
  const label = el("p", {}, effect.label);
  if (!live) return el("div", { class: "card card--history" }, label);
  const danger = effect.action === "cancel_appointment" ? " button--danger" : "";
  return el(
    "div",
    { class: "card effect-card", role: "group", "aria-label": strings.checkAndConfirm },
    label,
    el(
      "div",
      { class: "row" },
      el(
        "button",
        { type: "button", class: `button${danger}`, onclick: (event) => act.effect(effect, event.currentTarget) },
        effect.button,
      ),
    ),
  );
}

function paymentHistory(payment, page) {
  const { strings } = page;
  const amount = money(payment.amount, payment.currency, strings);
  return el("p", { class: "muted" }, fill(strings.depositAsked, { amount }));
}

function bookedHistory(booked, page) {
  return el("p", { class: "muted" }, fill(page.strings.bookedFor, booked));
}

// The booking made, with what the client can do with it: shown once the conversation is
// confirmed (from the conversation itself, so a deposit paid elsewhere shows it too).
export function bookedCard(booked, page) {
  const { strings, embedded } = page;
  const away = embedded ? { target: "_blank", rel: "noopener" } : {};
  return el(
    "div",
    { class: "card booked-card" },
    facts([
      [strings.service, booked.service],
      [strings.when, booked.label],
      [strings.reference, booked.reference],
    ]),
    el(
      "div",
      { class: "row" },
      el("a", { class: "button", href: booked.calendar_url, download: "appointment.ics" }, strings.addToCalendar),
      el("a", { class: "button", href: booked.manage_url, ...away }, strings.manage),
    ),
  );
}
