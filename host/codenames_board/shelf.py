"""The folder of games: which record is the newest, reopening it, and new records.

``Shelf`` does it for the table: at start it takes up the newest game if it is
unfinished, and it makes each new game's record; the game and its writer go to
the table's ``RecordedGame``, what went wrong to its ``Prompts``.

Newest means the highest ``number`` in the records' headers (the table counts its
games), not the newest name or time: a Pi without a real-time clock may start with
its clock behind. Records without a number (older ones) come first, by name.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from .engine import Game, Key, new_game
from .evening import iso
from .files import NotRegular, TooBig, open_regular
from .prompts import Prompts
from .record import MAX_RECORD_BYTES, Header, Record, RecordError, RecordWriter, error_line, finish_rewrites, read_record
from .recorded import RecordedGame
from .ui import Notice

log = logging.getLogger(__name__)

RESUME_ATTEMPTS = 3  # a record the disk fails to open at start is tried this often


def record_path(folder: Path, started: datetime, variant: str) -> Path:
    """A new record's name: its start time and variant (``-2``, ``-3`` ... where taken)."""
    stamp = started.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stamp}-{variant}.jsonl"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{stamp}-{variant}-{number}.jsonl"
    return path


def numbered_records(folder: Path) -> list[tuple[int, str, Path]]:
    """The records in ``folder`` as (number, name, path), the highest number first (none where the folder is missing)."""
    try:
        paths = list(folder.glob("*.jsonl"))
    except OSError:
        paths = []
    return sorted(((record_number(path), path.name, path) for path in paths), reverse=True)


def highest(numbered: list[tuple[int, str, Path]]) -> int:
    """The highest game number of ``numbered_records`` (0: none yet, or none numbered)."""
    return max(numbered[0][0], 0) if numbered else 0


def record_number(path: Path) -> int:
    """The ``number`` in a record's header (its first line), or -1: none, or unreadable."""
    try:  # open_regular: a FIFO or a device named *.jsonl would hang a plain open
        with open_regular(path, MAX_RECORD_BYTES) as record:
            first = record.readline(64 * 1024)
        number = json.loads(first).get("number")
    except (OSError, ValueError, AttributeError, RecursionError, NotRegular, TooBig):
        return -1
    return number if type(number) is int and number >= 0 else -1


class NotResumed(Exception):
    """The newest record could not be taken up; ``str()`` says why, in one line."""


@dataclass(frozen=True)
class Resumed:
    game: Game
    writer: RecordWriter
    record: Record


def reopen(path: Path, tr, on_sync_error, pause: Callable[[float], None] = time.sleep) -> Resumed | None:
    """The unfinished game in ``path`` with its writer; None when that game is over.

    A record the disk fails to open is tried again (an SD card's error may pass); a damaged
    one is left as it is. Both raise NotResumed in the end.
    """
    failure = None
    for attempt in range(1, RESUME_ATTEMPTS + 1):
        try:
            record = read_record(path)
            game = record.replay()
            if game.is_over:
                return None
            writer, _ = RecordWriter.resume(path, background_sync=True, on_sync_error=on_sync_error)
            return Resumed(game, writer, record)
        except OSError as error:  # not a file, unreadable: tried again, then left as it is
            log.warning("%s: not resumed (attempt %d): %s", path, attempt, error)
            failure = error
            if attempt < RESUME_ATTEMPTS:
                pause(0.25 * attempt)
        except RecordError as error:  # damaged: left as it is
            raise NotResumed(error_line(str(path), error, tr)) from error
    raise NotResumed(f"{path}: {failure}")


def new_record(
    folder: Path, number: int, variant: str, seed: int, words: list[str] | None, language: str, started: datetime,
    on_sync_error, extra: dict | None = None,
) -> tuple[Game, RecordWriter]:
    """A new game on the key of ``seed`` and its record, numbered ``number``, the header's ``extra`` fields
    added (``evening``: the evening it belongs to; ``pack``: where its words came from). Raises OSError
    (nothing made)."""
    key = Key.generate(seed)
    extra = {"number": number, **(extra or {})}
    header = Header(variant, key, words, language, seed, iso(started), extra)
    folder.mkdir(parents=True, exist_ok=True)
    path = record_path(folder, started, variant)
    writer = RecordWriter.create(path, header, background_sync=True, on_sync_error=on_sync_error)
    log.debug("the key of %s: %s", path.name, key.text())  # the spymasters' secret: never above debug
    return new_game(key, variant), writer


