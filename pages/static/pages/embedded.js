// The booking page's side of the embed (widget.js is the other): when the page runs inside
// the embed's iframe, Esc asks the embedding page to close the dialog. Keys pressed in the
// iframe never reach the page around it, so without this Esc would do nothing there.
//
// The message carries no data, and it goes only to the origin that embeds this page: the
// one the browser reports for the frame's parent, or the one the widget's greeting came
// from. Never to "*". A page not framed does nothing at all.

const CLOSE_MESSAGE = "ordina:close";
const HELLO_MESSAGE = "ordina:hello";

function knownParentOrigin() {
  const origins = window.location.ancestorOrigins;
  const first = origins && origins.length ? origins[0] : null;
  return first && first !== "null" ? first : null;
}

if (window.parent !== window) {
  let parentOrigin = knownParentOrigin();

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || event.origin === "null") return;
    if (event.data && event.data.type === HELLO_MESSAGE) parentOrigin = event.origin;
  });

  // On window, so the page's own Esc handlers (closing a step of its own) run first and
  // can keep the key with preventDefault().
  window.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented || parentOrigin === null) return;
    window.parent.postMessage({ type: CLOSE_MESSAGE }, parentOrigin);
  });
}
