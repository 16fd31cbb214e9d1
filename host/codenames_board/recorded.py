"""The recorded game: an action counts once its line is in the game's record.

``play_recorded`` is the one way an action is played, by the table and the console
alike: the rules first, then the record; what the record cannot take is taken back,
so nothing shows an action the disk does not have. ``RecordedGame`` is the table's
game with its record, kept whole while the disk fails (tried again every
``REPAIR_SECONDS``, said on the display until saving works again).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from .engine import Action, Event, Game, IllegalAction, Undo
from .prompts import Prompts
from .record import RecordWriter
from .ui import Notice

log = logging.getLogger(__name__)

REPAIR_SECONDS = 5.0  # while the record cannot be kept, the table tries to write it out this often
CANNOT_SAVE = frozenset({"notice.record_unwritable", "notice.record_unsaved"})  # gone once saving works


@dataclass(frozen=True)
class RecordSyncFailed:
    """The record's fsync failed (posted from its sync thread)."""

    error: OSError


def play_recorded(game: Game, writer: RecordWriter, action: Action, stamp: str, durable: bool = False) -> list[Event]:
    """Play ``action`` and write it to the record (``durable``: synced before this returns).

    Raises IllegalAction (nothing changed) or the write's OSError (the action taken back).
    """
    events = game.play(action)
    try:
        if durable:
            writer.append(action, time=stamp)
        else:
            writer.write(action, time=stamp)  # its fsync follows on the writer's thread
    except OSError:
        # What is not on disk did not happen: the inverse of a push is a pop, of a pop a push.
        if isinstance(action, Undo):
            game.play(events[0].action)
        else:
            game.undo()
        raise
    return events


class Stamp:
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


class RecordedGame:
    """The game on the table and its record writer; says on the display when saving fails and works again."""

    def __init__(self, prompts: Prompts, tr, stamp) -> None:
        self.prompts = prompts
        self.tr = tr
        self.stamp = stamp
        self.game: Game | None = None
        self.writer: RecordWriter | None = None
        self.unsaved = False  # an action or an fsync failed since the record was last whole
        self.repair_at: float | None = None  # when to try writing the record out again

    def take(self, game: Game, writer: RecordWriter) -> None:
        """A new or resumed game with its record (the last one's record is closed)."""
        self.close()
        self.game, self.writer = game, writer
        self.unsaved, self.repair_at = False, None

    def play(self, action: Action, now: float) -> list[Event] | None:
        """The action's events, or None: the rules refused it or the record could not take it."""
        try:
            events = play_recorded(self.game, self.writer, action, self.stamp())
        except IllegalAction as error:
            log.debug("refused %s: %s", action, error)
            return None
        except OSError as error:
            log.error("cannot write the game record: %s", error)
            self.prompts.notice(Notice("notice.record_unwritable", (("why", self.tr.disk(error)),)), now)
            self.unsaved = True
            if self.writer.fault is not None and self.repair_at is None:
                self.repair_at = now + REPAIR_SECONDS
            return None
        if self.unsaved and self.writer.fault is None:
            self._saved_again(now)
        return events

    def save_failed(self, error: OSError, now: float) -> None:
        """The record cannot be kept (a failed fsync, the file gone): say so, keep the game, retry."""
        self.unsaved = True
        self.prompts.notice(Notice("notice.record_unsaved", (("why", self.tr.disk(error)),)), now)
        if self.repair_at is None:
            self.repair_at = now + REPAIR_SECONDS

    def update(self, now: float) -> None:
        """Try to write the record out again when it is time (every REPAIR_SECONDS while it fails)."""
        if self.repair_at is None or now < self.repair_at:
            return
        self.repair_at = None
        if self.writer is None or self.writer.fault is None:
            return
        try:
            self.writer.repair()
        except OSError as error:
            log.error("the game record still cannot be written: %s", error)
            self.repair_at = now + REPAIR_SECONDS
            if not self.prompts.showing(CANNOT_SAVE):
                self.prompts.notice(Notice("notice.record_unsaved", (("why", self.tr.disk(error)),)), now)
            return
        self._saved_again(now)

    def _saved_again(self, now: float) -> None:
        """Saving works again: the notices that said it did not go, this one comes."""
        self.unsaved = False
        self.prompts.forget(CANNOT_SAVE)
        self.prompts.notice(Notice("notice.record_saved"), now)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
