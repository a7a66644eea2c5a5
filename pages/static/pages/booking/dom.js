// Building the page's elements. Every text goes in as a text node: what the server sends
// (a model's reply, a service's name) may hold markup, and it is shown as the characters it is.

export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") element.className = value;
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// "{amount} {currency}" with its values filled in; the words come translated from the page.
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

// An amount as the page's language writes money ("€60.00" in English, "60,00 €" in Spanish),
// as the assistant's replies write it; the amount itself stays the API's two-decimal string,
// only drawn here. An unknown currency code falls back to "60.00 XYZ".
export function money(amount, currency, strings) {
  try {
    const format = new Intl.NumberFormat(document.documentElement.lang || undefined, {
      style: "currency",
      currency,
    });
    return format.format(Number(amount));
  } catch {
    return fill(strings.money, { amount, currency });
  }
}

// The wall time of an ISO 8601 instant written in the business's zone ("…T10:00:00+00:00").
export function wallTime(iso) {
  return iso.slice(11, 16);
}

// A day (YYYY-MM-DD, already the business's) in words, with the names the page was given:
// "Wednesday 2 December", or "Wed" and "2 Dec" for a day button.
export function dayName(day, strings, style = "long") {
  const [year, month, date] = day.split("-").map(Number);
  const weekday = (new Date(Date.UTC(year, month - 1, date)).getUTCDay() + 6) % 7; // Monday 0
  const names = strings.calendar;
  if (style === "long") {
    return fill(strings.dayLong, {
      weekday: names.weekdays[weekday],
      day: date,
      month: names.months[month - 1],
    });
  }
  return {
    weekday: names.weekdaysShort[weekday],
    date: fill(strings.dayShort, { day: date, month: names.monthsShort[month - 1] }),
  };
}
