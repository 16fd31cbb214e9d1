"""The table: input events in, one published state out after every change.

``Table`` turns gestures (touches, buttons, the encoder) and other inputs'
intentions (``gestures.Intent``: a paired phone's clue or words) into the game's
actions and questions, and publishes what results as an immutable ``TableState``
to its outputs (``published``): the LEDs, the buzzer, the web page, the spymaster
display, whatever else is added. Its parts each do one job: ``gestures.Gestures``
(presses and holds) and ``gestures.ClueDial``, ``prompts.Prompts`` (questions and
notices, with their expiry) and ``prompts.BoardWatch`` (the tile board's state),
``sandtimer.TimerRun``, ``recorded.RecordedGame`` (play, record, take back what
the disk refused, repair), ``shelf`` (the folder of games), ``redeal`` (a word dealt again),
``evening.Evening`` (tonight's tally) and ``intentions.Intentions`` (what each intention does).

No threads here: the controller feeds one event at a time from its queue and
sleeps until ``next_wake()``. Time comes from the clock passed in, so tests run
games without waiting. The fast path, in this order: an event, the rules, the
record line written (a failed write refuses the action: nothing shows it), the
state published, the LEDs first; the record's fsync is started after the outputs.
"""

from __future__ import annotations

import logging
import secrets
import time
from datetime import datetime, timezone
from typing import Callable

from .config import Config, games_folder
from .engine import UNLIMITED, Action, Clue, Event, Game, Phase, Timeout, Touch
from .evening import Evening
from .gestures import PENALTY_HOLD_SECONDS, UNPAIR_HOLD_SECONDS, ButtonDown, ButtonUp, ClueDial, EncoderStep, Gestures, Intent
from .i18n import Translator
from .intentions import Intentions
from .outputs import standard_outputs
from .prompts import BoardWatch, Prompts
from .published import Outputs, Publisher, TimerExpired, TouchRefused
from .recorded import RecordedGame, RecordSyncFailed, Stamp
from .redeal import Redeal
from .sandtimer import TimerRun
from .shelf import Shelf, iso
from .sounds import Sounder
from .tileboard import TileBoard, TileTouched
from .ui import Notice, TimerMode, UiState

__all__ = ["ButtonDown", "ButtonUp", "EncoderStep", "RecordSyncFailed", "Table"]