class Shelf:
    """One table's folder of games. ``words`` and ``number``: the current game's."""

    def __init__(self, folder: Path, recorded: RecordedGame, prompts: Prompts, tr, on_sync_error) -> None:
        self.folder = folder
        self.recorded = recorded
        self.prompts = prompts
        self.tr = tr
        self.on_sync_error = on_sync_error
        self.words: list[str] | None = None
        self.number: int | None = None
        self.evening: str | None = None  # the evening the current game belongs to (its header says)
        self.last_number: int | None = None  # the highest game number in the records, once read

    def resume_newest(self, now: float, pause: Callable[[float], None]) -> bool:
        """Take up the newest game if it is unfinished (False: deal a new one).

        Older unfinished games were left with NEW GAME and stay as they are. A newest record that
        is damaged is left as it is and named on the display.
        """
        finish_rewrites(self.folder)
        numbered = numbered_records(self.folder)
        self.last_number = highest(numbered)
        if not numbered:
            return False
        path = numbered[0][2]
        try:
            resumed = reopen(path, self.tr, self.on_sync_error, pause)
        except NotResumed as why:
            log.warning("not resumed, left as it is: %s", why)
            self.prompts.notice(Notice("notice.record_damaged", (("name", path.name),)), now)
            return False
        if resumed is None:
            return False
        record, writer = resumed.record, resumed.writer
        self.recorded.take(resumed.game, writer)
        self.words, self.number = record.header.words, record.header.extra.get("number")
        self.evening = record.header.extra.get("evening")
        log.info("resumed %s after %d actions", path, len(record.actions))
        if writer.fault is not None:  # read, but not reopened: kept in memory, written out when it can be
            self.recorded.save_failed(writer.fault, now)
        if record.torn_line:
            log.warning("%s", self.tr("warning.torn_line", path=str(path), line=record.torn_line))
            self.prompts.notice(Notice("notice.record_torn"), now)
        return True

    def set_words(self, words: list[str], now: float) -> bool:
        """The words on the cards, typed in at the table once, into the record's header.
        False (and said on the display) when the disk refuses them: the game goes on without."""
        try:
            self.recorded.writer.update_header(words=list(words))
        except (OSError, ValueError) as error:
            log.error("cannot write the words into the record: %s", error)
            why = self.tr.disk(error) if isinstance(error, OSError) else str(error)
            self.prompts.notice(Notice("notice.record_words_unsaved", (("why", why),)), now)
            return False
        self.words = list(words)
        log.info("the words of game %s typed in", self.number)
        return True

    def deal(
        self, variant: str, seed: int, words: list[str] | None, started: datetime, now: float, extra: dict | None = None
    ) -> bool:
        """A new game and its record, numbered after the highest in the folder.

        If the record cannot be made (a full or read-only disk), the game on the table stays as it
        is, with its record, the display says why and this returns False; with no game yet, the
        OSError goes to the caller.
        """
        if self.last_number is None:  # dealt without a start: `run --seed` still takes the next number
            self.last_number = highest(numbered_records(self.folder))
        try:
            game, writer = new_record(
                self.folder, self.last_number + 1, variant, seed, words, self.tr.language, started, self.on_sync_error,
                extra,
            )
        except OSError as error:
            if self.recorded.game is None:
                raise
            log.error("cannot start a new game record: %s", error)
            self.prompts.notice(Notice("notice.record_no_new_game", (("why", self.tr.disk(error)),)), now)
            return False
        self.last_number += 1
        self.recorded.take(game, writer)
        self.words, self.number, self.evening = words, self.last_number, (extra or {}).get("evening")
        log.info("new game %s", writer.path.name)
        return True
