/* The games in the table's records (/history) with the stats, and one game turn by turn
   (/history/N). An unfinished game's unrevealed tiles are never in what the server sends. */

import {capital, currentLanguage, el, link, loadTexts, request, t} from "./app.js";
import {TileGrid, chip, countText} from "./board.js";

function when(created) {
  const date = new Date(created);
  if (!created || Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(currentLanguage(), {dateStyle: "medium", timeStyle: "short"}).format(date);
}

/** How a game ended, in words: who won and why, or that it is not finished. */
function result(variant, finished, outcome) {
  if (!finished || !outcome || !outcome.winner) return t("web.history_unfinished");
  const loser = outcome.winner === "red" ? "blue" : "red";
  if (variant === "duo") {
    if (outcome.reason === "agents") return t("web.result_duo_win", {score: outcome.score});
    return t(outcome.reason === "assassin" ? "web.result_duo_assassin" : "web.result_duo_shadow");
  }
  const id = outcome.reason === "assassin" ? "web.result_assassin" : "web.result_agents";
  return capital(t(id, {winner: outcome.winner, loser}));
}

function variantName(variant) {
  return t(variant === "duo" ? "web.variant_duo" : "web.variant_classic");
}

function stat(label, value, className = "") {
  const card = el("div", `stat ${className}`);
  card.append(el("span", "stat-value", String(value)), el("span", "stat-label", label));
  return card;
}

function statsView(stats) {
  const section = el("section", "stats");
  section.append(el("h2", "section-title", t("web.stats_title")));
  const cards = el("div", "stat-cards");
  cards.append(stat(t("web.stat_finished"), stats.finished || 0), stat(t("web.stat_unfinished"), stats.unfinished || 0));
  const wins = stats.wins || {};
  if ((wins.red || 0) + (wins.blue || 0) > 0) {
    for (const team of ["red", "blue"]) cards.append(stat(capital(t("web.stat_wins", {team})), wins[team] || 0, `team-${team}`));
    cards.append(stat(t("web.stat_assassin"), stats.assassin || 0, "id-assassin"));
  }
  if (stats.duo_played) {
    cards.append(stat(t("web.stat_duo"), `${stats.duo_won || 0}/${stats.duo_played}`));
    if (stats.duo_scores && stats.duo_scores.length) cards.append(stat(t("web.stat_duo_best"), Math.max(...stats.duo_scores)));
  }
  if (stats.minutes && stats.minutes.length) {
    const average = stats.minutes.reduce((sum, minutes) => sum + minutes, 0) / stats.minutes.length;
    cards.append(stat(t("web.stat_minutes"), Math.round(average)));
  }
  if (stats.unreadable && stats.unreadable.length) cards.append(stat(t("web.stat_unreadable"), stats.unreadable.length));
  section.append(cards);
  return section;
}

function gameRow(game) {
  const row = el("li", `game-row${game.finished ? "" : " unfinished"}${game.winner ? ` team-${game.winner}` : ""}`);
  const anchor = link(`/history/${encodeURIComponent(game.number)}`, "game-link");
  const head = el("span", "game-head");
  head.append(el("span", "game-name", t("web.game_number", {number: game.number})), el("span", "game-when", when(game.created)));
  const details = el("span", "game-details");
  details.append(el("span", "game-variant", variantName(game.variant)), el("span", "game-clues", t("web.history_clues", {count: game.clues || 0})));
  anchor.append(head, el("span", "game-result", result(game.variant, game.finished, game)), details);
  row.append(anchor);
  return row;
}

async function listPage(main) {
  const answer = await request("GET", "/api/history");
  main.append(el("h1", "page-title", t("web.history_title")));
  if (answer.status !== 200 || !answer.body) {
    main.append(el("p", "form-message", t("web.network_error")));
    return;
  }
  const games = [...(answer.body.games || [])].sort((a, b) => b.number - a.number);
  if (answer.body.stats) main.append(statsView(answer.body.stats));
  const section = el("section", "games");
  section.append(el("h2", "section-title", t("web.history_games")));
  if (games.length === 0) section.append(el("p", "log-empty", t("web.history_none")));
  const list = el("ol", "game-list");
  let evening = null;
  for (const game of games) {  // newest first: each evening's heading above its newest game
    if (game.evening && game.evening !== evening) list.append(el("li", "evening-head", t("web.history_evening", {when: when(game.evening)})));
    evening = game.evening || null;
    list.append(gameRow(game));
  }
  section.append(list);
  main.append(section);
}

/** The board as the game stands: words, revealed tiles (and covered ones) from the events. */
function boardOf(game) {
  const tiles = Array.from({length: 25}, (_, index) => ({word: game.words ? game.words[index] || null : null, shown: null, covered: false}));
  for (const turn of game.turns || []) {
    for (const event of turn.events || []) {
      if (typeof event.tile !== "number" || !tiles[event.tile] || !event.identity) continue;
      tiles[event.tile].shown = event.identity;
      if (event.kind === "cover") tiles[event.tile].covered = true;
    }
  }
  return tiles;
}

function eventView(event) {
  if ((event.kind === "touch" || event.kind === "cover") && event.identity) {
    return chip({name: event.name, word: event.word, identity: event.identity, covered: event.kind === "cover"});
  }
  const text = event.kind === "touch" || event.kind === "cover" ? event.word || event.name : t(`web.event_${event.kind}`);
  return el("li", "chip event", text);
}

function turnView(turn, index) {
  const item = el("li", `log-entry team-${turn.team}`);
  const head = el("div", "log-head");
  head.append(el("span", "log-number", String(index + 1)), el("span", "log-team", capital(t(`team.${turn.team}`))));
  if (turn.clue) {
    if (turn.clue.word) head.append(el("span", "log-word", turn.clue.word));
    head.append(el("span", "log-count", countText(turn.clue.count)));
  } else {
    head.append(el("span", "log-none", t("web.history_no_clue")));
  }
  item.append(head);
  if (turn.events && turn.events.length) {
    const events = el("ol", "chips");
    events.append(...turn.events.map(eventView));
    item.append(events);
  }
  return item;
}

async function gamePage(main, number) {
  const answer = await request("GET", `/api/history/${encodeURIComponent(number)}`);
  main.append(link("/history", "back-link", t("web.history_back")));
  if (answer.status !== 200 || !answer.body) {
    main.append(el("h1", "page-title", t("web.game_number", {number})), el("p", "form-message", t(answer.status === 404 ? "web.history_missing" : "web.network_error")));
    return;
  }
  const game = answer.body;
  main.classList.add("game");
  document.title = `${t("web.game_number", {number: game.number})} · ${t("web.history_title")}`;
  const head = el("section", `game-summary${game.outcome ? ` team-${game.outcome.winner}` : ""}`);
  head.append(el("h1", "page-title", t("web.game_number", {number: game.number})),
    el("p", "game-result", result(game.variant, game.finished, game.outcome)),
    el("p", "game-details", [variantName(game.variant), when(game.created), game.start ? capital(t("web.history_start", {team: game.start})) : ""].filter(Boolean).join(" · ")));
  const grid = new TileGrid(false);
  grid.render(boardOf(game), game.finished ? game.key : null, false);
  const board = el("section", "history-board");
  board.append(grid.node);
  const turns = el("section", "log-area");
  turns.append(el("h2", "log-title", t("web.history_turns")));
  const list = el("ol", "log");
  list.append(...(game.turns || []).map(turnView));
  turns.append(list);
  if (!game.turns || game.turns.length === 0) turns.append(el("p", "log-empty", t("web.log_empty")));
  main.append(head, board, turns);
}

async function main() {
  await loadTexts();
  document.title = t("web.history_title");
  const header = el("header", "topbar");
  header.append(el("span", "brand", t("web.title")), el("span", "spacer"), link("/", "nav-link", t("web.board_link")));
  const main = el("main", "history");
  document.body.append(header, main);
  const match = location.pathname.match(/^\/history\/(\d+)\/?$/);
  if (match) await gamePage(main, Number(match[1]));
  else await listPage(main);
}

main();
