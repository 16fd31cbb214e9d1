/* Pairing a spymaster's phone (/pair). The hooded display's QR code opens /pair#t=TOKEN: the
   token lives in the fragment (a browser never sends it in a request), leaves the address bar at
   once and goes to the table in a POST; or the spymaster types the display's 6-digit PIN. On
   success the table sets its session cookie and the page opens /spymaster. */

import {el, errorText, link, loadTexts, request, t} from "./app.js";

// First thing, before anything else runs or loads: the token out of the address bar and history.
const token = new URLSearchParams(location.hash.slice(1)).get("t");
if (location.hash) history.replaceState(null, "", location.pathname + location.search);

function build() {
  const header = el("header", "topbar");
  header.append(el("span", "brand", t("web.title")), el("span", "spacer"), link("/", "nav-link", t("web.board_link")));
  const card = el("main", "pair-card");
  const form = el("form", "pair-form");
  form.noValidate = true;
  const label = el("label", "form-label", t("web.pair_pin"));
  label.htmlFor = "pin";
  const pin = el("input", "pin-input");
  Object.assign(pin, {id: "pin", name: "pin", type: "text", inputMode: "numeric", autocomplete: "one-time-code", maxLength: 6, pattern: "[0-9]{6}", spellcheck: false});
  pin.setAttribute("enterkeyhint", "go");
  const button = el("button", "send", t("web.pair_submit"));
  button.type = "submit";
  form.append(label, pin, button);
  const message = el("p", "form-message hidden");
  message.setAttribute("role", "status");
  card.append(el("h1", "pair-title", t("web.pair_title")), el("p", "pair-intro", t("web.pair_intro")), form, message,
    el("p", "pair-note", t("web.pair_note")));
  document.body.append(header, card);
  return {form, pin, button, message};
}

async function main() {
  await loadTexts();
  document.title = t("web.pair_title");
  const page = build();
  let waitUntil = 0;
  let ticking = null;
  const say = (text, good = false) => {
    page.message.textContent = text;
    page.message.classList.toggle("hidden", !text);
    page.message.classList.toggle("good", good);
  };
  const ready = () => {
    const digits = page.pin.value.replace(/\D/g, "").slice(0, 6);
    if (digits !== page.pin.value) page.pin.value = digits;
    page.button.disabled = digits.length !== 6 || Date.now() < waitUntil;
  };
  const wait = (seconds) => {
    waitUntil = Date.now() + seconds * 1000;
    clearInterval(ticking);
    const tick = () => {
      const left = Math.ceil((waitUntil - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(ticking);
        say("");
      } else {
        say(t("web.pair_wait", {seconds: left}));
      }
      ready();
    };
    ticking = setInterval(tick, 1000);
    tick();
  };
  const pair = async (payload) => {
    page.button.disabled = true;
    say(t("web.pair_working"), true);
    const answer = await request("POST", "/api/pair", payload);
    if (answer.status === 200) {
      say(t("web.pair_done"), true);
      location.replace("/spymaster");
      return;
    }
    if (answer.status === 429 && answer.body && Number.isFinite(answer.body.seconds)) {
      wait(answer.body.seconds);
    } else {
      say(errorText(answer));
    }
    ready();
  };
  page.pin.addEventListener("input", ready);
  page.form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!page.button.disabled) pair({pin: page.pin.value});
  });
  ready();
  if (token) pair({token});
  else page.pin.focus();
}

main();
