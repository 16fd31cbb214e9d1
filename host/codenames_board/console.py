"""``codenames-board console``: a whole game in a terminal, written to a record.

It drives the same engine and record code as the table, so it is a quick
check of both before any hardware exists. Input is one command per line, so
it can be scripted through standard input.
"""

from __future__ import annotations

import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, TextIO

from .deal import Deal
from .cluewords import clean, clue_word_problem
from .engine import (
    UNLIMITED,
    Action,
    ClueGiven,
    CoverSkipped,
    EndTurn,
    Event,
    Game,
    GameOver,
    IllegalAction,
    NotOwnAgent,
    Key,
    Penalty,
    Phase,
    TileCovered,
    TileRevealed,
    Timeout,
    Touch,
    TurnEnded,
    Undo,
    Undone,
    new_game,
    parse_tile,
    tile_name,
)
from .engine.actions import Clue
from .evening import Evening, tally_lines
from .i18n import Translator
from .record import Header, RecordWriter
from .recorded import play_recorded
from .shelf import highest, numbered_records, record_path
from .textboard import IDENTITY_IDS, grid, outcome_text, status

TILE_SHAPED = re.compile(r"(?:[a-z]\d+|\d+[ ,]+\d+|#\d+)\Z", re.I)  # what a tile looks like, on the grid or not


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def new_record_path(directory: Path, variant: str) -> Path:
    return record_path(directory, datetime.now(timezone.utc), variant)


def describe_action(action: Action, tr: Translator) -> str:
    if isinstance(action, Clue):
        count = tr("board.unlimited") if action.count == UNLIMITED else action.count
        return tr("action.clue", count=count)
    if isinstance(action, Touch):
        return tr("action.touch", name=tile_name(action.tile))
    return tr(f"action.{action.name}")


def describe_event(event: Event, game: Game, tr: Translator) -> str:
    if isinstance(event, ClueGiven):
        if game.guesses_left is None:
            return tr("event.clue_unlimited", team=event.team.value)
        return tr("event.clue", team=event.team.value, left=game.guesses_left)
    if isinstance(event, TileRevealed):
        return tr("event.revealed", name=tile_name(event.tile), identity=tr(IDENTITY_IDS[event.identity]))
    if isinstance(event, TileCovered):
        return tr("event.covered", team=event.team.value, name=tile_name(event.tile))
    if isinstance(event, CoverSkipped):
        return tr("event.cover_skipped", team=event.team.value)
    if isinstance(event, TurnEnded):
        return tr(f"event.turn_end_{event.reason.value}", team=event.team.value)
    if isinstance(event, GameOver):
        return outcome_text(game, tr)
    if isinstance(event, Undone):
        return tr("event.undone", action=describe_action(event.action, tr))
    raise TypeError(event)


