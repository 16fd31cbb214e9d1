"""The table's logic: input events in; game actions, records, LEDs, display and sounds out.

``Table`` knows the engine and the devices' interfaces but no threads: the
controller feeds it one event at a time from its queue and sleeps until
``next_wake()``. Time comes from the clock passed in, so tests run games
without waiting.

The fast path, in this order: an event, the rules, the record line written
(a failed write refuses the action: nothing shows it), the LED frame to the
tile board. Only then the buzzer and a hand-over to the spymaster display
(which renders on its own thread, see ``screenworker``); the record's
fsync runs on the writer's own thread (``record.RecordWriter``).
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from . import compositor as leds
from .config import Config, games_folder
from .engine import (
    UNLIMITED,
    Action,
    Clue,
    ClueGiven,
    EndTurn,
    Event,
    Game,
    GameOver,
    Identity,
    IllegalAction,
    Key,
    Penalty,
    Phase,
    Reason,
    Timeout,
    Touch,
    TileCovered,
    TileRevealed,
    Undo,
    Undone,
    new_game,
    tile_name,
)
from .i18n import Translator
from .record import Header, RecordError, RecordWriter, error_line, finish_rewrites, read_record
from .sounds import Sounder
from .tileboard import BoardConnected, BoardDisconnected, BoardProblem, TileBoard, TileTouched
from .ui import Confirm, Notice, SandTimer, TimerMode, UiState

log = logging.getLogger(__name__)

BUTTONS = ("sand_timer", "end_turn", "clue_down", "clue_up", "clue_confirm", "undo", "new_game")
CLUE_STEPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, UNLIMITED, 0)  # what clue down/up step through
CONFIRM_SECONDS = 15.0  # an unanswered question goes away
NOTICE_SECONDS = 8.0
PENALTY_HOLD_SECONDS = 2.0  # END TURN held this long asks about an illegal clue
RESUME_ATTEMPTS = 3  # a record the disk fails to open at start is tried this often
REPAIR_SECONDS = 5.0  # while the record cannot be kept, the table tries to write it out this often
_CANNOT_SAVE = frozenset({"notice.record_unwritable", "notice.record_unsaved"})  # gone once saving works



#: The three MPR121s' I2C addresses in the firmware's order (firmware/board.py, MPR121_ADDRESSES).
TOUCH_CONTROLLER_ADDRESSES = (0x5A, 0x5B, 0x5C)


def touch_controllers(detail: str) -> tuple[str, int]:
    """The firmware's controller indexes ("1", "0,2": from 0) as the build guide names them.

    hardware/README.md and wiring/README.md count the boards from 1 ("MPR121 2" is 0x5B), so
    "1" becomes "2 (0x5B)". Returns the names, comma-separated, and how many there are.
    """
    names = []
    for part in (part.strip() for part in detail.split(",")):
        if part.isdigit() and int(part) < len(TOUCH_CONTROLLER_ADDRESSES):
            names.append(f"{int(part) + 1} (0x{TOUCH_CONTROLLER_ADDRESSES[int(part)]:02X})")
        elif part:
            names.append(part)
    return ", ".join(names), len(names)

@dataclass(frozen=True)
class ButtonDown:
    name: str


@dataclass(frozen=True)
class ButtonUp:
    name: str


@dataclass(frozen=True)
class RecordSyncFailed:
    """The record's fsync failed (posted from its sync thread)."""

    error: OSError


@dataclass(frozen=True)
class EncoderStep:
    steps: int  # +1 a click clockwise (up), -1 anticlockwise


def _iso(now: datetime | None = None) -> str:
    return (now or datetime.now(timezone.utc)).isoformat(timespec="seconds").replace("+00:00", "Z")


class _Stamp:
    """The record lines' time, to the second: formatted once a second, not once a touch."""

    def __init__(self) -> None:
        self._second = -1
        self._text = ""

    def __call__(self) -> str:
        second = int(time.time())
        if second != self._second:
            self._second = second
            self._text = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))
        return self._text


