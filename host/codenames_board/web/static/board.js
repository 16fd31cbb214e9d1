/* The table as a page shows it: the top bar, the grid, whose turn and the clue, the agents left,
   the sand timer, the notices and the clue log. The public board and the spymaster page both
   build one BoardView and hand it every `state` message as it comes (the newest wins).

   Layout: one CSS grid (areas status, grid, extra, log) that stacks on a phone and puts the grid
   left of everything else when the page is wide (body.wide: a landscape screen, or ?tv=1). */

import {capital, el, link, t} from "./app.js";

const ROWS = "ABCDE";
const LETTER_IDENTITY = {R: "red", B: "blue", N: "bystander", A: "assassin"};

/** A1..E5 as the table names tiles (engine.tile_name): the row's letter from the top, the column's number
    from the left, as the operatives see the grid. */
export function tileName(tile) {
  return `${ROWS[Math.floor(tile / 5)]}${tile % 5 + 1}`;
}

export function keyIdentity(key, tile) {
  return key ? LETTER_IDENTITY[key[tile]] || null : null;
}

/** The small letter that says a tile's identity without its colour (R, B, N, A in English). */
export function mark(identity) {
  const node = el("span", "mark", t(`web.letter_${identity}`));
  node.title = t(`identity.${identity}`);
  return node;
}

/** A touched tile in a clue log or a game's history: its word (or name), colour and letter. */
export function chip(touch) {
  const node = el("li", `chip id-${touch.identity}${touch.covered ? " covered" : ""}`);
  node.append(el("span", "chip-word", touch.word || touch.name));
  if (touch.word) node.append(el("span", "chip-name", touch.name));
  node.append(mark(touch.identity));
  if (touch.covered) node.append(el("span", "chip-covered", t("web.covered")));
  node.title = `${touch.name}: ${t(`identity.${touch.identity}`)}`;
  return node;
}

export function countText(count) {
  return count === "unlimited" ? t("web.unlimited") : String(count);
}

/** The 5x5 tiles. Public: revealed tiles in their colours, the rest neutral (the whole key once
    the game is over). Spymaster (`keyed`): every tile in its key colour, revealed ones dimmed and
    struck. Rotated: the grid turned 180° (the spymasters' seats); names stay with their tiles. */
export class TileGrid {
  constructor(keyed) {
    this.keyed = keyed;
    this.node = el("ol", keyed ? "grid keyed" : "grid");
    this.tiles = [];
    for (let tile = 0; tile < 25; tile += 1) {
      const view = {
        node: el("li", "tile"),
        name: el("span", "tile-name"),
        mark: el("span", "mark"),
        word: el("span", "tile-word"),
        shown: undefined,
      };
      view.node.append(view.name, view.mark, view.word);
      this.tiles.push(view);
    }
    this.turn(false);
    // A word is fitted to its tile by measuring it (a W is wider than an I): again whenever the grid resizes.
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => this.tiles.forEach((view) => fitWord(view))).observe(this.node);
    }
  }

  turn(rotated) {
    const order = rotated ? [...this.tiles].reverse() : this.tiles;
    this.node.replaceChildren(...order.map((view) => view.node));
    this.node.classList.toggle("rotated", rotated);
  }

  render(tiles, key, animate = true) {
    tiles.forEach((tile, index) => this.renderTile(this.tiles[index], index, tile, keyIdentity(key, index), animate));
  }

  renderTile(view, index, tile, known, animate) {
    const name = tileName(index);
    const identity = tile.shown || known;
    const classes = ["tile"];
    if (identity) classes.push(`id-${identity}`);
    if (tile.shown) classes.push("shown");
    if (tile.covered) classes.push("covered");
    if (!tile.word) classes.push("nameless");
    else if (tile.word.length >= 10) classes.push("long");
    if (animate && !view.shown && tile.shown) classes.push("flip");  // revealed just now
    view.shown = tile.shown;
    view.node.className = classes.join(" ");
    const text = tile.word || name;
    view.name.textContent = tile.word ? name : "";
    if (view.word.textContent !== text) {
      view.word.textContent = text;
      view.fitted = false;
    }
    view.mark.textContent = identity ? t(`web.letter_${identity}`) : "";
    const said = [name, tile.word, identity ? t(`identity.${identity}`) : null];
    if (tile.covered) said.push(t("web.covered"));
    if (this.keyed && tile.shown) said.push(t("web.revealed"));
    view.node.title = said.filter(Boolean).join(" · ");
    if (!view.fitted) fitWord(view);
  }
}

const SMALLEST = 0.55;  // of the tile's largest type (about 9 % of its width): below it, two lines instead

