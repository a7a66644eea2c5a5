// The public API as this page calls it (/api/v1/): JSON in, JSON out, no cookies.
// A refusal comes back as an ApiError carrying the body ({detail, code, errors} — and, for a
// refused press, the turn's reply and conversation); a request that never got an answer
// comes back as a NetworkError, so the page can say so and keep what the client typed.

const BASE = "/api/v1";
const RETRIES = 4; // answers of 409 turn_in_progress waited out before giving up
const LONGEST_WAIT_SECONDS = 5;

export class ApiError extends Error {
  constructor(status, body) {
    super(body.detail || `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.code = body.code || "";
  }
}

export class NetworkError extends Error {}

const wait = (seconds) => new Promise((done) => setTimeout(done, seconds * 1000));

function retryAfter(response) {
  const seconds = Number(response.headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, LONGEST_WAIT_SECONDS) : 1;
}

async function request(method, path, { body, headers = {} } = {}) {
  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch(BASE + path, {
        method,
        headers: {
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "omit",
        cache: "no-store",
      });
    } catch (error) {
      throw new NetworkError(error.message);
    }
    let data;
    try {
      data = await response.json();
    } catch {
      if (response.ok) throw new NetworkError("The answer was cut off.");
      data = {};
    }
    if (response.ok) return data;
    const busy = response.status === 409 && data.code === "turn_in_progress";
    if (busy && attempt < RETRIES) {
      await wait(retryAfter(response));
      continue;
    }
    throw new ApiError(response.status, data);
  }
}

const path = encodeURIComponent;
const conversation = (token) => `/conversations/${path(token)}/`;

export const api = {
  start: (slug) => request("POST", `/businesses/${path(slug)}/conversations/`),
  read: (token, after = 0) =>
    request("GET", conversation(token) + (after ? `?after=${after}` : "")),
  say: (token, text) => request("POST", `${conversation(token)}messages/`, { body: { text } }),
  pick: (token, slot) => request("POST", `${conversation(token)}pick/`, { body: { slot } }),
  hold: (token, service, start) =>
    request("POST", `${conversation(token)}hold/`, { body: { service, start } }),
  details: (token, given) => request("POST", `${conversation(token)}details/`, { body: given }),
  confirm: (token, card, key) =>
    request("POST", `${conversation(token)}confirm/`, {
      body: { card },
      headers: { "Idempotency-Key": key },
    }),
  verify: (token, email) =>
    request("POST", `${conversation(token)}verification/`, { body: { email } }),
  verifyCheck: (token, code) =>
    request("POST", `${conversation(token)}verification/check/`, { body: { code } }),
  availability: (slug, service, from, to) =>
    request(
      "GET",
      `/businesses/${path(slug)}/availability/?service=${path(service)}&from=${from}&to=${to}`,
    ),
};
