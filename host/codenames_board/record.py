"""Game records: the save game, one JSON object per line (see RECORDS.md beside this module).

Line 1 is the header (format, variant, key, start team, optional words,
language, seed, times). Every following line is one accepted action, written
before the action's effect is shown, so the record *is* the game: resume is
replay, undo is an ``undo`` line.

Durability: a writer either fsyncs each line before ``append`` returns (the
console), or, with ``background_sync=True`` (the table), hands the fsync to
its own thread, which starts one at once after every write and takes every
line written meanwhile along (group commit). The touch's path then pays for
a ``write`` only; a killed process loses nothing (the line is in the kernel),
a power cut loses at most the lines of the fsync in flight.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .engine import (
    ACTIONS,
    TILES,
    UNLIMITED,
    VARIANTS,
    Action,
    BadKey,
    Clue,
    EndTurn,
    Game,
    IllegalAction,
    Key,
    Penalty,
    Team,
    Timeout,
    Touch,
    Undo,
    new_game,
)
from .files import NotRegular, TooBig, open_regular, read_regular

log = logging.getLogger(__name__)

FORMAT = "codenames-board/1"
FORMAT_PREFIX = "codenames-board/"
HEADER_FIELDS = ("format", "variant", "key", "start", "words", "language", "seed", "created")


class RecordError(ValueError):
    """A file that is not a record, or a line that breaks the format or the rules.

    ``line`` is the 1-based line number, or None for the file as a whole.
    ``msgid`` and ``params`` let the interface say it in the players' language
    (message ids under ``error.`` in the catalogs).
    """

    def __init__(self, msgid: str, line: int | None = None, cause: Exception | None = None, **params: object) -> None:
        self.msgid = msgid
        self.line = line
        self.cause = cause
        self.params = params
        super().__init__(f"line {line}: {msgid} {params}" if line else f"{msgid} {params}")


@dataclass
class Header:
    variant: str
    key: Key
    words: list[str] | None = None
    language: str | None = None
    seed: int | str | None = None
    created: str | None = None
    extra: dict = field(default_factory=dict)  # fields of newer writers, kept when resuming

    def to_json(self) -> dict:
        obj = {"format": FORMAT, "variant": self.variant, "key": self.key.letters, "start": self.key.start.value}
        for name in ("words", "language", "seed", "created"):
            value = getattr(self, name)
            if value is not None:
                obj[name] = value
        obj.update(self.extra)
        return obj

    @classmethod
    def from_json(cls, obj: object, line: int = 1) -> Header:
        if not isinstance(obj, dict) or not isinstance(obj.get("format"), str):
            raise RecordError("not_a_record", line)
        fmt = obj["format"]
        if fmt != FORMAT:
            if fmt.startswith(FORMAT_PREFIX):
                raise RecordError("format_version", line, found=fmt, supported=FORMAT)
            raise RecordError("not_a_record", line)
        variant = obj.get("variant")
        if variant not in VARIANTS:
            raise RecordError("bad_variant", line, variant=variant, variants=", ".join(VARIANTS))
        letters, start = obj.get("key"), obj.get("start")
        if start not in {team.value for team in Team}:
            raise RecordError("bad_start", line, start=start)
        if not isinstance(letters, str):
            raise RecordError("bad_field", line, field="key")
        try:
            key = Key.from_text(f"{letters}:{start}")
        except BadKey as error:
            raise RecordError("bad_key", line, cause=error) from error
        words = obj.get("words")
        if words is not None and (
            not isinstance(words, list) or len(words) != TILES or not all(isinstance(word, str) for word in words)
        ):
            raise RecordError("bad_words", line)
        language = obj.get("language")
        if language is not None and not isinstance(language, str):
            raise RecordError("bad_field", line, field="language")
        created = obj.get("created")
        if created is not None and not isinstance(created, str):
            raise RecordError("bad_field", line, field="created")
        extra = {name: value for name, value in obj.items() if name not in HEADER_FIELDS}
        return cls(variant, key, words, language, obj.get("seed"), created, extra)


def action_to_json(action: Action, **extra: object) -> dict:
    obj: dict = {"action": action.name}
    if isinstance(action, Clue):
        obj["count"] = action.count
    elif isinstance(action, Touch):
        obj["tile"] = action.tile
    obj.update(extra)
    return obj


def action_from_json(obj: object, line: int) -> Action:
    """An action from its JSON object; range checks are left to the rules."""
    if not isinstance(obj, dict) or not isinstance(obj.get("action"), str):
        raise RecordError("not_an_action", line)
    name = obj["action"]
    if name not in ACTIONS:
        raise RecordError("unknown_action", line, action=name, actions=", ".join(ACTIONS))
    if name == "clue":
        count = obj.get("count")
        if not (type(count) is int or count == UNLIMITED):
            raise RecordError("bad_count", line)
        return Clue(count)
    if name == "touch":
        tile = obj.get("tile")
        if type(tile) is not int:
            raise RecordError("bad_tile", line)
        return Touch(tile)
    return ACTIONS[name]()


@dataclass
class Record:
    """A record as read from a file: the header and the action lines in order."""

    header: Header
    actions: list[tuple[int, Action]]  # (line number, action), undo lines included
    good_bytes: int  # length of the part made of whole lines
    torn_line: int | None = None  # line number of a torn last line that was dropped
    last_time: str | None = None  # the "time" on the last action line (the table writes one on each)

    def replay(self) -> Game:
        """The game after every action; a line the rules reject raises RecordError naming it."""
        game = new_game(self.header.key, self.header.variant)
        for line, action in self.actions:
            try:
                game.play(action)
            except IllegalAction as error:
                raise RecordError("rejected", line, cause=error) from error
        return game


_HEADER_START = b'{"format": "' + FORMAT_PREFIX.encode()

# What a game can be. A game has a natural size: 25 tiles, a clue and an END TURN a turn, some
# undos; a few hundred lines. Ten thousand lines is an evening of undoing every action; a record
# past either limit is refused before it is read, so no file makes a reader take the memory of
# a small computer.
MAX_LINE_BYTES = 64 * 1024  # a header with 25 long words is under 2 KiB
MAX_ACTIONS = 10_000  # action lines (undo lines included); the writer refuses the next one
MAX_RECORD_BYTES = 2 * 1024 * 1024  # 10,000 of the table's lines are about 560 KiB
_BLANK = b" \t\r\n\x00"


def _parse_line(raw: bytes) -> object:
    """One line's JSON; ValueError for anything a record line cannot be (too long, nested too deep)."""
    if len(raw) > MAX_LINE_BYTES:
        raise ValueError("line too long for a record")
    try:
        return json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError("nested too deep for a record") from None


