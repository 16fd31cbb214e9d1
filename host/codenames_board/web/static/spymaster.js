/* The spymaster's phone (/spymaster): the key (colours and letters, revealed tiles dimmed and
   struck, turnable by 180°), the public information, and the clue form while a clue may be
   given. Only a phone paired for this game gets the socket; otherwise the page says so and
   links to /pair. */

import {LiveSocket, capital, currentLanguage, el, errorText, link, loadTexts, request, say, t} from "./app.js";
import {BoardView, followLayout, tileName} from "./board.js";
import {PackForm} from "./packs.js";

const ROTATED = "codenames-board.key-rotated";
const COUNTS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "unlimited"];

function remembered() {
  try {
    return localStorage.getItem(ROTATED) === "1";
  } catch (error) {
    return false;
  }
}

function remember(rotated) {
  try {
    localStorage.setItem(ROTATED, rotated ? "1" : "0");
  } catch (error) {
    // private browsing: the choice lasts as long as the page
  }
}

/** Under the key: the button that turns it and what the orientation is. */
function keyTools(view) {
  const tools = el("div", "key-tools");
  const button = el("button", "tool turn-key", t("web.key_turn"));
  button.type = "button";
  const note = el("span", "key-note");
  let rotated = remembered();
  const apply = () => {
    view.grid.turn(rotated);
    note.textContent = t(rotated ? "web.key_rotated" : "web.key_upright");
    button.setAttribute("aria-pressed", String(rotated));
  };
  button.addEventListener("click", () => {
    rotated = !rotated;
    remember(rotated);
    apply();
  });
  apply();
  tools.append(button, note);
  return tools;
}

/** The clue: one word, a number (0-9 or unlimited), enabled only when `clue_entry` is true. */
class ClueForm {
  constructor(onUnpaired) {
    this.onUnpaired = onUnpaired;
    this.node = el("form", "clue-form");
    this.node.noValidate = true;
    this.title = el("h2", "form-title", t("web.clue_form"));
    this.fields = el("fieldset", "form-fields");
    const label = el("label", "form-label", t("web.clue_word"));
    label.htmlFor = "clue-word";
    this.word = el("input", "clue-input");
    Object.assign(this.word, {id: "clue-word", type: "text", name: "word", maxLength: 40, autocomplete: "off", spellcheck: false});
    this.word.setAttribute("autocapitalize", "none");
    this.word.setAttribute("enterkeyhint", "send");
    const counts = el("fieldset", "counts");
    counts.append(el("legend", "form-label", t("web.clue_count")));
    this.counts = COUNTS.map((value) => {
      const option = el("label", value === "unlimited" ? "count count-unlimited" : "count");
      const input = el("input");
      Object.assign(input, {type: "radio", name: "count", value});
      option.append(input, el("span", "", value === "unlimited" ? t("web.unlimited") : value));
      counts.append(option);
      return input;
    });
    this.send = el("button", "send");
    this.send.type = "submit";
    this.fields.append(label, this.word, counts, this.send);
    this.hint = el("p", "form-hint", t("web.clue_closed"));
    this.message = el("p", "form-message hidden");
    this.message.setAttribute("role", "status");
    this.node.append(this.title, this.hint, this.fields, this.message);
    this.node.addEventListener("input", () => this.preview());
    this.node.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.fields.disabled = true;  // until the table says a clue may be given
    this.open = null;
    this.busy = false;
    this.preview();
  }

  count() {
    const chosen = this.counts.find((input) => input.checked);
    if (!chosen) return null;
    return chosen.value === "unlimited" ? "unlimited" : Number(chosen.value);
  }

  preview() {
    const word = this.word.value.trim();
    const count = this.count();
    this.send.textContent = word && count !== null
      ? t("web.clue_send_preview", {word: word.toLocaleUpperCase(currentLanguage()), count: count === "unlimited" ? t("web.unlimited") : count})
      : t("web.clue_send");
    this.send.disabled = this.busy || !word || count === null;
  }

  render(state) {
    const open = state.clue_entry === true;
    this.title.textContent = open ? capital(t("web.clue_for", {team: state.turn})) : t("web.clue_form");
    this.node.className = `clue-form${open ? ` open team-${state.turn}` : ""}`;
    this.fields.disabled = !open;
    this.hint.classList.toggle("hidden", open);
    if (open && this.open === false) this.say("", false);
    if (!open && state.phase !== "guess") this.say("", false);  // "Clue given." lasts as long as its turn
    this.node.classList.toggle("hidden", state.outcome !== null);  // no next clue after the game
    if (!open && this.open) this.reset();
    this.open = open;
  }

