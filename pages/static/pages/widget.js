/* Ordina's booking widget for a business's own website. The whole embed is one line:

     <script src="https://HOST/widget.js" data-business="SLUG" async></script>

   Optional: data-lang="es" (the language of its two words: by default the page's own,
   <html lang>, when the product speaks it, else English), data-label="…" (the button's
   text, "Book an appointment" in English) and data-close-label="…" (the close button's
   name, "Close"), for words of the site's own choosing.

   It adds a launcher button at the bottom right that opens the business's booking page
   (HOST/b/SLUG/) in an iframe inside a modal dialog. Everything the client does happens in
   that iframe, on HOST's origin: its styles, its requests, and the conversation token it
   keeps in its own storage (no cookie, no third-party storage). This script itself requests
   nothing until the button is pressed, then only the booking page.

   Isolation: the launcher and dialog live in a shadow root, styled by a constructed style
   sheet (not a <style> element, so a site whose Content-Security-Policy forbids inline
   styles still shows them) — the site's CSS cannot reach in, ours cannot leak out. No global
   variable is defined; loading the script twice adds one launcher.

   Esc closes the dialog from the site (the dialog's own cancel) and from inside the iframe:
   the booking page (embedded.js) posts {type: "ordina:close"} to this window, and it is
   obeyed only from that iframe and HOST's origin. Focus returns to the launcher. */