def parse_record(data: bytes) -> Record:
    """A record from the bytes of a file. A torn last line is dropped (see Record.torn_line)."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError("too_big", size=len(data), most=MAX_RECORD_BYTES)
    return _parse_stream(io.BytesIO(data))


def _parse_stream(file) -> Record:
    """A record read a line at a time from a binary file (whose size is within the limits):
    each line becomes its action at once, so memory holds the actions, never the text."""
    header: Header | None = None
    actions: list[tuple[int, Action]] = []
    position = good_bytes = 0  # where the next line starts; the end of the last whole line read
    number, torn_line, junk_line, last_time = 0, None, None, None
    while True:
        raw = file.readline(MAX_LINE_BYTES + 2)
        if not raw:
            break
        number += 1
        start, position = position, position + len(raw)
        if not raw.strip(_BLANK):
            if junk_line is None and raw.strip(b" \t\r\n"):
                junk_line = number  # zero bytes: what a power cut leaves where a line was being written
            continue
        try:
            obj = _parse_line(raw[:-1] if raw.endswith(b"\n") else raw)
        except (UnicodeDecodeError, ValueError) as error:
            while not raw.endswith(b"\n"):  # a line too long: the rest of it
                raw = file.readline(MAX_LINE_BYTES + 2)
                if not raw:
                    break
            if not file.read(MAX_RECORD_BYTES).strip(_BLANK):
                # A power cut mid-write leaves a partial line (or zero bytes) at the end: drop it.
                torn_line = number
                if header is None:
                    file.seek(start)
                    begin = file.readline(len(_HEADER_START) + 16).strip(_BLANK)
                    if begin and _HEADER_START.startswith(begin[: len(_HEADER_START)]):
                        raise RecordError("torn_header", number) from error
                    raise RecordError("not_a_record", number) from error
                break
            if header is None:
                raise RecordError("not_a_record", number) from error
            raise RecordError("bad_json", number) from error
        if header is None:
            header = Header.from_json(obj, number)
        else:
            if len(actions) == MAX_ACTIONS:
                raise RecordError("too_many_actions", number, most=MAX_ACTIONS)
            actions.append((number, action_from_json(obj, number)))
            time = obj.get("time")
            last_time = time if isinstance(time, str) else last_time
        good_bytes, junk_line = position, None
    if header is None:  # every line with content became the header or raised
        raise RecordError("empty")
    if torn_line is None and junk_line is not None:
        torn_line = junk_line  # zero bytes after the last whole line: that line is gone; say so
    return Record(header, actions, good_bytes, torn_line, last_time)


def error_line(path: str, error: RecordError, tr) -> str:
    """One line naming the file, the line and what is wrong, in ``tr``'s language: ``FILE:LINE: why``."""
    params = dict(error.params)
    if error.cause is not None:
        params["why"] = tr.error(error.cause)
    message = tr(f"error.{error.msgid}", **params)
    return f"{path}:{error.line}: {message}" if error.line else f"{path}: {message}"