  reset() {
    this.word.value = "";
    for (const input of this.counts) input.checked = false;
    this.preview();
  }

  say(text, good) {
    say(this.message, text, good);
  }

  async submit() {
    const word = this.word.value.trim();
    const count = this.count();
    if (this.busy || !word || count === null) return;
    this.busy = true;
    this.preview();
    this.say("", false);
    const answer = await request("POST", "/api/clue", {word, count});
    this.busy = false;
    if (answer.status >= 200 && answer.status < 300) {
      this.reset();
      this.say(t("web.clue_sent"), true);
    } else {
      this.say(errorText(answer), false);
      this.preview();
      if (answer.status === 403) this.onUnpaired("web.not_paired");
    }
  }
}

const NAMES = Array.from({length: 25}, (_, tile) => tileName(tile));

/** The words on the cards, typed in once per game where the table deals none (shown while `words_entry`). */
class WordsForm {
  constructor() {
    this.node = el("details", "words-form hidden");
    const summary = el("summary", "form-title", t("web.words_form"));
    this.form = el("form", "words-fields");
    this.form.noValidate = true;
    const grid = el("div", "words-grid");
    this.inputs = NAMES.map((name) => {
      const input = el("input", "word-input");
      Object.assign(input, {type: "text", maxLength: 24, autocomplete: "off", spellcheck: false, placeholder: name});
      input.setAttribute("aria-label", name);
      input.setAttribute("autocapitalize", "characters");
      grid.append(input);
      return input;
    });
    this.send = el("button", "send", t("web.words_send"));
    this.send.type = "submit";
    this.message = el("p", "form-message hidden");
    this.message.setAttribute("role", "status");
    this.form.append(el("p", "form-hint", t("web.words_hint")), grid, this.send);
    this.node.append(summary, this.form, this.message);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  render(state) {
    this.node.classList.toggle("hidden", state.words_entry !== true);
  }

  say(text, good) {
    say(this.message, text, good);
  }

  async submit() {
    this.send.disabled = true;
    const answer = await request("POST", "/api/words", {words: this.inputs.map((input) => input.value.trim())});
    this.send.disabled = false;
    if (answer.status >= 200 && answer.status < 300) {
      this.say(t("web.words_saved"), true);
      this.node.open = false;
    } else {
      this.say(errorText(answer), false);
    }
  }
}

/** Another word for one tile, before the first clue, where the table deals the words (shown while
    `redeals_left` is above 0: the table says how many are left). */
class RedealForm {
  constructor(onUnpaired) {
    this.onUnpaired = onUnpaired;
    this.node = el("details", "words-form redeal-form hidden");
    this.form = el("form", "redeal-fields");
    this.form.noValidate = true;
    this.hint = el("p", "form-hint");
    const label = el("label", "form-label", t("web.redeal_tile"));
    label.htmlFor = "redeal-tile";
    this.tile = el("select", "redeal-tile");
    this.tile.id = "redeal-tile";
    this.send = el("button", "send", t("web.redeal_send"));
    this.send.type = "submit";
    this.message = el("p", "form-message hidden");
    this.message.setAttribute("role", "status");
    this.form.append(this.hint, label, this.tile, this.send);
    this.node.append(el("summary", "form-title", t("web.redeal_form")), this.form, this.message);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.shown = "";
  }

  render(state) {
    const left = Number.isInteger(state.redeals_left) ? state.redeals_left : 0;
    this.node.classList.toggle("hidden", left <= 0);
    if (left <= 0) return;
    this.hint.textContent = t("web.redeal_hint", {left});
    const words = state.tiles.map((tile) => tile.word || "");
    const shown = words.join("\n");
    if (shown === this.shown) return;
    this.shown = shown;
    const chosen = this.tile.value;
    this.tile.replaceChildren(...words.map((word, tile) => {
      const option = el("option", "", `${NAMES[tile]} · ${word.toLocaleUpperCase(currentLanguage())}`);
      option.value = String(tile);
      return option;
    }));
    if (chosen) this.tile.value = chosen;
  }

  say(text, good) {
    say(this.message, text, good);
  }

