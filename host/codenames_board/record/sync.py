"""Durability: when a record's lines are on the disk, and whether its copy there can be trusted.

Threads: the writer's thread (the table's, or the console's) calls every method; with
:meth:`RecordSync.start` one more thread, ``record-sync``, runs the fsyncs. It starts one as soon
as it is told of a write (at once, or at ``sync_soon``) and takes every line written meanwhile
along (group commit), so the touch's path pays for a ``write`` only. The two share ``durable``,
the size written so far and ``fault`` under one condition; the sync thread never touches the
record's bytes in memory.

Invariants: ``durable`` (bytes an fsync confirmed) never passes the size written. The sync thread
is started only while ``fault`` is None; a failed fsync, or a record removed or replaced under
the writer, sets ``fault``, is reported through ``on_sync_error`` and ends the thread. A fault the
writer finds itself (a cut back that failed) is set through :meth:`fail`. Either way the writer's
next write repairs first, which stops the thread and starts it again (:meth:`repaired`).
"""

from __future__ import annotations

import errno
import logging
import os
import threading
from pathlib import Path

log = logging.getLogger(__name__)


class RecordSync:
    """The fsyncs of one record file, and its fault state.

    :param path: the record, to check after every fsync that its name is still the file synced.
    :param size: the bytes of the record on the disk already (and fsynced) when it is taken on.
    :param on_sync_error: called with the OSError, on the sync thread, when a background fsync fails.

    Until :meth:`start` the writer fsyncs each line itself (and says so through :meth:`wrote`);
    from then on the sync thread does, after a fault as soon as the record is repaired.
    """

    def __init__(self, path: Path, size: int, on_sync_error=None) -> None:
        self.path = path
        self.on_sync_error = on_sync_error
        self.fault: OSError | None = None  # why the disk's copy cannot be trusted until a repair
        self.durable = size  # bytes of the record an fsync has confirmed (what a power cut keeps)
        self.background = False  # fsyncs on the sync thread (from start on, also after repairs)
        self._written = size  # bytes of the record written so far
        self._fd: int | None = None  # the file the sync thread fsyncs
        self._identity: tuple[int, int] | None = None  # that file's device and inode
        self._closing = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """Is a sync thread looking after the writes (one that ended at a fault included)?"""
        return self._thread is not None

    def start(self, fd: int | None) -> None:
        """Hand every later fsync of ``fd`` to the sync thread (not yet at a fault: the repair starts it)."""
        self.background = True
        if self.fault is not None or fd is None:
            return
        self._fd, self._identity = fd, _identity(os.fstat(fd))
        self._closing = False
        self._thread = threading.Thread(target=self._loop, name="record-sync", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Let the sync thread finish its last fsync and end (it has ended already after a fault)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            with self._changed:
                self._closing = True
                self._changed.notify_all()
            thread.join()

    def wrote(self, size: int, notify: bool = True) -> None:
        """The record's file holds ``size`` bytes now. Without a sync thread the writer has fsynced
        them already; with one, its next fsync covers them (``notify``: start it now; else
        :meth:`sync_soon` does)."""
        with self._changed:
            self._written = size
            if self._thread is None:
                self.durable = size
            elif notify:
                self._changed.notify_all()

    def sync_soon(self) -> None:
        """Let the sync thread start an fsync of everything written so far (background sync only)."""
        if self._thread is not None:
            with self._changed:
                if self._written > self.durable:
                    self._changed.notify_all()

    def wait_synced(self, timeout: float | None = None) -> bool:
        """Wait until every line written so far is on the disk; False on a timeout or a fault."""
        if self._thread is None:
            return self.fault is None  # every line was synced before it was accepted
        with self._changed:
            self._changed.wait_for(lambda: self.durable >= self._written or self.fault is not None, timeout)
            return self.durable >= self._written and self.fault is None

    def fail(self, error: OSError) -> None:
        """The disk's copy can no longer be trusted (after a failed fsync Linux marks the lost pages
        clean, so a second fsync would say yes without writing them): only a repair helps."""
        with self._changed:
            self.fault = error
            self._changed.notify_all()

    def repaired(self, fd: int, size: int) -> None:
        """The record was written out anew to ``fd`` and fsynced: trusted again, syncing goes on."""
        with self._changed:
            self.fault = None
            self._written = self.durable = size
        if self.background:
            self.start(fd)

    def _loop(self) -> None:
        changed = self._changed
        while True:
            with changed:
                while self.durable == self._written and not self._closing:
                    changed.wait()
                if self.durable == self._written:
                    return  # closing, and everything is on the disk
                target = self._written
            try:
                os.fsync(self._fd)
                if not self._is_in_place():
                    raise FileNotFoundError(errno.ENOENT, "the record was removed or replaced", str(self.path))
            except OSError as error:
                log.error("%s: cannot keep the record: %s", self.path, error)
                self.fail(error)
                if self.on_sync_error is not None:
                    self.on_sync_error(error)
                return
            with changed:
                self.durable = target
                changed.notify_all()

    def _is_in_place(self) -> bool:
        """Is the record's name still the file this thread fsyncs?"""
        try:
            return _identity(os.stat(self.path)) == self._identity
        except OSError:
            return False


def _identity(status: os.stat_result) -> tuple[int, int]:
    return status.st_dev, status.st_ino