def read_record(path: str | os.PathLike) -> Record:
    """Read a record file, a line at a time. Raises RecordError (a ValueError) or OSError."""
    with _as_record_error():
        file = open_regular(path, MAX_RECORD_BYTES)
    with file:
        return _parse_stream(file)


def _read_regular(path: Path) -> bytes:
    """The bytes of a record file, at most what a record can be."""
    with _as_record_error():
        return read_regular(path, MAX_RECORD_BYTES)


@contextlib.contextmanager
def _as_record_error():
    """A pipe or a device (a FIFO would hang, /dev/zero fill memory), or a file larger than a record
    can be, refused before it is read, as what it is for a record."""
    try:
        yield
    except NotRegular:
        raise RecordError("not_a_regular_file") from None
    except TooBig as error:
        raise RecordError("too_big", size=error.size, most=error.most) from None


def _fsync_directory(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # some systems cannot open a directory; the file itself is synced
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
_PLAIN_TIME = frozenset("0123456789-:TZ")


def _plain_line(action: Action, extra: dict) -> bytes | None:
    """The line ``_ENCODER`` would write for an action with at most a ``time`` like
    ``2026-11-23T20:01:12Z``, formatted directly (the json module builds an encoder per call:
    80 µs on a touch's path); None for anything else, which goes through json."""
    time = extra.get("time")
    if len(extra) != (time is not None) or (time is not None and not (type(time) is str and _PLAIN_TIME.issuperset(time))):
        return None
    if type(action) is Touch and type(action.tile) is int:
        body = f'{{"action": "touch", "tile": {action.tile}'
    elif type(action) is Clue and (type(action.count) is int or action.count == UNLIMITED):
        count = action.count if type(action.count) is int else f'"{UNLIMITED}"'
        body = f'{{"action": "clue", "count": {count}'
    elif type(action) in (EndTurn, Timeout, Penalty, Undo):
        body = f'{{"action": "{action.name}"'
    else:
        return None
    return (f'{body}, "time": "{time}"}}\n' if time is not None else body + "}\n").encode()


class RecordFull(OSError):
    """The record holds as much as a game can (MAX_ACTIONS, MAX_RECORD_BYTES): nothing more is
    written, so that every record the table leaves can be read again. errno EFBIG."""


class RecordWriter:
    """Appends actions to a record, and brings the record back after the disk failed.

    ``RecordWriter.create(path, header)`` starts a new record;
    ``RecordWriter.resume(path)`` continues an existing one (it cuts a torn
    last line off first) and also returns what it read. Both take
    ``background_sync``: False (the default) fsyncs every line before
    :meth:`append` returns; True leaves that to the writer's sync thread
    (:meth:`wait_synced` waits for it, :meth:`close` finishes it).

    The writer keeps the record's bytes in memory (a few hundred KiB for the
    longest evening), so the disk's copy can always be made whole again:

    - a ``write`` that fails (a full or read-only disk, an I/O error) raises
      OSError and the file is cut back to its last whole line: a refused
      action never leaves half a line behind, and the next append simply
      tries again;
    - a failed ``fsync``, a cut back that failed, or a record file that was
      removed or replaced under the writer (checked after every fsync) set
      ``fault``: the disk's copy can no longer be trusted. (After a failed
      fsync Linux marks the lost pages clean, so a second fsync would say
      yes without writing them.) ``on_sync_error`` is told (on the sync
      thread). Every later append first calls :meth:`repair`, which writes
      the whole record anew beside the old one, fsyncs it and renames it
      over; until that works, appends raise the OSError and nothing more is
      accepted. :meth:`close` tries a last repair.
    """

    REWRITE_SUFFIX = ".rewrite"  # the new copy, before it is renamed over the record

    def __init__(self, path: Path, fd: int | None, background_sync: bool = False, on_sync_error=None, content: bytes = b"") -> None:
        self.path = path
        self._fd: int | None = fd
        self._content = bytearray(content)  # every whole line accepted so far: what the disk must hold
        self._lines = content.count(b"\n")  # the header and the action lines (blank ones too): for the limits
        self.fault: OSError | None = None  # why the disk's copy cannot be trusted until a repair
        self.on_sync_error = on_sync_error
        self._closed = False
        self._background = False
        self._written = 0  # lines written so far
        self._synced = 0  # lines known to be on the disk
        self.durable = len(content)  # bytes of the record an fsync has confirmed (what a power cut keeps)
        self._closing = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._identity = _identity(os.fstat(fd)) if fd is not None else None
        if background_sync:
            self._start_sync_thread()

    def __repr__(self) -> str:
        return f"<RecordWriter {str(self.path)!r}{' closed' if self.closed else ''}>"

    @classmethod
    def create(cls, path: str | os.PathLike, header: Header, background_sync: bool = False, on_sync_error=None) -> RecordWriter:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | getattr(os, "O_BINARY", 0), 0o644)
        writer = cls(path, fd)  # the header is synced here, before the game starts
        try:
            writer._write(header.to_json())
            _fsync_directory(path.parent)
        except OSError:
            writer._closed = True
            writer._release()
            try:
                path.unlink()  # ours (O_EXCL): no empty record is left behind
            except OSError:
                pass
            raise
        if background_sync:
            writer.on_sync_error = on_sync_error
            writer._start_sync_thread()
        return writer

    @classmethod
    def resume(cls, path: str | os.PathLike, background_sync: bool = False, on_sync_error=None) -> tuple[RecordWriter, Record]:
        """Continue a record. Raises RecordError or OSError when it cannot be read; once read, a
        disk that fails to reopen it gives a writer at ``fault`` that writes it out anew at the
        first :meth:`repair` (the game is in memory: it is not lost to an error of the moment)."""
        path = Path(path)
        data = _read_regular(path)
        record = parse_record(data)
        content = data[: record.good_bytes]
        if content and not content.endswith(b"\n"):
            content += b"\n"  # a last line complete but for its newline
        fd = None
        try:
            fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
            if record.good_bytes < len(data):
                os.ftruncate(fd, record.good_bytes)
            if len(content) > record.good_bytes:
                os.lseek(fd, 0, os.SEEK_END)
                os.write(fd, b"\n")
            os.fsync(fd)
            os.close(fd)
            fd = None
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
        except OSError as error:
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
            log.error("%s: cannot reopen the record: %s", path, error)
            writer = cls(path, None, background_sync, on_sync_error, content)
            writer.fault = error
            return writer, record
        return cls(path, fd, background_sync, on_sync_error, content), record

    def _start_sync_thread(self) -> None:
        self._background = True
        self._closing = False
        self._thread = threading.Thread(target=self._sync_loop, name="record-sync", daemon=True)
        self._thread.start()

    def _stop_sync_thread(self) -> None:
        """Let the sync thread finish its last fsync and end (it has ended already after a fault)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            with self._changed:
                self._closing = True
                self._changed.notify_all()
            thread.join()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def background_sync(self) -> bool:
        return self._background

    def append(self, action: Action, **extra: object) -> None:
        """Append one accepted action (extra fields such as a time go on the same line)."""
        self.write(action, **extra)
        self.sync_soon()

    def write(self, action: Action, **extra: object) -> None:
        """Append one action without waking the sync thread yet: call :meth:`sync_soon` when the
        caller's urgent work is done (the table: once the LED frame is out)."""
        line = _plain_line(action, extra)
        self._write(action_to_json(action, **extra) if line is None else line, notify=False)

    def sync_soon(self) -> None:
        """Let the sync thread start an fsync of everything written so far (background sync only)."""
        if self._thread is not None:
            with self._changed:
                if self._written > self._synced:
                    self._changed.notify_all()

    def _write(self, obj: dict | bytes, notify: bool = True) -> None:
        if self._closed:
            raise ValueError(f"{self!r} is closed")
        if self.fault is not None:
            self.repair()  # raises while the disk still fails: nothing more is accepted until then
        data = obj if isinstance(obj, bytes) else (_ENCODER.encode(obj) + "\n").encode("utf-8")
        if self._lines > MAX_ACTIONS or len(self._content) + len(data) > MAX_RECORD_BYTES:
            raise RecordFull(errno.EFBIG, "the game record is full", str(self.path))  # every record stays readable
        view = memoryview(data)
        try:
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            if self._thread is None:
                os.fsync(self._fd)
        except OSError:
            self._cut_back()
            raise
        self._lines += 1
        if self._thread is None:
            with self._changed:
                self._content += data
                self.durable = len(self._content)
            return
        with self._changed:  # the sync thread reads both together
            self._content += data
            self._written += 1
            if notify:
                self._changed.notify_all()

    def _cut_back(self) -> None:
        """After a failed write: the file ends with its last whole line again, or the writer is at fault."""
        try:
            os.ftruncate(self._fd, len(self._content))
        except OSError as error:
            log.error("%s: cannot cut a partial line off: %s", self.path, error)
            self.fault = error

    def _is_in_place(self) -> bool:
        """Is the record's name still the file this writer writes to?"""
        try:
            return _identity(os.stat(self.path)) == self._identity
        except OSError:
            return False

    def repair(self) -> None:
        """After a fault: make the disk hold every line accepted so far, durably, and go on.

        The whole record is written anew beside the old one, fsynced and renamed over it (a
        failed fsync may have lost lines the kernel now calls clean; a removed folder is made
        again). Raises OSError, and stays at fault, while the disk still fails.
        """
        if self.fault is None or self._closed:
            return
        self._stop_sync_thread()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(self.path.name + self.REWRITE_SUFFIX)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_BINARY", 0), 0o644)
        try:
            view = memoryview(bytes(self._content))  # a copy: the record grows on after this
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
            os.replace(temp, self.path)
        except OSError:
            os.close(fd)
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise
        _fsync_directory(self.path.parent)
        old, self._fd = self._fd, fd
        self._identity = _identity(os.fstat(fd))
        if old is not None:
            try:
                os.close(old)
            except OSError:
                pass
        log.warning("%s: written out again after: %s", self.path, self.fault)
        self.fault = None
        self._written = self._synced = 0
        self.durable = len(self._content)
        if self._background:
            self._start_sync_thread()

    def _sync_loop(self) -> None:
        changed = self._changed
        while True:
            with changed:
                while self._synced == self._written and not self._closing:
                    changed.wait()
                if self._synced == self._written:
                    return  # closing, and everything is on the disk
                target, size = self._written, len(self._content)
            try:
                os.fsync(self._fd)
                if not self._is_in_place():
                    raise FileNotFoundError(errno.ENOENT, "the record was removed or replaced", str(self.path))
            except OSError as error:
                log.error("%s: cannot keep the record: %s", self.path, error)
                with changed:
                    self.fault = error
                    changed.notify_all()
                if self.on_sync_error is not None:
                    self.on_sync_error(error)
                return
            with changed:
                self._synced, self.durable = target, size
                changed.notify_all()

    def wait_synced(self, timeout: float | None = None) -> bool:
        """Wait until every line written so far is on the disk; False on a timeout or a fault."""
        if self._thread is None:
            return self.fault is None  # every line was synced before append returned
        with self._changed:
            self._changed.wait_for(lambda: self._synced >= self._written or self.fault is not None, timeout)
            return self._synced >= self._written and self.fault is None

    def close(self) -> None:
        """Finish the last fsync (after a fault: try a last repair) and close; safe to call twice."""
        if self._closed:
            return
        self._stop_sync_thread()
        if self.fault is not None:
            try:
                self.repair()
            except OSError as error:
                log.error("%s: cannot write the record out before closing: %s", self.path, error)
            self._stop_sync_thread()
        self._closed = True
        self._release()

    def _release(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def finish_rewrites(folder: Path) -> None:
    """Records whose rewrite (see :meth:`RecordWriter.repair`) was cut off by a power cut or a kill.

    Both copies are a beginning of the same lines (the record gets nothing new while it is
    being rewritten), and a power cut may cut either short, even at a line's end. So the copy
    with more whole lines wins: the rewrite takes the record's place if it extends what the
    record holds, and is removed otherwise.
    """
    try:
        leftovers = sorted(folder.glob("*.jsonl" + RecordWriter.REWRITE_SUFFIX))
    except OSError:
        return
    for temp in leftovers:
        record = temp.with_name(temp.name[: -len(RecordWriter.REWRITE_SUFFIX)])
        try:
            new = _read_regular(temp)
            new_good = parse_record(new).good_bytes
        except (RecordError, OSError):
            new, new_good = b"", 0
        try:
            old = _read_regular(record)
            old_good = parse_record(old).good_bytes
        except (RecordError, OSError):
            old, old_good = b"", 0
        try:
            if new_good > old_good and new[:old_good] == old[:old_good]:
                os.replace(temp, record)
                log.warning("%s: finished a rewrite cut off by a restart", record)
            else:
                temp.unlink()
        except OSError as error:
            log.error("%s: cannot finish or remove: %s", temp, error)


def _identity(status: os.stat_result) -> tuple[int, int]:
    return status.st_dev, status.st_ino