  async submit() {
    this.send.disabled = true;
    const answer = await request("POST", "/api/redeal", {tile: Number(this.tile.value)});
    this.send.disabled = false;
    if (answer.status >= 200 && answer.status < 300) {
      this.say(t("web.redeal_sent"), true);
    } else {
      this.say(errorText(answer), false);
      if (answer.status === 403) this.onUnpaired("web.not_paired");
    }
  }
}

const MAX_TEAM_NAME = 16;  // cluewords.MAX_TEAM_NAME: the server checks it again

/** Tonight's team names (shown while the table has an evening): prefilled with the names set so far,
    left as they are while someone types; "" names a team by its colour. */
class NamesForm {
  constructor(onUnpaired) {
    this.onUnpaired = onUnpaired;
    this.node = el("details", "words-form names-form hidden");
    this.form = el("form", "names-fields");
    this.form.noValidate = true;
    this.inputs = {};
    this.form.append(el("p", "form-hint", t("web.names_hint", {most: MAX_TEAM_NAME})));
    for (const [team, id] of [["red", "web.names_red"], ["blue", "web.names_blue"]]) {
      const label = el("label", "form-label", t(id));
      label.htmlFor = `name-${team}`;
      const input = el("input", `name-input team-${team}`);
      Object.assign(input, {id: `name-${team}`, type: "text", maxLength: MAX_TEAM_NAME, autocomplete: "off", spellcheck: false});
      input.dir = "auto";  // a right-to-left name reads as typed
      input.placeholder = capital(t(`team.${team}`));
      this.inputs[team] = input;
      this.form.append(label, input);
    }
    this.send = el("button", "send", t("web.names_send"));
    this.send.type = "submit";
    this.message = el("p", "form-message hidden");
    this.message.setAttribute("role", "status");
    this.form.append(this.send);
    this.node.append(el("summary", "form-title", t("web.names_form")), this.form, this.message);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.shown = null;
  }

  render(state) {
    const evening = state.evening;
    this.node.classList.toggle("hidden", !evening || !evening.given);
    if (!evening || !evening.given) return;
    const given = `${evening.given.red}\n${evening.given.blue}`;
    if (given === this.shown || Object.values(this.inputs).includes(document.activeElement)) return;
    this.shown = given;
    for (const team of ["red", "blue"]) this.inputs[team].value = evening.given[team];
  }

  say(text, good) {
    say(this.message, text, good);
  }

  async submit() {
    this.send.disabled = true;
    this.say("", false);
    const names = {red: this.inputs.red.value, blue: this.inputs.blue.value};
    const answer = await request("POST", "/api/names", names);
    this.send.disabled = false;
    if (answer.status >= 200 && answer.status < 300) {
      this.shown = null;  // the table's next state fills the fields with the names as it keeps them
      if (Object.values(this.inputs).includes(document.activeElement)) document.activeElement.blur();
      this.say(t("web.names_saved"), true);
    } else {
      this.say(errorText(answer), false);
      if (answer.status === 403) this.onUnpaired("web.not_paired");
    }
  }
}

async function main() {
  await loadTexts();
  document.title = t("web.page_spymaster");
  document.body.classList.add("page-spymaster");
  const view = new BoardView({keyed: true, links: [["/", "web.board_link"]]});
  followLayout(() => false);
  let socket = null;
  const unpaired = (id) => {
    if (socket) socket.stop();
    document.body.classList.add("unpaired");
    const card = el("section", "unpaired-card");
    card.setAttribute("role", "alert");
    card.append(el("p", "unpaired-text", t(id)), link("/pair", "button", t("web.pair_link")));
    view.layout.replaceChildren(card);
    view.top.online(true);
  };
  view.gridArea.append(keyTools(view));
  const form = new ClueForm(unpaired);
  const words = new WordsForm();
  const redeal = new RedealForm(unpaired);
  const names = new NamesForm(unpaired);
  const pack = new PackForm(unpaired);
  view.extra.append(form.node, words.node, redeal.node, names.node, pack.node);
  socket = new LiveSocket("/ws/spymaster", {
    message: (message) => {
      if (message.type === "state") {
        view.render(message);
        form.render(message);
        words.render(message);
        redeal.render(message);
        names.render(message);
        pack.render(message);
      } else if (message.type === "unpaired") {
        unpaired("web.unpaired");
      }
    },
    online: (online) => view.top.online(online),
    // A refused handshake looks like a network error to the page: ask the same URL plainly, the
    // server answers 403 when this phone is not paired for the game.
    refused: async () => {
      if ((await request("GET", "/ws/spymaster")).status !== 403) return false;
      unpaired("web.not_paired");
      return true;
    },
  });
  socket.start();
}

main();
