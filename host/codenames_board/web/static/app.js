/* What every page shares: the texts in the table's language, DOM helpers, JSON requests and the
   live socket that reconnects by itself.

   Plain ES modules served as they are (no build step). Pages build their DOM with createElement
   and textContent only: words and clue words come from players, so no string is ever parsed as
   HTML. No inline script or style anywhere, so a Content-Security-Policy without 'unsafe-inline'
   holds; sizes that depend on data go through CSS custom properties (style.setProperty). */

const texts = {};
let language = "en";
// Parameters that name a team are shown in the team's name, as the table's own messages do.
const TEAM_PARAMS = new Set(["team", "winner", "loser", "start"]);

/** The text `id` from the table's catalog with its {name} placeholders filled from `params`. */
export function t(id, params = {}) {
  const template = texts[id];
  if (template === undefined) return id;
  return template.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined || value === null) return whole;
    if (TEAM_PARAMS.has(name) && texts[`team.${value}`] !== undefined) return texts[`team.${value}`];
    return String(value);
  });
}

export function hasText(id) {
  return texts[id] !== undefined;
}

export function currentLanguage() {
  return language;
}

/** A sentence that may start with a team name ("red team's turn") starts with a capital. */
export function capital(text) {
  return text ? text.charAt(0).toLocaleUpperCase(language) + text.slice(1) : text;
}

export function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null && text !== undefined) node.textContent = text;
  return node;
}

export function link(href, className, text) {
  const node = el("a", className, text);
  node.href = href;
  return node;
}

/** A form's answer next to it: ``good`` (green) or a refusal; empty text hides it. */
export function say(node, text, good) {
  node.textContent = text;
  node.classList.toggle("hidden", !text);
  node.classList.toggle("good", good);
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** GET /api/texts, again and again until the table answers (it may be starting). */
export async function loadTexts() {
  for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
    try {
      const response = await fetch("/api/texts", {cache: "no-store", credentials: "same-origin"});
      if (response.ok) {
        const body = await response.json();
        Object.assign(texts, body.texts || {});
        language = body.language || "en";
        document.documentElement.lang = language;
        return;
      }
    } catch (error) {
      // not reachable yet: try again below
    }
    await sleep(delay);
  }
}

/** A JSON request to the table: {status, body} (status 0 when the table did not answer). */
export async function request(method, path, payload = undefined) {
  const options = {method, cache: "no-store", credentials: "same-origin", headers: {}};
  if (payload !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(payload);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    return {status: 0, body: null};
  }
  let body = null;
  try {
    body = await response.json();
  } catch (error) {
    body = null;
  }
  return {status: response.status, body};
}

/** What to tell the user about a refused request: the server's error id in the table's words. */
export function errorText(answer) {
  const body = answer.body;
  if (answer.status === 0) return t("web.network_error");
  if (body && typeof body.error === "string" && hasText(body.error)) return t(body.error, body);
  return t("web.error_status", {status: answer.status});
}

const FIRST_DELAY = 500;
const LAST_DELAY = 5000;

/** A WebSocket to the table that comes back by itself: back-off 0.5 s .. 5 s, at once when the
    page becomes visible again or the network returns. `handlers`: message(json), online(bool),
    and refused() -> Promise<bool> (asked when a connection closes without ever opening; true
    stops the socket for good, e.g. a spymaster phone that is not paired). {"type": "reload"}
    reloads the page after a second (the server dropped a client that fell behind). */
export class LiveSocket {
  constructor(path, handlers) {
    this.path = path;
    this.handlers = handlers;
    this.socket = null;
    this.delay = FIRST_DELAY;
    this.timer = null;
    this.stopped = false;
  }

  start() {
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.now();
    });
    window.addEventListener("online", () => this.now());
    this.connect();
  }

  now() {
    if (this.socket !== null || this.stopped) return;
    clearTimeout(this.timer);
    this.delay = FIRST_DELAY;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket !== null) this.socket.close();
  }

  connect() {
    this.timer = null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${this.path}`);
    let opened = false;
    this.socket = socket;
    socket.addEventListener("open", () => {
      opened = true;
      this.handlers.online(true);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      this.delay = FIRST_DELAY;  // a server that takes us and then drops us at once is not hammered
      if (message.type === "reload") {
        this.stop();
        setTimeout(() => location.reload(), 1000);
        return;
      }
      this.handlers.message(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      this.handlers.online(false);
      this.retry(opened);
    });
  }

  async retry(opened) {
    if (!opened && this.handlers.refused && await this.handlers.refused()) {
      this.stop();
      return;
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, LAST_DELAY);
  }
}

/** Keeps the screen on where the browser allows it (a TV, a phone on the table). */
export function keepAwake() {
  if (!("wakeLock" in navigator)) return;
  const ask = () => {
    if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(() => {});
  };
  document.addEventListener("visibilitychange", ask);
  ask();
}
