/* The spymaster phone's choice of the next games' word pack: shown while the table deals its words
   from a list (the state's `packs` is not empty). The game on the table keeps its words. The pack
   marked is the one the table's newest state names (`pack`), never the page's guess: "file" is a
   list of the players' own, chosen where the table started, marked by no button. */

import {capital, el, errorText, request, say, t} from "./app.js";

export class PackForm {
  constructor(onUnpaired) {
    this.onUnpaired = onUnpaired;
    this.node = el("details", "words-form pack-form hidden");
    const summary = el("summary", "form-title");
    this.current = el("span", "pack-current");
    summary.append(el("span", "", t("web.pack_form")), " ", this.current);
    this.choices = el("div", "pack-choices");
    this.choices.setAttribute("role", "group");
    this.choices.setAttribute("aria-label", t("web.pack_form"));
    this.message = el("p", "form-message hidden");
    this.message.setAttribute("role", "status");
    this.node.append(summary, el("p", "form-hint", t("web.pack_hint")), this.choices, this.message);
    this.buttons = new Map();
    this.shown = "";
    this.pack = null;
    this.busy = false;
  }

  render(state) {
    const packs = Array.isArray(state.packs) ? state.packs.filter((name) => typeof name === "string") : [];
    this.node.classList.toggle("hidden", packs.length === 0);
    if (packs.length === 0) return;
    if (packs.join("\n") !== this.shown) {
      this.shown = packs.join("\n");
      this.buttons = new Map(packs.map((name) => {
        const button = el("button", "pack-choice", capital(t(`pack.${name}`)));
        button.type = "button";
        button.addEventListener("click", () => this.choose(name));
        return [name, button];
      }));
      this.choices.replaceChildren(...this.buttons.values());
    }
    this.pack = state.pack;
    this.current.textContent = state.pack === "file" ? t("web.pack_file") : t(`pack.${state.pack}`);
    for (const [name, button] of this.buttons) {
      button.setAttribute("aria-pressed", String(name === state.pack));
    }
  }

  say(text, good) {
    say(this.message, text, good);
  }

  async choose(name) {
    if (this.busy || name === this.pack) return;
    this.busy = true;
    this.say("", false);
    const answer = await request("POST", "/api/pack", {pack: name});
    this.busy = false;
    if (answer.status >= 200 && answer.status < 300) {
      this.say(t("web.pack_sent"), true);  // the table's next state marks it
    } else {
      this.say(errorText(answer), false);
      if (answer.status === 403) this.onUnpaired("web.not_paired");
    }
  }
}