/** The word on one line, shrunk as far as it must to fit its tile; a word too long even then gets two
    lines, broken where the language hyphenates it (the page's lang) or else anywhere. */
function fitWord(view) {
  const {node, word} = view;
  node.classList.remove("wrap");
  node.style.setProperty("--fit", "1");
  const room = node.clientWidth * 0.9;
  const wide = word.scrollWidth;
  view.fitted = room > 0;
  if (!view.fitted || wide <= room) return;
  const fit = room / wide;
  if (fit >= SMALLEST) {
    node.style.setProperty("--fit", fit.toFixed(3));
    return;
  }
  node.classList.add("wrap");  // two lines hold about twice as much
  node.style.setProperty("--fit", Math.min(1, Math.max(fit * 1.8, SMALLEST)).toFixed(3));
}

/** The sand timer: counts down locally from `left` (as of the moment the state was sent). */
export class SandTimer {
  constructor() {
    this.node = el("div", "timer hidden");
    this.label = el("span", "timer-label", t("web.timer"));
    this.text = el("span", "timer-text");
    const bar = el("div", "timer-bar");
    this.fill = el("div", "timer-fill");
    bar.append(this.fill);
    this.node.append(this.label, this.text, bar);
    this.timer = null;
    this.since = 0;
    this.interval = null;
  }

  set(timer) {
    this.timer = timer && typeof timer.left === "number" ? timer : null;
    this.since = performance.now();
    this.node.classList.toggle("hidden", this.timer === null);
    if (this.timer === null) {
      clearInterval(this.interval);
      this.interval = null;
      return;
    }
    if (this.interval === null) this.interval = setInterval(() => this.draw(), 250);
    this.draw();
  }

  draw() {
    if (this.timer === null) return;
    const left = Math.max(0, this.timer.left - (performance.now() - this.since) / 1000);
    const total = this.timer.total > 0 ? this.timer.total : 1;
    const seconds = Math.ceil(left);
    this.fill.style.setProperty("--left", String(Math.min(1, left / total)));
    this.text.textContent = left > 0 ? `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` : t("web.time_up");
    this.node.classList.toggle("up", left <= 0);
    this.node.classList.toggle("low", left > 0 && left <= 10);
  }
}

/** The coloured card on top: whose turn and what they do, the clue, the guesses left; the
    outcome in the winner's colour once the game is over. */
class Hero {
  constructor() {
    this.node = el("section", "hero");
    this.turnLine = el("div", "turn-line");
    this.phaseLine = el("div", "phase-line");
    this.clue = el("div", "clue");
    this.clueWord = el("span", "clue-word");
    this.clueCount = el("span", "clue-count");
    this.clue.append(el("span", "clue-label", t("web.clue")), this.clueWord, this.clueCount);
    this.waiting = el("div", "clue-waiting");
    this.guesses = el("div", "guesses");
    this.outcome = el("div", "outcome-text");
    this.node.append(this.turnLine, this.phaseLine, this.clue, this.waiting, this.guesses, this.outcome);
  }

  render(state) {
    const over = state.phase === "over" || state.outcome;
    const team = over && state.outcome ? state.outcome.winner : state.turn;
    this.node.className = `hero team-${team || "none"}${over ? " over" : ""}`;
    if (over) {
      // "Game over" above the outcome, unless the table's own text already starts with it.
      const text = state.outcome_text || "";
      const said = text.toLocaleLowerCase().startsWith(t("web.game_over").toLocaleLowerCase());
      this.turnLine.textContent = t("web.game_over");
      this.outcome.textContent = text;
      this.show(said ? [this.outcome] : [this.turnLine, this.outcome]);
      return;
    }
    const shadow = state.variant === "duo" && state.start && state.turn !== state.start;
    this.turnLine.textContent = capital(t(shadow ? "web.turn_shadow" : "web.turn", {team: state.turn}));
    this.phaseLine.textContent = capital(t(phaseText(state), {team: state.turn}));
    const shown = [this.turnLine, this.phaseLine];
    if (state.clue && state.phase !== "clue") {
      this.clueWord.textContent = state.clue.word || "";
      this.clueWord.classList.toggle("hidden", !state.clue.word);
      this.clueCount.textContent = countText(state.clue.count);
      this.clueCount.classList.toggle("long", state.clue.count === "unlimited");
      shown.push(this.clue);
    } else if (state.phase === "clue") {
      // Nothing to read yet but what is happening: say it in the clue's place, large.
      this.waiting.textContent = this.phaseLine.textContent;
      shown.splice(shown.indexOf(this.phaseLine), 1, this.waiting);
    }
    if (state.phase === "guess") {
      this.guesses.textContent = state.guesses_left === null || state.guesses_left === undefined
        ? t("web.guesses_unlimited", {made: state.guesses_made})
        : t("web.guesses_left", {left: state.guesses_left});
      shown.push(this.guesses);
    }
    this.show(shown);
  }