log = logging.getLogger(__name__)


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
        outputs: Outputs | None = None,
        another_word: Callable[[list[str]], str | None] | None = None,
    ) -> None:
        """``outputs``: where the state goes; by default the LEDs on ``tileboard``, ``sounder`` and ``display``.
        ``another_word``: a word not on the board, to re-deal one before the first clue (``redeal``)."""
        self.config = config
        self.tr = tr
        self.clock = clock
        self.new_seed = new_seed
        # Wall-clock time only names records and stamps their lines (tests pass a fixed one).
        self.wall_clock = wall_clock or (lambda: datetime.now(timezone.utc))
        self.games_dir = games_folder(config.state_dir)
        self.deal_words = deal_words  # 25 codenames per game (the simulator), or None (cards on the table)
        self.word_pack: str | None = None  # where dealt words come from, for the record: a pack's name, or "file"
        self.choose_pack: Callable[[str], None] | None = None  # the next games' pack (a phone's choice): Deal.choose
        self.pause = time.sleep  # between attempts to reopen a record at start
        self.post = post  # hands an event to the controller's queue from another thread (the record's sync)
        if outputs is None:  # the standard ones on these devices (tests keep the sounder to listen to it)
            self.sounder = sounder or Sounder(enabled=False)
            outputs = standard_outputs(config, tileboard, display, self.sounder)
        self.outputs = outputs
        self.publisher = Publisher(self.outputs)
        self.prompts = Prompts()
        self.recorded = RecordedGame(self.prompts, tr, (lambda: iso(wall_clock())) if wall_clock else Stamp())
        holds = {"new_game": config.controls.new_game_hold_seconds, "end_turn": PENALTY_HOLD_SECONDS}
        if config.web.enabled:  # UNDO held: the phones' pairing
            holds["undo"] = UNPAIR_HOLD_SECONDS
        self.gestures = Gestures(holds)
        timer = config.timer
        self.timer = TimerRun(timer.clue_seconds, timer.guess_seconds, timer.mode, timer.auto_start)
        self.shelf = Shelf(self.games_dir, self.recorded, self.prompts, tr, self._sync_failed)
        self.dial = ClueDial()  # the number on the spymaster panel, not yet confirmed
        self.board = BoardWatch(tileboard.connected, self.prompts, tr)
        evening = config.evening
        self.evening = Evening(self.games_dir, (evening.red, evening.blue), evening.new_after_hours)
        self.redeal = Redeal(self.shelf, self.prompts, tr, another_word, config.game.clue_entry)
        self.intend = Intentions(self)  # what the buttons and phones mean, where the rules allow it
        self._sync_due = False

    @property
    def game(self) -> Game | None:
        return self.recorded.game

    @property
    def writer(self):
        return self.recorded.writer

    @property
    def ui(self) -> UiState:
        config = self.config
        return UiState(
            self.dial.draft, config.game.clue_entry, self.prompts.question, self.timer.shown, self.board.connected,
            self.prompts.notices, not config.game.sound,
        )

    # --- games

    @property
    def words(self) -> list[str] | None:
        return self.shelf.words

    def start(self) -> None:
        """Resume the newest game in the state folder if it is unfinished (see ``shelf``), or deal a new one.
        A record the disk fails to open is tried again (an SD card's error may pass) before a new game is dealt."""
        now = self.clock()
        resumed = self.shelf.resume_newest(now, self.pause)
        self.evening.load(self.writer.path if resumed else None)
        if resumed:
            self._new_game(now)
        else:
            self.deal(now)

    def deal(self, now: float | None = None) -> None:
        """A new game: a new key, a new record (``Shelf.deal``: what happens when it cannot be made)."""
        now = self.clock() if now is None else now
        seed, started = self.new_seed(), self.wall_clock()
        words = self.deal_words() if self.deal_words is not None else None
        if not self.evening.loaded:  # dealt without a start (`run --seed`, the simulator's scripts)
            self.evening.load()
        previous, previous_evening = self.game, self.shelf.evening
        evening = self.evening.next_evening(started)
        extra = self.evening.fields(evening)
        if words and self.word_pack:
            extra["pack"] = self.word_pack
        if self.shelf.deal(self.config.variant, seed, words, started, now, extra):
            self.evening_saved(self.evening.dealt(previous, previous_evening, evening, started), now)
            self.prompts.ask(None, now)
            self.dial.draft = None
            self._new_game(now)
        else:
            self.update(now)

    def evening_saved(self, error: OSError | None, now: float) -> None:
        if error is not None:  # kept in memory: a restart would forget tonight's names or new evening
            self.prompts.notice(Notice("evening.unsaved", (("why", self.tr.disk(error)),)), now)

    def _new_game(self, now: float) -> None:
        self.publisher.new_game()
        self._after_change(now)
        self.update(now)  # the LEDs and the display show the game at once

    # --- events

    def handle(self, event) -> None:
        """One input event: a button, the encoder, a tile, the tile board."""
        now = self.clock()
        self._time_passes(now)  # what was due by now comes first: the event meets the table as it is now
        if isinstance(event, TileTouched):
            if event.down:
                self._touch(event.tile, now)
        elif isinstance(event, (ButtonDown, ButtonUp, EncoderStep)):
            intention = self.gestures.event(event, now, self.prompts.question is not None)
            if intention is not None:
                self.intend(intention, now)
        elif isinstance(event, Intent):  # another input than the buttons: a paired phone
            self.intend(event.intention, now)
        elif isinstance(event, RecordSyncFailed):
            self.recorded.save_failed(event.error, now)
        else:  # the board's events; anything else (the controller's wake-up) just lets time do its work
            self.board.event(event, now)
        self._publish(now)  # what fell due came first (_time_passes): only the new state is left to show

    def update(self, now: float | None = None) -> None:
        """Everything time does (holds, the sand timer, questions and notices running out), then publish."""
        now = self.clock() if now is None else now
        self._time_passes(now)
        self._publish(now)

    def _time_passes(self, now: float) -> None:
        for intention in self.gestures.due(now):
            self.intend(intention, now)
        self.prompts.update(now)
        if self.timer.tick(now):
            self._timer_ran_out(now)
        self.recorded.update(now)

    def _publish(self, now: float) -> None:
        tally = self.evening.tally(self.game, self.shelf.evening)
        self.publisher.publish(
            self.game, self.ui, self.shelf.words, self.shelf.number, now, tally, self.redeal.left(self.game),
            self.word_pack if self.choose_pack is not None else None,
        )
        if self._sync_due:  # after the outputs: the frame first
            self._sync_due = False
            self.writer.sync_soon()

    def next_wake(self) -> float | None:
        """When ``update`` next has something to do, or None: sleep until an event comes."""
        now = self.clock()
        times = (
            self.outputs.next_wake(now), self.prompts.next_wake(), self.gestures.next_wake(),
            self.timer.next_wake(now), self.recorded.repair_at,
        )
        times = [time for time in times if time is not None]
        return min(times) if times else None

    # --- playing

    def play(self, action: Action, now: float) -> list[Event] | None:
        """Apply an action and write it to the record; the outputs show it with the next published state.
        None if the rules refuse it or the record cannot take it (then nothing happened)."""
        events = self.recorded.play(action, now)
        if events is None:
            return None
        self.publisher.events += events
        self._sync_due = True
        self._after_change(now)
        self._publish(now)  # the fast path ends here: the LEDs show it now
        return events

    def _after_change(self, now: float) -> None:
        game = self.game
        if not self.config.game.clue_entry and game.phase is Phase.CLUE:
            self.play(Clue(UNLIMITED), now)  # no clue entry: every turn guesses without a limit
            return
        self.dial.follow(game.phase)
        self.timer.follow(game, now)

    def _timer_ran_out(self, now: float) -> None:
        self.publisher.events.append(TimerExpired())
        if self.timer.mode is TimerMode.STRICT and self.game.phase in (Phase.CLUE, Phase.GUESS):
            team = self.game.turn
            if self.play(Timeout(), now) is not None:  # said: the turn did not just pass without a word
                self.prompts.notice(Notice("notice.time_up", (("team", team.value),)), now)

    def _touch(self, tile: int, now: float) -> None:
        game = self.game
        if game.phase is Phase.CLUE or (game.phase is not Phase.OVER and game.is_revealed(tile)):
            self.publisher.events.append(TouchRefused(tile))
            if game.phase is Phase.CLUE:
                self.prompts.notice(Notice("notice.clue_first"), now)
            self._publish(now)  # the blink at once, on the same fast path as a reveal
            return
        if game.phase is Phase.OVER:
            return
        if self.play(Touch(tile), now) is None and game.phase is Phase.COVER:
            # Only the spymasters' display says it: a blink or a sound would tell the operatives
            # that this tile is not one of the covering team's agents.
            own = "notice.cover_shadow" if game.variant == "duo" else "notice.cover_own"  # duo: the shadow's agent
            self.prompts.notice(Notice(own, (("team", game.turn.value),)), now)

    def _sync_failed(self, error: OSError) -> None:
        """On the record's sync thread: tell the controller's thread."""
        if self.post is not None:
            self.post(RecordSyncFailed(error))

    def close(self) -> None:
        self.outputs.close()
        self.recorded.close()
