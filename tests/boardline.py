"""The host's end of a board's pty, spoken to line by line with no driver in between: what the
firmware answers to exactly the lines a test writes (maintenance, refusals)."""

import os
import select
from pathlib import Path

from codenames_firmware.tileproto import LineReader, message
from patience import PATIENCE_S

ANSWERS = (b"ACK", b"ERROR", b"BOARD", b"TUNED", b"MAINT", b"GOT")


class Session:
    def __init__(self, link: Path) -> None:
        self.fd: int | None = os.open(str(link), os.O_RDWR | os.O_NOCTTY)
        self.reader = LineReader()
        self.pending: list[list[bytes]] = []

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def send(self, *fields) -> None:
        os.write(self.fd, message(*fields))

    def expect(self, *kinds: bytes) -> list[bytes]:
        """The next line of one of ``kinds`` (heartbeats and touches are passed over)."""
        while True:
            while self.pending:
                words = self.pending.pop(0)
                if words[0] in kinds:
                    return words
            if not select.select([self.fd], [], [], PATIENCE_S)[0]:
                raise AssertionError(f"no {kinds} from the board within {PATIENCE_S} s")
            data = os.read(self.fd, 4096)
            if not data:
                raise AssertionError("the board went away (its pty hung up)")
            self.pending += self.reader.feed(data)

    def ask(self, *fields, kinds=ANSWERS) -> list[bytes]:
        self.send(*fields)
        return self.expect(*kinds)