  show(parts) {
    for (const part of [this.turnLine, this.phaseLine, this.clue, this.waiting, this.guesses, this.outcome]) {
      part.classList.toggle("hidden", !parts.includes(part));
    }
  }
}

function phaseText(state) {
  const yours = state.clue_entry !== undefined;  // the spymasters' own phone: say what to do
  if (state.clue_entry === true) return "web.phase_clue_yours";
  if (state.phase === "cover") {
    const duo = state.variant === "duo" ? "_duo" : "";
    return yours ? `web.phase_cover${duo}_yours` : `web.phase_cover${duo}`;
  }
  return `web.phase_${state.phase}`;
}

/** Agents left per team (the team's name beside its colour); duo names the shadow team. */
class Agents {
  constructor() {
    this.node = el("div", "agents");
    this.node.append(el("span", "facts-label", t("web.agents_left")));
    this.teams = {};
    for (const team of ["red", "blue"]) {
      const chipNode = el("span", `agent-chip team-${team}`);
      const name = el("span", "agent-team");
      const count = el("span", "agent-count");
      chipNode.append(name, count);
      this.teams[team] = {chipNode, name, count};
      this.node.append(chipNode);
    }
  }

  render(state) {
    for (const [team, view] of Object.entries(this.teams)) {
      const shadow = state.variant === "duo" && state.start && team !== state.start;
      view.name.textContent = capital(shadow ? t("web.shadow", {team}) : t(`team.${team}`));
      view.count.textContent = String(state.agents_left ? state.agents_left[team] : "");
    }
  }
}

/** Every clue with the tiles touched after it, in order. */
class ClueLog {
  constructor() {
    this.node = el("section", "log-area");
    this.node.append(el("h2", "log-title", t("web.log")));
    this.list = el("ol", "log");
    this.empty = el("p", "log-empty", t("web.log_empty"));
    this.node.append(this.list, this.empty);
  }

  render(clues) {
    const entries = (clues || []).map((clue, index) => {
      const entry = el("li", `log-entry team-${clue.team}`);
      const head = el("div", "log-head");
      head.append(el("span", "log-number", String(index + 1)), el("span", "log-team", capital(t(`team.${clue.team}`))));
      if (clue.kind === "cover") {
        head.append(el("span", "log-said", t("web.log_covers")));
      } else if (clue.kind === "no_clue") {
        head.append(el("span", "log-said", t("web.history_no_clue")));
      } else {
        if (clue.word) head.append(el("span", "log-word", clue.word));
        head.append(el("span", "log-count", countText(clue.count)));
      }
      if (clue.ended) head.append(el("span", "log-ended", t(`web.event_${clue.ended}`)));  // END TURN, time up, penalty
      entry.append(head);
      if (clue.touched && clue.touched.length) {
        const touches = el("ol", "chips");
        touches.append(...clue.touched.map(chip));
        entry.append(touches);
      }
      return entry;
    });
    this.list.replaceChildren(...entries);
    this.empty.classList.toggle("hidden", entries.length > 0);
    if (document.body.classList.contains("wide")) this.list.scrollTop = this.list.scrollHeight;
    this.list.classList.toggle("overflowing", this.list.scrollHeight > this.list.clientHeight + 1);
  }
}

/** Tonight's score under the top bar: "Owls 3 : 2 Foxes" in the teams' colours, and the duo's games
    ("Duo: 2 of 3 won, best 5, 2 in a row"). Hidden when the table has no evening (`evening` null).
    Large between games and on a TV; one small line on a phone while a game runs (style.css). */
class EveningLine {
  constructor() {
    this.node = el("section", "evening hidden");
    this.classic = el("span", "evening-score");
    this.names = {red: el("span", "evening-team team-red"), blue: el("span", "evening-team team-blue")};
    for (const name of Object.values(this.names)) name.dir = "auto";  // a right-to-left name reads from its start
    this.wins = el("span", "evening-wins");
    this.classic.append(this.names.red, this.wins, this.names.blue);
    this.duo = el("span", "evening-duo");
    this.node.append(el("span", "evening-label", t("web.evening_title")), this.classic, this.duo);
  }

