// What the page keeps in this browser, per business: the conversation's token (the only key
// to it: it never goes in a URL) and the Idempotency-Key made for each card pressed, so a
// retry, a reload or a second click of the same Confirm names the same booking.
// Storage can be refused (a private window, a blocked iframe): then the page keeps them in
// memory for as long as it is open.

const memory = new Map();
const MOST_KEYS = 20; // a card changes with every detail: keep the latest few

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function read(slug) {
  const name = `ordina.booking.${slug}`;
  let text = memory.get(name) ?? null;
  try {
    text = storage()?.getItem(name) ?? text;
  } catch {
    // refused: memory it is
  }
  try {
    const record = JSON.parse(text);
    return record && typeof record.token === "string" ? record : null;
  } catch {
    return null;
  }
}

function write(slug, record) {
  const name = `ordina.booking.${slug}`;
  const text = JSON.stringify(record);
  memory.set(name, text);
  try {
    storage()?.setItem(name, text);
  } catch {
    // full or refused: memory keeps it
  }
}

export function savedToken(slug) {
  return read(slug)?.token ?? null;
}

export function keepToken(slug, token) {
  write(slug, { token, keys: {} });
}

export function forget(slug) {
  const name = `ordina.booking.${slug}`;
  memory.delete(name);
  try {
    storage()?.removeItem(name);
  } catch {
    // nothing kept
  }
}

function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  // Outside a secure context (plain http on a LAN) randomUUID is missing; the same 122 bits.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

// The Idempotency-Key of this conversation's card: made once, then the same every time.
export function idempotencyKey(slug, token, card) {
  const record = read(slug);
  const keys = record && record.token === token ? record.keys || {} : {};
  if (!keys[card]) {
    keys[card] = newKey();
    const kept = Object.entries(keys).slice(-MOST_KEYS);
    write(slug, { token, keys: Object.fromEntries(kept) });
  }
  return keys[card];
}

// A conversation handed over by another page of this site (the client's appointment page opens
// a chat already verified as them): its token comes once in a cookie scoped to this business's
// page, so it is in no URL. Taken and deleted here; kept from now on like any other.
const HANDOFF_COOKIE = "ordina_conversation";

export function takeHandedOver(slug) {
  const found = document.cookie
    .split("; ")
    .find((pair) => pair.startsWith(`${HANDOFF_COOKIE}=`));
  if (!found) return null;
  const path = `/b/${encodeURIComponent(slug)}/`;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${HANDOFF_COOKIE}=; Max-Age=0; Path=${path}; SameSite=Strict${secure}`;
  const token = decodeURIComponent(found.slice(HANDOFF_COOKIE.length + 1));
  if (!token) return null;
  keepToken(slug, token);
  return token;
}
