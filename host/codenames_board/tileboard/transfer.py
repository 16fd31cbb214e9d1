"""The firmware's transfer to the board over the tile protocol's maintenance messages (MAINT, PUT,
DATA, COMMIT: firmware/PROTOCOL.md, "Maintenance"): open the port, handshake, MAINT, every file
in checked lines, COMMIT (the board writes the identity and resets), then wait for it to come
back. Single-threaded; every wait has a deadline. ``codenames-board firmware`` (commands/firmware.py)
is the command around it.
"""

from __future__ import annotations

import base64
import binascii
import errno
import time
from pathlib import Path

from codenames_firmware.tileproto import PROTOCOL, LineReader, message, number

from .firmware_files import IDENTITY_FILE

ANSWER_S = 2.0  # the board answers every line within this (a flash write included)
TRIES = 3  # a line without an answer is sent again (it, or its answer, was damaged)
BACK_S = 20.0  # a reset Pico is back on USB within this (boot, enumeration, udev)
MAX_DATA = 256  # file bytes per DATA line, unless the board's MAINT answer says fewer


class InstallFailed(Exception):
    """A step failed: ``msgid`` (in [firmware_install]) and its parameters say why and what to do."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.params = params


# --- the port


class BoardLink:
    """One open port to the board: lines out, messages in, each wait with a deadline."""

    def __init__(self, port: str) -> None:
        import serial

        self.port = port
        try:
            self.serial = serial.Serial(port, 115200, timeout=0.05, write_timeout=ANSWER_S, exclusive=True)
        except (serial.SerialException, OSError) as error:
            if getattr(error, "errno", None) in (errno.EAGAIN, errno.EBUSY) or "exclusive" in str(error).lower():
                raise InstallFailed("busy", port=port) from None
            raise InstallFailed("port_error", port=port, why=error) from None
        self.reader = LineReader()
        self.raw = bytearray()  # what came in, for telling a bare MicroPython prompt (kept short)

    def close(self) -> None:
        try:
            self.serial.close()
        except OSError:
            pass

    def send(self, *fields: object) -> None:
        import serial

        try:
            self.serial.write(message(*fields))
        except (serial.SerialException, OSError) as error:
            raise InstallFailed("port_error", port=self.port, why=error) from None

    def messages(self, seconds: float):
        """Messages as they arrive, for up to ``seconds``."""
        import serial

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                data = self.serial.read(max(1, self.serial.in_waiting))
            except (serial.SerialException, OSError) as error:
                raise InstallFailed("port_error", port=self.port, why=error) from None
            if data:
                self.raw = (self.raw + data)[-2048:]
                yield from self.reader.feed(data)

    def answer(self, kinds: tuple[bytes, ...], seconds: float = ANSWER_S, expect=lambda words: True) -> list[bytes] | None:
        """The first message of one of ``kinds`` that ``expect`` takes, or an ERROR that answers
        the host (not a tile's news), or None after ``seconds``. A late answer to a line sent
        before (its repeat's) is passed over."""
        for words in self.messages(seconds):
            if words[0] in kinds and expect(words):
                return words
            if words[0] == b"ERROR" and words[1:2] in ([b"maint"], [b"unknown"], [b"syntax"], [b"protocol"]):
                return words
        return None

    def hello(self) -> str:
        """Handshake: the board's firmware field (``0.1.0+3f2a9c1b7e01``)."""
        self.send("HELLO", PROTOCOL)
        words = self.answer((b"BOARD",))
        if words is None:
            if any(sign in self.raw for sign in (b">>>", b"Traceback", b"MicroPython")):
                raise InstallFailed("bare_micropython", port=self.port)
            raise InstallFailed("no_answer", port=self.port)
        if words[0] == b"ERROR":
            if words[1:2] == [b"protocol"]:
                raise InstallFailed("old_firmware", port=self.port)
            raise InstallFailed("refused", port=self.port, what="HELLO", detail=_text(words[1:]))
        try:
            protocol = number(words[1])
            firmware = words[2].decode()
        except (IndexError, ValueError, UnicodeDecodeError):
            raise InstallFailed("no_answer", port=self.port) from None
        if protocol != PROTOCOL:
            raise InstallFailed("old_firmware", port=self.port)
        return firmware


def _text(words: list[bytes]) -> str:
    return b" ".join(words).decode("ascii", "replace")


# --- the transfer (PROTOCOL.md, "Maintenance")


def transfer(link: BoardLink, files: dict[str, bytes], firmware_id: str, say=lambda name, size: None) -> None:
    """MAINT, every file (PUT, DATA...), COMMIT: the board has them and resets. Raises InstallFailed."""
    total = sum(len(content) for content in files.values())
    words = _exchange(link, ("MAINT", total), (b"MAINT",), "MAINT")
    try:
        chunk = min(MAX_DATA, number(words[2]))
    except (IndexError, ValueError):
        chunk = MAX_DATA
    chunk = chunk or MAX_DATA  # a board that says 0 would make the transfer loop forever
    for name, content in files.items():
        crc = "%08x" % (binascii.crc32(content) & 0xFFFFFFFF)
        _exchange(link, ("PUT", name, len(content), crc), (b"GOT",), name, _got(name, 0))  # GOT name 0: ready
        for offset in range(0, len(content), chunk):
            part = content[offset : offset + chunk]
            _exchange(link, ("DATA", offset, base64.b64encode(part)), (b"GOT",), name, _got(name, offset + len(part)))
        say(name, len(content))
    # COMMIT once: the board resets right after DONE, so a DONE lost on the way (or the port gone
    # before it was read) is not worth a second COMMIT; the handshake after the reset tells
    # whether the new files run.
    link.send("COMMIT", firmware_id)
    try:
        words = link.answer((b"DONE",), 2 * ANSWER_S)
    except InstallFailed:  # the port went away under the read: the reset came first
        return
    if words is not None and words[0] == b"ERROR":
        raise InstallFailed("refused", port=link.port, what="COMMIT", detail=_text(words[1:]))


def _got(name: str, size: int):
    expected = [b"GOT", name.encode(), b"%d" % size]
    return lambda words: words == expected


def _exchange(link: BoardLink, fields: tuple, kinds: tuple[bytes, ...], what: str, expect=lambda words: True) -> list[bytes]:
    """Send a line and wait for its answer, sending it again up to TRIES times; an ERROR stops it all."""
    for _ in range(TRIES):
        link.send(*fields)
        words = link.answer(kinds, expect=expect)
        if words is None:
            continue
        if words[0] == b"ERROR":
            if words[1:3] == [b"unknown", b"MAINT"]:
                raise InstallFailed("old_firmware", port=link.port)
            raise InstallFailed("refused", port=link.port, what=what, detail=_text(words[1:]))
        return words
    raise InstallFailed("timeout", port=link.port, what=what)


def wait_back(find, port_setting: str, seconds: float = BACK_S) -> tuple[str, str]:
    """After the reset: (port, firmware field) once the board answers HELLO again."""
    deadline = time.monotonic() + seconds
    time.sleep(0.2)  # the old port goes away first
    while time.monotonic() < deadline:
        port = find(port_setting)
        if port is not None:
            try:
                link = BoardLink(port)
            except InstallFailed:
                link = None
            if link is not None:
                try:
                    return port, link.hello()
                except InstallFailed:
                    pass
                finally:
                    link.close()
        time.sleep(0.2)
    raise InstallFailed("not_back", port=port_setting, seconds=int(seconds))


def mpremote_command(port: str, folder: Path, files: dict[str, bytes]) -> str:
    """The mpremote line that copies staged files (the identity file before main.py) and resets."""
    names = [name for name in files if name != "main.py"] + [IDENTITY_FILE] + (["main.py"] if "main.py" in files else [])
    sources = " ".join(str(folder / name) for name in names)
    return f"mpremote connect {port} cp {sources} : + reset"