  render(evening) {
    const shown = Boolean(evening && evening.wins && evening.duo && evening.names);
    this.node.classList.toggle("hidden", !shown);
    if (!shown) return;
    const {wins, duo, names} = evening;
    for (const team of ["red", "blue"]) this.names[team].textContent = names[team];
    this.wins.textContent = `${wins.red} : ${wins.blue}`;
    // As the table's own tally says it: the classic score unless the evening has been all duo so far.
    this.classic.classList.toggle("hidden", wins.red + wins.blue === 0 && duo.played > 0);
    this.duo.textContent = duo.won > 0
      ? t("web.evening_duo", {won: duo.won, played: duo.played, best: duo.best, streak: duo.streak})
      : t("web.evening_duo_none", {played: duo.played});
    this.duo.classList.toggle("hidden", duo.played === 0);
    this.node.title = (evening.lines || []).join("\n");  // the whole tally, with when the evening began
  }
}

/** The bar on top: the table's name and game number, the paired spymaster phones (always shown,
    so nobody pairs in secret), the connection and tile board markers, the page's links. */
export class TopBar {
  constructor(links) {
    this.node = el("header", "topbar");
    this.number = el("span", "game-number hidden");
    this.connection = el("span", "marker connection hidden");
    this.offline = el("span", "marker offline hidden", t("web.board_disconnected"));
    this.phones = el("span", "phones hidden");
    this.tools = el("span", "tools");
    const brand = el("span", "brand", t("web.title"));
    const nav = el("nav", "links");
    for (const [href, id] of links) nav.append(link(href, "nav-link", t(id)));
    this.node.append(brand, this.number, el("span", "spacer"), this.connection, this.offline, this.phones, nav, this.tools);
    this.everOnline = false;
  }

  /** The "reconnecting…" marker (the page says "connecting" in its own place until the first state). */
  online(isOnline) {
    this.everOnline = this.everOnline || isOnline;
    this.connection.textContent = t("web.reconnecting");
    this.connection.classList.toggle("hidden", isOnline || !this.everOnline);
  }

  render(state) {
    this.number.textContent = state.number === null || state.number === undefined ? "" : t("web.game_number", {number: state.number});
    this.number.classList.toggle("hidden", state.number === null || state.number === undefined);
    this.phones.textContent = t("web.spymasters", {count: state.spymasters || 0});
    this.phones.classList.remove("hidden");
    // The table says so in a notice of its own while it has one; the marker covers the rest.
    this.offline.classList.toggle("hidden", state.board_connected !== false || (state.notices || []).length > 0);
  }
}

/** One page's view of the table. `keyed`: the spymaster's grid; `links`: [href, text id] pairs. */
export class BoardView {
  constructor({keyed = false, links = []} = {}) {
    this.top = new TopBar(links);
    this.layout = el("main", "layout");
    this.status = el("section", "status-area");
    this.evening = new EveningLine();
    this.hero = new Hero();
    const facts = el("div", "facts");
    this.agents = new Agents();
    this.timer = new SandTimer();
    facts.append(this.agents.node, this.timer.node);
    this.notices = el("ul", "notices hidden");
    this.status.append(this.evening.node, this.hero.node, facts, this.notices);
    this.gridArea = el("section", "grid-area");
    this.grid = new TileGrid(keyed);
    this.gridArea.append(this.grid.node);
    this.extra = el("section", "extra-area");
    this.log = new ClueLog();
    this.layout.append(this.status, this.gridArea, this.extra, this.log.node);
    this.waiting = el("p", "waiting", t("web.connecting"));
    this.layout.classList.add("empty");
    this.status.prepend(this.waiting);
    this.grid.render(Array.from({length: 25}, () => ({word: null, shown: null, covered: false})), null, false);
    this.seen = false;
    document.body.append(this.top.node, this.layout);
  }

  render(state) {
    this.layout.classList.remove("empty");
    this.waiting.remove();
    document.body.classList.toggle("game-over", state.phase === "over" || Boolean(state.outcome));
    this.top.render(state);
    this.evening.render(state.evening);
    this.hero.render(state);
    this.agents.render(state);
    this.timer.set(state.timer);
    const notices = (state.notices || []).map((text) => el("li", "notice", text));
    this.notices.replaceChildren(...notices);
    this.notices.classList.toggle("hidden", notices.length === 0);
    this.grid.render(state.tiles || [], state.key, this.seen);
    this.seen = true;
    this.log.render(state.clues);
  }
}

/** body.wide (grid left, the rest right) on a landscape screen, always with ?tv=1. */
export function followLayout(forced) {
  const query = window.matchMedia("(min-width: 900px) and (min-aspect-ratio: 5/4)");
  const apply = () => document.body.classList.toggle("wide", forced() || query.matches);
  query.addEventListener("change", apply);
  apply();
  return apply;
}
