"""One table per folder of game records: a lock that ends with the process that holds it.

Two tables writing one folder would both record a touch and leave a game that no longer
replays. ``hold(folder, command)`` takes an advisory lock on ``.lock`` in the folder (flock on
Linux and macOS, a byte-range lock on Windows); the operating system lets it go when the
process ends, however it ends (kill -9 included), so a stale file never blocks a start. The
file says who holds it (process, command, since when) for the one line the second start prints.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt

LOCK_NAME = ".lock"
_MOST = 4096  # bytes of the holder's line read back


@dataclass(frozen=True)
class Holder:
    """Who holds a folder, as its lock file says (each part may be unknown)."""

    pid: int | None = None
    command: str = ""
    since: str = ""


class FolderInUse(Exception):
    """Another process holds the folder; ``holder`` says who, as far as its lock file tells."""

    def __init__(self, folder: Path, holder: Holder) -> None:
        super().__init__(f"{folder} is in use by process {holder.pid}")
        self.folder = folder
        self.holder = holder


class FolderLock:
    """A held lock; ``release()`` (or leaving a ``with`` block, or the process ending) lets it go."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            self.path.unlink()  # while still held: the next start makes a new one (see hold)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:  # BlockingIOError, or Windows' PermissionError: held by another process
        return False
    return True


def read_holder(path: Path) -> Holder:
    try:
        with open(path, "rb") as file:
            info = json.loads(file.read(_MOST))
        pid = info.get("pid")
        return Holder(pid if type(pid) is int else None, str(info.get("command", ""))[:80], str(info.get("since", ""))[:40])
    except (OSError, ValueError, AttributeError, RecursionError):  # being written, or not ours
        return Holder()


def _holder(path: Path) -> Holder:
    """Who holds ``path``: a holder that has just taken the lock writes its line a moment later."""
    for _ in range(20):
        holder = read_holder(path)
        if holder.pid is not None:
            break
        time.sleep(0.005)
    return holder


def hold(folder: Path, command: str, make: bool = True) -> FolderLock:
    """Lock ``folder`` (made if missing, unless ``make`` is False) for this process, or raise
    FolderInUse. OSError when the folder is missing or cannot be made or written."""
    if make:
        folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    for _ in range(10):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
        if not _try_lock(fd):
            os.close(fd)
            raise FolderInUse(folder, _holder(path))
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if not same:  # the holder ended and removed this file between our open and our lock
            os.close(fd)
            continue
        since = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        line = json.dumps({"pid": os.getpid(), "command": command, "since": since}).encode() + b"\n"
        try:  # who holds it, for the second start's message; a full disk does not stop the lock
            os.ftruncate(fd, 0)
            os.write(fd, line)
        except OSError:
            pass
        return FolderLock(path, fd)
    raise FolderInUse(folder, _holder(path))
