// "Pick a time": for those who would rather click than chat. A service, a day that has
// openings, an open time from the availability API; pressing the time holds it in the same
// conversation (POST /hold/), which then goes on as the chat does: details, then Confirm.

import { api } from "./api.js";
import { dayName, el, fill, wallTime } from "./dom.js";
import { roving } from "./roving.js";

function addDays(day, count) {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date + count)).toISOString().slice(0, 10);
}

export function picker(root, { settings, strings, onPick }) {
  const service = root.querySelector("#picker-service");
  const daysBox = root.querySelector("#picker-days");
  const slotsBox = root.querySelector("#picker-slots");
  const status = root.querySelector("#picker-status");
  const earlier = root.querySelector("#picker-earlier");
  const later = root.querySelector("#picker-later");
  let from = settings.today;
  let byDay = new Map();
  let chosenDay = null;
  let loading = 0;

  const say = (text) => {
    status.textContent = text;
  };

  async function load() {
    if (!service.value) return;
    const asked = (loading += 1);
    const to = [addDays(from, settings.daysPerPage - 1), settings.lastDay].sort()[0];
    earlier.disabled = from <= settings.today;
    later.disabled = to >= settings.lastDay;
    say(strings.loadingTimes);
    let answer;
    try {
      answer = await api.availability(settings.slug, service.value, from, to);
    } catch {
      if (asked === loading) say(strings.timesUnavailable);
      return;
    }
    if (asked !== loading) return; // a newer question was asked meanwhile
    byDay = new Map();
    for (const slot of answer.slots) {
      const day = slot.start.slice(0, 10);
      if (!byDay.has(day)) byDay.set(day, []);
      byDay.get(day).push(slot);
    }
    if (!byDay.has(chosenDay)) chosenDay = byDay.keys().next().value ?? null;
    showDays();
    showSlots();
    say(byDay.size ? "" : strings.noOpenings);
  }

  function showDays() {
    const group = el("div", { class: "day-buttons", role: "group", "aria-label": strings.day });
    for (const day of byDay.keys()) {
      group.append(
        el(
          "button",
          {
            type: "button",
            class: "button day",
            "aria-pressed": day === chosenDay ? "true" : "false",
            onclick: (event) => {
              chosenDay = day;
              for (const button of group.querySelectorAll("button")) {
                button.setAttribute("aria-pressed", String(button === event.currentTarget));
              }
              showSlots();
            },
          },
          el("span", { class: "day-weekday" }, dayName(day, strings, "short").weekday),
          el("span", {}, dayName(day, strings, "short").date),
        ),
      );
    }
    daysBox.replaceChildren(roving(group));
  }

  function showSlots() {
    const slots = byDay.get(chosenDay) || [];
    if (!slots.length) {
      slotsBox.replaceChildren();
      return;
    }
    const name = dayName(chosenDay, strings);
    const group = el("div", { class: "slot-buttons", role: "group", "aria-label": name });
    for (const slot of slots) {
      const time = wallTime(slot.start);
      group.append(
        el(
          "button",
          {
            type: "button",
            class: "button slot",
            "aria-label": fill(strings.dayAtTime, { day: name, time }),
            onclick: async () => {
              for (const button of group.querySelectorAll("button")) button.disabled = true;
              await onPick(Number(service.value), slot.start);
              load(); // what is open has changed: the time now held, or taken by someone
            },
          },
          time,
        ),
      );
    }
    slotsBox.replaceChildren(el("p", { class: "slot-day-name" }, name), roving(group));
  }

  service.addEventListener("change", () => {
    chosenDay = null;
    load();
  });
  earlier.addEventListener("click", () => {
    from = [addDays(from, -settings.daysPerPage), settings.today].sort().at(-1);
    chosenDay = null;
    load();
  });
  later.addEventListener("click", () => {
    from = addDays(from, settings.daysPerPage);
    chosenDay = null;
    load();
  });
  load();
  return { reload: load };
}