class Table:
    def __init__(
        self,
        config: Config,
        tr: Translator,
        tileboard: TileBoard,
        clock: Callable[[], float],
        display=None,
        sounder: Sounder | None = None,
        new_seed: Callable[[], int] = lambda: secrets.randbits(32),
        wall_clock: Callable[[], datetime] | None = None,
        deal_words: Callable[[], list[str]] | None = None,
        post: Callable[[object], None] | None = None,
    ) -> None:
        self.config = config
        self.tr = tr
        self.tileboard = tileboard
        self.clock = clock
        self.display = display  # anything with update(game, ui) (see display.SpymasterScreen)
        self.sounder = sounder or Sounder(enabled=False)
        self.new_seed = new_seed
        # Wall-clock time only names records and stamps their lines (tests pass a fixed one).
        self.wall_clock = wall_clock or (lambda: datetime.now(timezone.utc))
        self._stamp = (lambda: _iso(wall_clock())) if wall_clock is not None else _Stamp()
        self.games_dir = games_folder(config.state_dir)
        self.deal_words = deal_words  # 25 codenames per game (the simulator), or None (cards on the table)
        self.pause = time.sleep  # between attempts to reopen a record at start
        self.post = post  # hands an event to the controller's queue from another thread (the record's sync)
        self.words: list[str] | None = None
        self.compositor = leds.Compositor(
            leds.Layout(25, config.tiles.timer_leds, config.tiles.turn_leds),
            leds.Palette(
                **config.colours.as_dict(), turn_red=config.colours.red, turn_blue=config.colours.blue
            ),
        )
        self.ui = UiState(clue_entry=config.game.clue_entry, board_connected=tileboard.connected, muted=not config.game.sound)
        self.game: Game | None = None
        self.writer: RecordWriter | None = None
        self._pressed: dict[str, float] = {}
        self._held: set[str] = set()
        self._confirm_until: float | None = None
        self._timer_until: float | None = None
        self._timer_total = 0.0
        self._notice_until: list[float] = []
        self._last_frame: bytes | None = None
        self._shown: tuple | None = None
        self._sounds: list[str] = []  # started after the frame is out
        self._last_number: int | None = None  # the highest game number in the records, once read
        self._phase_key: tuple | None = None
        self._unsaved = False  # an action or an fsync failed since the record was last whole
        self._repair_at: float | None = None  # when to try writing the record out again
        self._said_other_firmware = False  # the board runs firmware this package does not ship: said once

    # --- games

    def start(self) -> None:
        """Resume the newest game in the state folder if it is unfinished, or deal a new one.

        Newest means the highest ``number`` in the records' headers (the table counts its
        games), not the newest name or time: a Pi without a real-time clock may start with
        its clock behind. Records without a number (older ones) come first, by name. Older
        unfinished games were left with NEW GAME and stay as they are. A newest record that
        is damaged is left as it is and named; one the disk fails to open is tried again
        (an SD card's error may pass) before a new game is dealt.
        """
        now = self.clock()
        finish_rewrites(self.games_dir)
        numbered = _numbered_records(self.games_dir)
        self._last_number = _highest(numbered)
        if not (numbered and self._resume(numbered[0][2], now)):
            self.deal(now)

    def _resume(self, path: Path, now: float) -> bool:
        """Take up the game in ``path`` if it is unfinished; False to deal a new one."""
        writer, failure = None, None
        for attempt in range(1, RESUME_ATTEMPTS + 1):
            try:
                record = read_record(path)
                game = record.replay()
                if game.is_over:
                    return False
                writer, _ = RecordWriter.resume(path, background_sync=True, on_sync_error=self._sync_failed)
                break
            except OSError as error:  # not a file, unreadable: tried again, then left as it is
                log.warning("%s: not resumed (attempt %d): %s", path, attempt, error)
                failure = error
                if attempt < RESUME_ATTEMPTS:
                    self.pause(0.25 * attempt)
            except RecordError as error:  # damaged: left as it is
                failure = error
                break
        if writer is None:
            why = error_line(str(path), failure, self.tr) if isinstance(failure, RecordError) else f"{path}: {failure}"
            log.warning("not resumed, left as it is: %s", why)
            self._notice(Notice("notice.record_damaged", (("name", path.name),)), now)
            return False
        self.writer = writer
        self.game = game
        self.words = record.header.words
        log.info("resumed %s after %d actions", path, len(record.actions))
        if writer.fault is not None:  # read, but not reopened: kept in memory, written out when it can be
            self._save_failed(writer.fault, now)
        if record.torn_line:
            log.warning("%s", self.tr("warning.torn_line", path=str(path), line=record.torn_line))
            self._notice(Notice("notice.record_torn"), now)
        self._after_change(now)
        self.update(now)  # the LEDs and the display show the game at once
        return True

    def deal(self, now: float | None = None) -> None:
        """A new game: a new key, a new record.

        If the new record cannot be made (a full or read-only disk), the game on the table
        stays as it is, with its record, and the display says why; with no game yet, the
        OSError goes to the caller.
        """
        now = self.clock() if now is None else now
        if self._last_number is None:  # dealt without start(): `run --seed` still takes the next number
            self._last_number = _highest(_numbered_records(self.games_dir))
        seed = self.new_seed()
        key = Key.generate(seed)
        started = self.wall_clock()
        words = self.deal_words() if self.deal_words is not None else None
        header = Header(
            self.config.variant, key, words, self.tr.language, seed, _iso(started), {"number": self._last_number + 1}
        )
        try:
            self.games_dir.mkdir(parents=True, exist_ok=True)
            path = self.games_dir / f"{started.strftime('%Y%m%d-%H%M%S')}-{self.config.variant}.jsonl"
            number = 1
            while path.exists():
                number += 1
                path = path.with_name(f"{started.strftime('%Y%m%d-%H%M%S')}-{self.config.variant}-{number}.jsonl")
            writer = RecordWriter.create(path, header, background_sync=True, on_sync_error=self._sync_failed)
        except OSError as error:
            if self.game is None:
                raise
            log.error("cannot start a new game record: %s", error)
            self._notice(Notice("notice.record_no_new_game", (("why", self.tr.disk(error)),)), now)
            self.update(now)
            return
        self.close_record()
        self.writer = writer
        self._unsaved, self._repair_at = False, None
        self._last_number += 1
        self.words = words
        self.game = new_game(key, self.config.variant)
        self.compositor.reset()
        self.ui = replace(self.ui, confirm=None, clue_draft=None)
        log.info("new game %s", path.name)
        log.debug("the key of %s: %s", path.name, key.text())  # the spymasters' secret: never above debug
        self._after_change(now)
        self.update(now)  # the LEDs and the display show the new game at once

    def close_record(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    # --- events

    def handle(self, event) -> None:
        """One input event: a button, the encoder, a tile, the tile board."""
        now = self.clock()
        if isinstance(event, TileTouched):
            if event.down:
                self._touch(event.tile, now)
        elif isinstance(event, ButtonDown):
            self._pressed[event.name] = now
            self._button_down(event.name, now)
        elif isinstance(event, ButtonUp):
            pressed = self._pressed.pop(event.name, None)
            if event.name in self._held:
                self._held.discard(event.name)
            elif pressed is not None:
                self._button_released(event.name, now)
        elif isinstance(event, EncoderStep):
            self._step_clue(event.steps, now)
        elif isinstance(event, BoardConnected):
            self.ui = replace(self.ui, board_connected=True)
            if event.other_firmware and not self._said_other_firmware:
                self._said_other_firmware = True
                self._notice(Notice("firmware_install.other_firmware"), now)
        elif isinstance(event, BoardDisconnected):
            self.ui = replace(self.ui, board_connected=False)
        elif isinstance(event, BoardProblem):
            self._board_problem(event, now)
        elif isinstance(event, RecordSyncFailed):
            self._save_failed(event.error, now)
        # Anything else (the controller's wake-up) just lets time do its work.
        self.update(now)

    def update(self, now: float | None = None) -> None:
        """Everything time does: holds, the sand timer, questions and notices running out; then redraw."""
        now = self.clock() if now is None else now
        hold = {"new_game": self.config.controls.new_game_hold_seconds, "end_turn": PENALTY_HOLD_SECONDS}
        for name, seconds in hold.items():
            pressed = self._pressed.get(name)
            if pressed is not None and name not in self._held and now - pressed >= seconds:
                self._held.add(name)
                self._button_held(name, now)
        if self._confirm_until is not None and now >= self._confirm_until:
            self._ask(None, now)
        if self._timer_until is not None:
            self._tick_timer(now)
        if self._notice_until and now >= self._notice_until[0]:
            self._notice_until = [until for until in self._notice_until if until > now]
            self.ui = replace(self.ui, notices=self.ui.notices[-len(self._notice_until) :] if self._notice_until else ())
        if self._repair_at is not None and now >= self._repair_at:
            self._repair(now)
        self.redraw(now)

    def next_wake(self) -> float | None:
        """When ``update`` next has something to do, or None: sleep until an event comes."""
        now = self.clock()
        times = [self.sounder.next_change(), self._confirm_until, self.compositor.next_change(self.game, self.ui, now)]
        hold = {"new_game": self.config.controls.new_game_hold_seconds, "end_turn": PENALTY_HOLD_SECONDS}
        times += [self._pressed[name] + seconds for name, seconds in hold.items() if name in self._pressed and name not in self._held]
        if self._timer_until is not None:
            left = self._timer_until - now
            times.append(now + (left - int(left)) if left > 0 else None)  # the next whole second shown
        if self._notice_until:
            times.append(self._notice_until[0])
        times.append(self._repair_at)
        times = [time for time in times if time is not None]
        return min(times) if times else None

    def show_leds(self, now: float) -> None:
        """The LED frame for ``now``, sent only if it differs from the last one."""
        self._show_frame(self.compositor.frame(self.game, self.ui, now))

    def _show_frame(self, frame: bytes) -> None:
        if frame != self._last_frame:
            self._last_frame = frame
            self.tileboard.show(frame)

    def redraw(self, now: float) -> None:
        """The LEDs first, then the buzzer, then the display's copy."""
        self.show_leds(now)
        if self._sounds:
            for name in self._sounds:
                self.sounder.play(name, now)
            self._sounds.clear()
        self.sounder.update(now)
        if self.display is not None:
            shown = (self.ui, id(self.game), self.game.version)
            if shown != self._shown:
                self._shown = shown
                self.display.update(self.game.copy(), self.ui)  # the display's thread gets its own copy

    # --- playing

    def play(self, action: Action, now: float) -> list[Event] | None:
        """Apply an action: write it to the record, then show it. None if the rules refuse it
        or the record cannot take it (then nothing happened)."""
        game = self.game
        try:
            events = game.play(action)
        except IllegalAction as error:
            log.debug("refused %s: %s", action, error)
            return None
        try:
            self.writer.write(action, time=self._stamp())  # its fsync follows the frame
        except OSError as error:
            # What is not on disk did not happen: the inverse of a push is a pop, of a pop a push.
            if isinstance(action, Undo):
                game.play(events[0].action)
            else:
                game.undo()
            log.error("cannot write the game record: %s", error)
            self._notice(Notice("notice.record_unwritable", (("why", self.tr.disk(error)),)), now)
            self._unsaved = True
            if self.writer.fault is not None and self._repair_at is None:
                self._repair_at = now + REPAIR_SECONDS
            return None
        if self._unsaved and self.writer.fault is None:
            self._saved_again(now)
        for event in events:
            self.compositor.notice(event, now)
            self._sound_for(event, now)
        # The fast path ends here: the tile lights now (only its LED is painted anew). What
        # follows (the next phase's sand timer, the turn LEDs, sounds, the display, the record's
        # fsync) goes out with the next frame, moments later.
        tiles = [event.tile for event in events if isinstance(event, (TileRevealed, TileCovered))]
        if tiles and self._last_frame is not None:
            self._show_frame(self.compositor.repaint(self._last_frame, game, tiles, now))
        else:
            self.show_leds(now)
        self.writer.sync_soon()
        self._after_change(now)
        return events

    def _after_change(self, now: float) -> None:
        game = self.game
        if not self.ui.clue_entry and game.phase is Phase.CLUE:
            self.play(Clue(UNLIMITED), now)  # no clue entry: every turn guesses without a limit
            return
        phase_key = (game.turn, game.phase, len(game.revealed) if game.phase is Phase.COVER else 0)
        draft = self.ui.clue_draft
        if game.phase is Phase.CLUE:
            draft = draft if draft is not None else 1
        else:
            draft = None
        self.ui = replace(self.ui, clue_draft=draft)
        if self._phase_key != phase_key:
            self._phase_key = phase_key
            self._stop_timer()
            if self.config.timer.auto_start:
                self._start_timer(now)

    def _sound(self, name: str, now: float) -> None:
        self._sounds.append(name)  # started by redraw(), once the LED frame is out

    def _sound_for(self, event: Event, now: float) -> None:
        if isinstance(event, TileRevealed):
            if event.identity is Identity.ASSASSIN:
                self._sound("assassin", now)
            elif event.identity.team is event.team:
                self._sound("reveal", now)
            else:
                self._sound("wrong", now)
        elif isinstance(event, GameOver) and event.outcome.reason is Reason.AGENTS:
            self._sound("win", now)
        elif isinstance(event, (ClueGiven, Undone)):
            self._sound("click", now)

    def _touch(self, tile: int, now: float) -> None:
        game = self.game
        if game.phase is Phase.CLUE or (game.phase is not Phase.OVER and game.is_revealed(tile)):
            self._refuse(tile, now)
            if game.phase is Phase.CLUE:
                self._notice(Notice("notice.clue_first"), now)
            return
        if game.phase is Phase.OVER:
            return
        if self.play(Touch(tile), now) is None and game.phase is Phase.COVER:
            # Only the spymasters' display says it: a blink or a sound would tell the operatives
            # that this tile is not one of the covering team's agents.
            self._notice(Notice("notice.cover_own", (("team", game.turn.value),)), now)

    def _refuse(self, tile: int, now: float) -> None:
        """A refused touch blinks at once, on the same fast path as a reveal."""
        self.compositor.notice(leds.TouchRefused(tile), now)
        if self._last_frame is not None:
            self._show_frame(self.compositor.repaint(self._last_frame, self.game, [tile], now))
        self._sound("refused", now)

    # --- buttons

    def _button_down(self, name: str, now: float) -> None:
        if name == "sand_timer":
            self._start_timer(now)
            return
        if name in ("end_turn", "new_game"):
            return  # decided on release or when held
        if self.ui.confirm is not None:
            if name == "clue_confirm":
                self._confirmed(now)
            else:
                self._ask(None, now)  # any other button says no
            return
        if name in ("clue_down", "clue_up"):
            self._step_clue(1 if name == "clue_up" else -1, now)
        elif name == "clue_confirm" and self.game.phase is Phase.CLUE:
            self.play(Clue(self.ui.clue_draft if self.ui.clue_draft is not None else 1), now)
        elif name == "undo" and self.game.actions:
            self._ask(Confirm.UNDO, now)

    def _button_released(self, name: str, now: float) -> None:
        if name == "end_turn":
            if self.ui.confirm is not None:
                self._ask(None, now)
            elif self.play(EndTurn(), now) is None:
                self._sound("refused", now)

    def _button_held(self, name: str, now: float) -> None:
        if name == "new_game":
            if self.game.is_over or not self.game.actions:
                self.deal(now)
            else:
                self._ask(Confirm.NEW_GAME, now)
        elif name == "end_turn" and self.game.phase in (Phase.CLUE, Phase.GUESS):
            self._ask(Confirm.PENALTY, now)

    def _step_clue(self, steps: int, now: float) -> None:
        if self.game.phase is not Phase.CLUE or not self.ui.clue_entry:
            return
        current = self.ui.clue_draft if self.ui.clue_draft is not None else 1
        index = (CLUE_STEPS.index(current) + steps) % len(CLUE_STEPS)
        self.ui = replace(self.ui, clue_draft=CLUE_STEPS[index])

    def _ask(self, question: Confirm | None, now: float) -> None:
        if question is not None:
            log.info("asking the spymasters: %s", question.name.lower())  # the journal tells what the table waits for
        self.ui = replace(self.ui, confirm=question)
        self._confirm_until = now + CONFIRM_SECONDS if question is not None else None

    def _confirmed(self, now: float) -> None:
        question = self.ui.confirm
        self._ask(None, now)
        if question is Confirm.UNDO:
            self.play(Undo(), now)
        elif question is Confirm.NEW_GAME:
            self.deal(now)
        elif question is Confirm.PENALTY:
            self.play(Penalty(), now)

    # --- sand timer

    def _start_timer(self, now: float) -> None:
        phase = self.game.phase
        seconds = {Phase.CLUE: self.config.timer.clue_seconds, Phase.GUESS: self.config.timer.guess_seconds}.get(phase, 0)
        if not seconds:
            return
        self._timer_total = float(seconds)
        self._timer_until = now + seconds
        self._tick_timer(now)

    def _stop_timer(self) -> None:
        self._timer_until = None
        if self.ui.timer is not None:
            self.ui = replace(self.ui, timer=None)

    def _tick_timer(self, now: float) -> None:
        left = self._timer_until - now
        mode = TimerMode(self.config.timer.mode)
        if left > 0:
            shown = float(int(left) + (1 if left > int(left) else 0))  # whole seconds, rounded up
            self.ui = replace(self.ui, timer=SandTimer(self._timer_total, shown, mode))
            return
        self._timer_until = None
        self.ui = replace(self.ui, timer=SandTimer(self._timer_total, 0.0, mode))
        self.compositor.notice(leds.TimerExpired(), now)
        self._sound("timer", now)
        if mode is TimerMode.STRICT and self.game.phase in (Phase.CLUE, Phase.GUESS):
            self.play(Timeout(), now)

    # --- the tile board and notices

    def _board_problem(self, problem: BoardProblem, now: float) -> None:
        detail = problem.detail
        if problem.code in ("noisy", "quiet", "stuck") and detail.isdigit() and int(detail) < 25:
            detail = tile_name(int(detail))
        msgid = f"notice.board_{problem.code}"
        if problem.code == "pads" and detail == "-":
            msgid = "notice.board_pads_ok"
        elif problem.code == "pads":
            detail, count = touch_controllers(detail)
            if count > 1:
                msgid = "notice.board_pads_many"
        elif not self.tr.has(msgid):
            msgid = "notice.board_other"
        self._notice(Notice(msgid, (("detail", detail),)), now)

    def _notice(self, notice: Notice, now: float) -> None:
        self.ui = replace(self.ui, notices=(*self.ui.notices, notice)[-3:])
        self._notice_until = (self._notice_until + [now + NOTICE_SECONDS])[-3:]

    def _save_failed(self, error: OSError, now: float) -> None:
        """The record cannot be kept (a failed fsync, the file gone): say so, keep the game, retry."""
        self._unsaved = True
        self._notice(Notice("notice.record_unsaved", (("why", self.tr.disk(error)),)), now)
        if self._repair_at is None:
            self._repair_at = now + REPAIR_SECONDS

    def _repair(self, now: float) -> None:
        """Try to write the record out again (every REPAIR_SECONDS while it fails)."""
        self._repair_at = None
        if self.writer is None or self.writer.fault is None:
            return
        try:
            self.writer.repair()
        except OSError as error:
            log.error("the game record still cannot be written: %s", error)
            self._repair_at = now + REPAIR_SECONDS
            if not any(notice.msgid in _CANNOT_SAVE for notice in self.ui.notices):
                self._notice(Notice("notice.record_unsaved", (("why", self.tr.disk(error)),)), now)
            return
        self._saved_again(now)

    def _saved_again(self, now: float) -> None:
        """Saving works again: the notices that said it did not go (with their times), this one comes."""
        self._unsaved = False
        kept = [i for i, notice in enumerate(self.ui.notices) if notice.msgid not in _CANNOT_SAVE]
        self.ui = replace(self.ui, notices=tuple(self.ui.notices[i] for i in kept))
        self._notice_until = [self._notice_until[i] for i in kept]  # the same order as the notices
        self._notice(Notice("notice.record_saved"), now)

    def _sync_failed(self, error: OSError) -> None:
        """On the record's sync thread: tell the controller's thread."""
        if self.post is not None:
            self.post(RecordSyncFailed(error))

    def close(self) -> None:
        self.sounder.stop()
        self.close_record()


def _numbered_records(folder: Path) -> list[tuple[int, str, Path]]:
    """The records in ``folder`` as (number, name, path), the highest number first (none where the folder is missing)."""
    try:
        paths = list(folder.glob("*.jsonl"))
    except OSError:
        paths = []
    return sorted(((_record_number(path), path.name, path) for path in paths), reverse=True)


def _highest(numbered: list[tuple[int, str, Path]]) -> int:
    """The highest game number of ``_numbered_records`` (0: none yet, or none numbered)."""
    return max(numbered[0][0], 0) if numbered else 0


def _record_number(path: Path) -> int:
    """The ``number`` in a record's header (its first line), or -1: none, or unreadable."""
    try:
        with open(path, "rb") as record:
            first = record.readline(64 * 1024)
        number = json.loads(first).get("number")
    except (OSError, ValueError, AttributeError, RecursionError):
        return -1
    return number if type(number) is int and number >= 0 else -1


def records_folder(config: Config) -> Path:
    return games_folder(config.state_dir)
