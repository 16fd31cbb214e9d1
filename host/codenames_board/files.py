"""Files a user names (a configuration, a record, a word list, a script): read only when they are
regular files of a size such a file can have. A FIFO would hang the read, /dev/zero or a file of
gigabytes would fill the memory; each is refused before a byte is read.

Below every other module of the package: it imports nothing of it.
"""

from __future__ import annotations

import errno
import os
import stat

MOST_TEXT = 1024 * 1024  # a configuration, a word list or a script: far more than any needs


class NotRegular(ValueError):
    """A pipe, a socket or a device where a file is needed."""


class TooBig(ValueError):
    """A file larger than its kind can be: ``size`` bytes, ``most`` allowed."""

    def __init__(self, size: int, most: int) -> None:
        super().__init__(f"{size} bytes, more than {most}")
        self.size, self.most = size, most


def open_regular(path: str | os.PathLike, most: int):
    """A regular file opened for reading in binary. Raises NotRegular, TooBig, or OSError (a folder:
    IsADirectoryError; missing: FileNotFoundError), before reading anything."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(status.st_mode):
            raise NotRegular(str(path))
        if status.st_size > most:
            raise TooBig(status.st_size, most)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike, most: int = MOST_TEXT) -> bytes:
    """The bytes of a regular file of at most ``most`` bytes (see open_regular); a file that grows
    past ``most`` while it is read is refused too."""
    with open_regular(path, most) as file:
        data = file.read(most + 1)
    if len(data) > most:
        raise TooBig(len(data), most)
    return data