(function () {
  "use strict";

  var SLUG_SHAPE = /^[-a-zA-Z0-9_]{1,60}$/;
  // The words in each language the product speaks, written in by the server as it serves
  // this script (pages/embed/words.py); the script itself has none.
  var WORDS = /*words*/ {} /*/words*/;
  var CLOSE_MESSAGE = "ordina:close";
  var HELLO_MESSAGE = "ordina:hello";

  var script =
    document.currentScript ||
    document.querySelector('script[data-business][src$="/widget.js"]');
  if (!script) return;
  var slug = script.getAttribute("data-business") || "";
  if (!SLUG_SHAPE.test(slug)) {
    console.warn("Ordina widget: data-business must be the business's slug, e.g. studio-lumen.");
    return;
  }
  var host = new URL(script.src, document.baseURI).origin;
  var words = wordsFor(script.getAttribute("data-lang") || document.documentElement.lang);
  var label = script.getAttribute("data-label") || words.open || "";
  var closeLabel = script.getAttribute("data-close-label") || words.close || "";

  // "es-ES" reads as "es"; a language the product does not speak, as English.
  function wordsFor(language) {
    var primary = String(language || "").toLowerCase().split("-")[0];
    var known = Object.prototype.hasOwnProperty.call(WORDS, primary);
    return (known ? WORDS[primary] : WORDS.en) || {};
  }

  var CSS = [
    ":host { all: initial; }",
    ".launcher, .close { font: 600 16px/1.25 system-ui, -apple-system, 'Segoe UI', Roboto,",
    "  'Helvetica Neue', Arial, sans-serif; cursor: pointer; }",
    /* #2563eb with white: 5.2:1. Hover darkens (6.7:1). */
    ".launcher { position: fixed; right: 20px; bottom: 20px; z-index: 2147483000;",
    "  min-height: 48px; padding: 12px 20px; border: 0; border-radius: 999px;",
    "  background: #2563eb; color: #ffffff; box-shadow: 0 4px 16px rgba(0, 0, 0, 0.3); }",
    ".launcher:hover { background: #1d4ed8; }",
    /* A white ring inside a near-black one: visible on any background the site has. */
    ".launcher:focus-visible, .close:focus-visible { outline: 3px solid #ffffff;",
    "  outline-offset: 2px; box-shadow: 0 0 0 7px #15171a; }",
    ".panel { position: fixed; inset: auto 20px 84px auto; margin: 0; padding: 0;",
    "  width: min(420px, calc(100vw - 40px)); height: min(700px, calc(100vh - 104px));",
    "  max-width: none; max-height: none; overflow: hidden; border: 1px solid #3a404b;",
    "  border-radius: 12px; background: #0f1115; color: #f2f3f5;",
    "  box-shadow: 0 12px 48px rgba(0, 0, 0, 0.45); }",
    ".panel[open] { display: flex; flex-direction: column; }",
    ".panel::backdrop { background: rgba(0, 0, 0, 0.4); }",
    ".bar { display: flex; justify-content: flex-end; background: #181b21; }",
    ".close { min-width: 44px; min-height: 44px; margin: 2px; padding: 0 12px; border: 0;",
    "  border-radius: 8px; background: transparent; color: inherit; font-size: 24px; }",
    ".close:hover { background: #20242c; }",
    ".frame { flex: 1; display: block; width: 100%; min-height: 0; border: 0;",
    "  background: #0f1115; }",
    "@media (prefers-color-scheme: light) {",
    "  .panel, .frame { background: #f6f7f9; color: #15171a; border-color: #c4c9d1; }",
    "  .bar { background: #ffffff; }",
    "  .close:hover { background: #eef0f3; }",
    "}",
    /* A phone: the dialog is the whole screen. */
    "@media (max-width: 480px) {",
    "  .panel { inset: 0; width: 100%; height: 100%; border: 0; border-radius: 0; }",
    "}",
  ].join("\n");

  function mount() {
    // One launcher per business, however many times the snippet is on the page.
    var marker = "data-ordina-widget";
    var mounted = document.querySelectorAll("[" + marker + "]");
    for (var index = 0; index < mounted.length; index += 1) {
      if (mounted[index].getAttribute(marker) === slug) return;
    }
    var holder = document.createElement("div");
    holder.setAttribute(marker, slug);
    var root = holder.attachShadow({ mode: "open" });
    var sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];

    var launcher = document.createElement("button");
    launcher.type = "button";
    launcher.className = "launcher";
    launcher.textContent = label;
    launcher.setAttribute("aria-haspopup", "dialog");
    launcher.setAttribute("aria-expanded", "false");
    launcher.setAttribute("aria-controls", "ordina-booking");

    var panel = document.createElement("dialog");
    panel.id = "ordina-booking";
    panel.className = "panel";
    panel.setAttribute("aria-label", label);

    var bar = document.createElement("div");
    bar.className = "bar";
    var close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.setAttribute("aria-label", closeLabel);
    close.textContent = "\u00d7";
    bar.appendChild(close);
    panel.appendChild(bar);

    var frame = null; // made on the first open: the site loads nothing of ours before that

    function greet() {
      // Tells the booking page which origin embeds it, so its Esc message is sent to this
      // window's origin only (never to "*").
      frame.contentWindow.postMessage({ type: HELLO_MESSAGE }, host);
    }

    function open() {
      if (!frame) {
        frame = document.createElement("iframe");
        frame.className = "frame";
        frame.title = label;
        frame.src = host + "/b/" + encodeURIComponent(slug) + "/";
        frame.addEventListener("load", greet);
        panel.appendChild(frame);
      }
      if (!panel.open) panel.showModal();
      launcher.setAttribute("aria-expanded", "true");
      frame.focus();
    }

    function dismiss() {
      if (panel.open) panel.close();
    }

    launcher.addEventListener("click", open);
    close.addEventListener("click", dismiss);
    // A press on the backdrop (the dialog itself, outside its bar and frame) closes it.
    panel.addEventListener("click", function (event) {
      if (event.target === panel) dismiss();
    });
    // However it closed (the button, Esc on the site, Esc in the frame): focus goes back.
    panel.addEventListener("close", function () {
      launcher.setAttribute("aria-expanded", "false");
      launcher.focus();
    });
    window.addEventListener("message", function (event) {
      if (!frame || event.source !== frame.contentWindow || event.origin !== host) return;
      if (event.data && event.data.type === CLOSE_MESSAGE) dismiss();
    });

    root.appendChild(launcher);
    root.appendChild(panel);
    document.body.appendChild(holder);
  }

  if (document.body) {
    mount();
  } else {
    document.addEventListener("DOMContentLoaded", mount);
  }
})();
