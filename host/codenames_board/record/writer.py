"""Writing a record: create or resume it, append one line per accepted action, keep it within the
limits, close it.

Durability: a writer either fsyncs each line before ``append`` returns (the console), or, with
``background_sync=True`` (the table), hands the fsync to its own thread (``sync``): the touch's
path then pays for a ``write`` only; a killed process loses nothing (the line is in the kernel),
a power cut loses at most the lines of the fsync in flight. After a fault the whole record is
written out anew from memory (``repair``).

Threads: one thread (the table's, or the console's) calls every method of a writer; only the
``sync`` part has a thread of its own. The writer alone holds the record's bytes in memory.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import logging
import os
from pathlib import Path

from ..engine import UNLIMITED, Action, Clue, EndTurn, Penalty, Timeout, Touch, Undo
from .format import MAX_ACTIONS, MAX_RECORD_BYTES, Header, Record, action_to_json, parse_record, read_record_bytes
from .repair import REWRITE_SUFFIX, fsync_directory, rewrite
from .sync import RecordSync

log = logging.getLogger(__name__)

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
    elif type(action) is Clue and action.word is None and (type(action.count) is int or action.count == UNLIMITED):
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

    ``RecordWriter.create(path, header)`` starts a new record; ``RecordWriter.resume(path)``
    continues an existing one (it cuts a torn last line off first) and also returns what it read.
    Both take ``background_sync``: False (the default) fsyncs every line before :meth:`append`
    returns; True leaves that to the writer's sync thread (:meth:`wait_synced` waits for it,
    :meth:`close` finishes it), and ``on_sync_error``, told (on that thread) when an fsync fails.

    The writer keeps the record's bytes in memory (a few hundred KiB for the longest evening), so
    the disk's copy can always be made whole again:

    - a ``write`` that fails (a full or read-only disk, an I/O error) raises OSError and the file
      is cut back to its last whole line: a refused action never leaves half a line behind, and
      the next append simply tries again;
    - a failed ``fsync``, a cut back that failed, or a record file that was removed or replaced
      under the writer (checked after every fsync) set ``fault``: the disk's copy can no longer
      be trusted (see ``sync``). Every later append first calls :meth:`repair`, which writes the
      whole record anew beside the old one, fsyncs it and renames it over (see ``repair``); until
      that works, appends raise the OSError and nothing more is accepted. :meth:`close` tries a
      last repair;
    - a line past the limits (MAX_ACTIONS, MAX_RECORD_BYTES) raises :class:`RecordFull` and is
      not written: every record stays readable.
    """

    REWRITE_SUFFIX = REWRITE_SUFFIX  # the new copy, before it is renamed over the record

    def __init__(self, path: Path, fd: int | None, background_sync: bool = False, on_sync_error=None, content: bytes = b"") -> None:
        self.path = path
        self._fd: int | None = fd
        self._content = bytearray(content)  # every whole line accepted so far: what the disk must hold
        self._lines = content.count(b"\n")  # the header and the action lines (blank ones too): for the limits
        self._closed = False
        self._sync = RecordSync(path, len(content), on_sync_error)
        if background_sync:
            self._sync.start(fd)

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
            fsync_directory(path.parent)
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
            writer._sync.start(fd)
        return writer

    @classmethod
    def resume(cls, path: str | os.PathLike, background_sync: bool = False, on_sync_error=None) -> tuple[RecordWriter, Record]:
        """Continue a record. Raises RecordError or OSError when it cannot be read; once read, a
        disk that fails to reopen it gives a writer at ``fault`` that writes it out anew at the
        first :meth:`repair` (the game is in memory: it is not lost to an error of the moment)."""
        path = Path(path)
        data = read_record_bytes(path)
        record = parse_record(data)
        content = data[: record.good_bytes]
        if content and not content.endswith(b"\n"):
            content += b"\n"  # a last line complete but for its newline
        try:
            fd = _reopen(path, record.good_bytes, len(data), len(content) > record.good_bytes)
        except OSError as error:
            log.error("%s: cannot reopen the record: %s", path, error)
            writer = cls(path, None, background_sync, on_sync_error, content)
            writer._sync.fail(error)
            return writer, record
        return cls(path, fd, background_sync, on_sync_error, content), record

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def background_sync(self) -> bool:
        return self._sync.background

    @property
    def fault(self) -> OSError | None:
        """Why the disk's copy cannot be trusted until a :meth:`repair`; None while it can."""
        return self._sync.fault

    @property
    def durable(self) -> int:
        """Bytes of the record an fsync has confirmed (what a power cut keeps)."""
        return self._sync.durable

    @property
    def on_sync_error(self):
        """Called with the OSError, on the sync thread, when a background fsync fails."""
        return self._sync.on_sync_error

    @on_sync_error.setter
    def on_sync_error(self, callback) -> None:
        self._sync.on_sync_error = callback

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
        self._sync.sync_soon()

    def wait_synced(self, timeout: float | None = None) -> bool:
        """Wait until every line written so far is on the disk; False on a timeout or a fault."""
        return self._sync.wait_synced(timeout)

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
            if not self._sync.running:
                os.fsync(self._fd)  # the line is on the disk before it counts as accepted
        except OSError:
            self._cut_back()
            raise
        self._lines += 1
        self._content += data
        self._sync.wrote(len(self._content), notify)

    def _cut_back(self) -> None:
        """After a failed write: the file ends with its last whole line again, or the writer is at fault."""
        try:
            os.ftruncate(self._fd, len(self._content))
        except OSError as error:
            log.error("%s: cannot cut a partial line off: %s", self.path, error)
            self._sync.fail(error)

    @property
    def header(self) -> Header:
        """The record's first line as it stands, read from memory (no disk)."""
        return Header.from_json(json.loads(self._content[: self._content.index(b"\n") + 1]))

    def update_header(self, **fields: object) -> Header:
        """The first line with ``fields`` changed (the words typed in at the table): the whole record is
        written anew beside it, fsynced and renamed over it. Raises OSError, and nothing changes, when
        the disk refuses (ValueError for fields a header cannot hold)."""
        if self._closed:
            raise ValueError(f"{self!r} is closed")
        if self.fault is not None:
            self.repair()
        end = self._content.index(b"\n") + 1
        header = dataclasses.replace(Header.from_json(json.loads(self._content[:end])), **fields)
        Header.from_json(header.to_json())  # the fields checked as a reader will check them
        content = (_ENCODER.encode(header.to_json()) + "\n").encode("utf-8") + bytes(self._content[end:])
        if len(content) > MAX_RECORD_BYTES:
            raise RecordFull(errno.EFBIG, "the game record is full", str(self.path))
        self._sync.stop()
        try:
            fd = rewrite(self.path, content)
        except OSError:
            if self._sync.background:
                self._sync.start(self._fd)  # the old record stands: go on with it
            raise
        self._release()
        self._fd, self._content = fd, bytearray(content)
        self._sync.repaired(fd, len(content))
        return header

    def repair(self) -> None:
        """After a fault: make the disk hold every line accepted so far, durably, and go on.

        The whole record is written anew beside the old one, fsynced and renamed over it (a
        failed fsync may have lost lines the kernel now calls clean; a removed folder is made
        again). Raises OSError, and stays at fault, while the disk still fails.
        """
        if self.fault is None or self._closed:
            return
        self._sync.stop()
        fd = rewrite(self.path, bytes(self._content))  # a copy: the record grows on after this
        self._release()
        self._fd = fd
        log.warning("%s: written out again after: %s", self.path, self.fault)
        self._sync.repaired(fd, len(self._content))

    def close(self) -> None:
        """Finish the last fsync (after a fault: try a last repair) and close; safe to call twice."""
        if self._closed:
            return
        self._sync.stop()
        if self.fault is not None:
            try:
                self.repair()
            except OSError as error:
                log.error("%s: cannot write the record out before closing: %s", self.path, error)
            self._sync.stop()
        self._closed = True
        self._release()

    def _release(self) -> None:
        fd, self._fd = self._fd, None
        _close_quietly(fd)

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _reopen(path: Path, good_bytes: int, size: int, add_newline: bool) -> int:
    """The record (``size`` bytes when read) cut back to its whole lines, a last newline added if
    asked, fsynced, then opened for appending. Raises OSError, having closed what it opened."""
    fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        if good_bytes < size:
            os.ftruncate(fd, good_bytes)
        if add_newline:
            os.lseek(fd, 0, os.SEEK_END)
            os.write(fd, b"\n")
        os.fsync(fd)
    except OSError:
        _close_quietly(fd)
        raise
    os.close(fd)
    return os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))


def _close_quietly(fd: int | None) -> None:
    """Close a file this writer gives up on: an error closing it changes nothing for the record."""
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass
