"""Repair: a record written out anew from memory, and rewrites a restart cut off finished.

:func:`rewrite` writes the whole record beside the old one (``NAME.jsonl.rewrite``), fsyncs it and
renames it over the old one, so the name holds at every moment one whole copy: the old one or the
new one. The writer calls it after a fault (a failed fsync may have lost lines the kernel now
calls clean; a record removed under the writer is made again, its folder too).
:func:`finish_rewrites`, at a table's start, deals with a rename a power cut or a kill prevented.

No thread and no state of its own: the writer's thread calls it, with the sync thread stopped.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .format import RecordError, parse_record, read_record_bytes

log = logging.getLogger(__name__)

REWRITE_SUFFIX = ".rewrite"  # the new copy, before it is renamed over the record


def rewrite(path: Path, content: bytes) -> int:
    """Make ``path`` hold exactly ``content``, durably, through a new file renamed over it.

    Returns the new file's descriptor, open for appending. Raises OSError while the disk fails,
    and leaves no new copy behind then (the old file, whatever it holds, stays where it was).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(path.name + REWRITE_SUFFIX)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_BINARY", 0), 0o644)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.replace(temp, path)
    except OSError:
        os.close(fd)
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    fsync_directory(path.parent)
    return fd


def fsync_directory(path: Path) -> None:
    """Make a new name in the folder ``path`` durable (as far as the system lets a folder be synced)."""
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


def finish_rewrites(folder: Path) -> None:
    """Records whose rewrite (see :func:`rewrite`) was cut off by a power cut or a kill.

    Both copies are a beginning of the same lines (the record gets nothing new while it is
    being rewritten), and a power cut may cut either short, even at a line's end. So the copy
    with more whole lines wins: the rewrite takes the record's place if it extends what the
    record holds, and is removed otherwise.
    """
    try:
        leftovers = sorted(folder.glob("*.jsonl" + REWRITE_SUFFIX))
    except OSError:
        return
    for temp in leftovers:
        record = temp.with_name(temp.name[: -len(REWRITE_SUFFIX)])
        new, new_good = _whole_lines(temp)
        old, old_good = _whole_lines(record)
        try:
            if new_good > old_good and new[:old_good] == old[:old_good]:
                os.replace(temp, record)
                log.warning("%s: finished a rewrite cut off by a restart", record)
            else:
                temp.unlink()
        except OSError as error:
            log.error("%s: cannot finish or remove: %s", temp, error)


def _whole_lines(path: Path) -> tuple[bytes, int]:
    """A copy's bytes and the length of its part made of whole lines; nothing for a copy unread."""
    try:
        data = read_record_bytes(path)
        return data, parse_record(data).good_bytes
    except (RecordError, OSError):
        return b"", 0