class Console:
    """One game (and the next ones) at a terminal; :meth:`handle` takes one typed line."""

    def __init__(
        self,
        tr: Translator,
        games_dir: Path,
        variant: str = "classic",
        seed: int | None = None,
        words: list[str] | None = None,
        out: Callable[[str], None] = print,
        colour: bool = False,
        deal: Deal | None = None,
        evening: Evening | None = None,
        pack: str | None = None,
    ) -> None:
        self.tr = tr
        self.evening = evening  # tonight's tally of the games in the console's folder (None: a record elsewhere)
        self.game_evening: str | None = None  # the evening the game in play belongs to
        self.said_on_board = ""  # a clue's word refused for being one of the board's
        self.games_dir = games_dir
        self.variant = variant
        # Keys (and words, from a deal with a word list) as `sim --seed` and `run --seed` deal them.
        self.deal = deal if deal is not None else Deal(seed)
        self.pack = pack  # where the deal's words come from (a pack's name, or "file"), for the record
        self.words = words
        self.out = out
        self.colour = colour
        self.show_key = False
        self.game: Game | None = None
        self.writer: RecordWriter | None = None
        self.commands = {
            name: tr.words(f"command.{name}")
            for name in ("end", "undo", "penalty", "timeout", "key", "board", "score", "help", "quit", "new", "unlimited")
        }

    # --- games

    def start_new(self, key: Key | None = None, path: Path | None = None) -> None:
        """A new game with a new key, in a new record file (``path``, or one in the games folder)."""
        self.close()
        if key is None:
            seed, key = self.deal.key()
        else:
            seed = None
        dealt = self.deal.words()
        self.words = dealt or self.words
        started = datetime.now(timezone.utc)
        evening = self.evening.next_evening(started) if self.evening is not None else None
        extra = {"number": highest(numbered_records(self.games_dir)) + 1}  # the order played, as the table counts
        if dealt and self.pack:
            extra["pack"] = self.pack
        if evening is not None:
            extra.update(self.evening.fields(evening))
        header = Header(self.variant, key, self.words, self.tr.language, seed, now_iso(), extra)
        path = path or new_record_path(self.games_dir, self.variant)
        self.writer = RecordWriter.create(path, header)
        if self.evening is not None:
            error = self.evening.dealt(self.game, self.game_evening, evening, started)
            if error is not None:
                self.out(self.tr("evening.unsaved", why=self.tr.disk(error)))
        self.game, self.game_evening = new_game(key, self.variant), evening
        self.out(self.tr("console.record", path=str(path)))
        self.show_board()

    def resume(self, path: Path) -> None:
        """Continue the game in an existing record (after a quit or a power cut)."""
        self.close()
        self.writer, record = RecordWriter.resume(path)
        if record.torn_line:
            self.out(self.tr("warning.torn_line", path=str(path), line=record.torn_line))
        self.variant = record.header.variant
        self.words = record.header.words
        self.game, self.game_evening = record.replay(), record.header.extra.get("evening")
        self.out(self.tr("console.resumed", path=str(path), count=len(record.actions)))
        self.show_board()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    # --- output

    def show_board(self) -> None:
        assert self.game is not None
        self.out(grid(self.game, self.tr, self.words, self.show_key, self.colour))
        self.out(status(self.game, self.tr))
        self.out(self.prompt_hint())

    def prompt_hint(self) -> str:
        game = self.game
        assert game is not None
        if game.phase is Phase.OVER:
            return self.tr("console.hint_over")
        if game.phase is Phase.CLUE:
            return self.tr("console.hint_clue")
        if game.phase is Phase.COVER:
            return self.tr("console.hint_cover_duo" if not game.cover_can_skip else "console.hint_cover")
        return self.tr("console.hint_guess")

    # --- input

    def parse(self, text: str) -> Action | str | None:
        """An action, a console command name, or None when the line means nothing."""
        word = text.strip().lower()
        for name, spellings in self.commands.items():
            if word in spellings:
                return {
                    "end": EndTurn(),
                    "undo": Undo(),
                    "penalty": Penalty(),
                    "timeout": Timeout(),
                    "unlimited": Clue(UNLIMITED),
                }.get(name, name)
        if word.isdigit():
            return Clue(int(word))
        parts = text.split()
        if len(parts) == 2 and (parts[1].isdigit() or parts[1].lower() in self.commands.get("unlimited", ())):
            said, count = parts[0], int(parts[1]) if parts[1].isdigit() else UNLIMITED
            problem = clue_word_problem(said, self.words)
            if problem is None:  # "river 2": the clue with its word, recorded
                return Clue(count, clean(said))
            if problem == "web.clue_on_board":  # said as such, not as an unknown command
                self.said_on_board = said
                return "on_board"
        try:
            return Touch(parse_tile(word))
        except ValueError:
            return None

    def handle(self, text: str) -> bool:
        """Act on one typed line; False when the player quits."""
        if not text.strip():
            return True
        parsed = self.parse(text)
        if parsed is None:
            if TILE_SHAPED.match(text.strip()):  # F1, 6 6, #30: a tile off the grid, not an unknown command
                self.out(self.tr("error.script_tile", value=text.strip()))
            else:
                self.out(self.tr("console.unknown", text=text.strip()))
            return True
        if parsed == "quit":
            return False
        if parsed == "help":
            self.out(self.tr("console.help"))
        elif parsed == "new":
            self.start_new()
        elif parsed == "key":
            self.show_key = not self.show_key
            self.out(grid(self.game, self.tr, self.words, self.show_key, self.colour))
        elif parsed == "board":
            self.show_board()
        elif parsed == "score":
            self.show_tally()
        elif parsed == "on_board":
            self.out(self.tr("console.clue_on_board", word=self.said_on_board))
        else:
            self.act(parsed)
        return True

    def act(self, action: Action) -> None:
        game, writer = self.game, self.writer
        assert game is not None and writer is not None
        # The record is written (and synced) before the result is shown; what it cannot keep did not happen.
        try:
            events = play_recorded(game, writer, action, now_iso(), durable=True)
        except NotOwnAgent as error:  # what the tile is not stays the spymasters' (key shows it)
            self.out(self.tr("console.cover_refused", team=error.params.get("team", game.turn.value)))
            return
        except IllegalAction as error:
            self.out(self.tr("console.refused", why=self.tr.error(error)))
            return
        except OSError as error:
            self.out(self.tr("notice.record_unwritable", why=self.tr.disk(error)))
            return
        for event in events:
            self.out(describe_event(event, game, self.tr))
        self.out("")
        self.show_board()
        if game.is_over:
            self.show_tally()

    def show_tally(self) -> None:
        """Tonight's games in the console's folder, the one just played included."""
        tally = self.evening.tally(self.game, self.game_evening) if self.evening is not None else None
        self.out("\n".join(tally_lines(tally, self.tr)) if tally is not None else self.tr("evening.not_yet", games=""))

    def run(self, stream: TextIO = sys.stdin) -> None:
        """Read commands until the player quits or the input ends."""
        interactive = stream.isatty()
        try:
            while True:
                if interactive:
                    line = input("> ")
                else:
                    line = stream.readline()
                    if not line:
                        break
                    self.out(f"> {line.rstrip()}")
                if not self.handle(line):
                    break
        except (EOFError, KeyboardInterrupt):
            self.out("")
        finally:
            if self.writer is not None:
                self.out(self.tr("console.saved", path=str(self.writer.path)))
            self.close()
