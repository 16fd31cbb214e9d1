"""``codenames-board firmware install|status|stop|path``: the tile board's firmware from the host.

``install`` puts the firmware this package ships (``codenames_firmware``)
onto the Pico over the tile protocol's maintenance messages (MAINT, PUT,
DATA, COMMIT: firmware/PROTOCOL.md, "Maintenance"), so neither mpremote nor
the REPL is needed once our firmware runs: open the port, handshake, MAINT,
every file in checked lines, COMMIT (the board writes the identity and
resets), wait for it to come back, handshake again and check protocol and
identity. The systemd service holds the port while it plays, so it is
stopped first and started again afterwards, whatever happened. A Pico with
only stock MicroPython (the very first install) or too old a firmware cannot
take the messages: then the exact mpremote command line is printed, with the
files and the identity staged in a folder for it.

Single-threaded; every wait has a deadline. ``main(args, tr)`` returns the
exit code: 0 done, 1 failed (the message says why and what to do), 2 a bad
configuration.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import errno
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from codenames_firmware.tileproto import PROTOCOL, LineReader, message, number

from .clibase import add_config, add_lang
from .i18n import Translator
from .tileboard.firmware_files import (
    IDENTITY_FILE,
    board_identity,
    firmware_files,
    firmware_folder,
    identity,
    stage,
)

SERVICE = "codenames-board"  # host/pi/codenames-board.service
SYSTEMCTL = "systemctl"
ANSWER_S = 2.0  # the board answers every line within this (a flash write included)
TRIES = 3  # a line without an answer is sent again (it, or its answer, was damaged)
BACK_S = 20.0  # a reset Pico is back on USB within this (boot, enumeration, udev)
MAX_DATA = 256  # file bytes per DATA line, unless the board's MAINT answer says fewer
EXIT_FAILED, EXIT_USAGE = 1, 2


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


# --- the systemd service, which holds the port while it plays


class Service:
    """``systemctl`` for the table's service: is it active, stop it, start it again."""

    def __init__(self, name: str | None = None, systemctl: str | None = None) -> None:
        self.name = name or SERVICE
        self.systemctl = systemctl or SYSTEMCTL

    def _run(self, *words: str) -> subprocess.CompletedProcess | None:
        try:
            return subprocess.run([self.systemctl, *words, self.name], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None  # no systemd here (a laptop, a container)

    def active(self) -> bool:
        result = self._run("is-active", "--quiet")
        return result is not None and result.returncode == 0

    def stop(self) -> str | None:
        """None when stopped, else why not."""
        result = self._run("stop")
        if result is None or result.returncode:
            return (result.stderr.strip() if result is not None else "") or "systemctl stop failed"
        return None

    def start(self) -> str | None:
        result = self._run("start")
        if result is None or result.returncode:
            return (result.stderr.strip() if result is not None else "") or "systemctl start failed"
        return None


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


# --- the command


def add_parser(subparsers, tr: Translator) -> argparse.ArgumentParser:
    """``codenames-board firmware ACTION [--port PORT] [--config FILE] [--force]``."""
    parser = subparsers.add_parser("firmware", help=tr("firmware_install.help"), description=tr("firmware_install.help"))
    parser.add_argument("action", choices=["install", "status", "stop", "path"], help=tr("firmware_install.help_action"))
    where = parser.add_mutually_exclusive_group()  # the port, or the configuration that names it
    where.add_argument("--port", default=None, metavar="PORT", help=tr("cli.port"))
    add_config(where, tr)
    parser.add_argument("--force", action="store_true", help=tr("firmware_install.help_force"))
    add_lang(parser, tr)
    return parser


def main(args: argparse.Namespace, tr: Translator) -> int:
    if args.action == "path":
        print(firmware_folder())
        return 0
    port_setting = _port_setting(args, tr)
    if port_setting is None:
        return EXIT_USAGE
    if args.action == "stop":
        return _stop(port_setting, tr)
    if args.action == "status":
        return _status(port_setting, tr)
    return install(port_setting, tr, force=args.force)


def _port_setting(args: argparse.Namespace, tr: Translator) -> str | None:
    """--port, else the configuration's [tiles] port (as ``run`` finds it); None after a config error."""
    if args.port:
        return args.port
    from .clibase import load_config  # the same messages as every command's bad configuration

    config = load_config(args.config_file, tr)
    return None if config is None else config.tiles.port


def _find(port_setting: str) -> str | None:
    from .tileboard.serial_board import find_board

    return find_board(port_setting)


def _fail(error: InstallFailed, tr: Translator) -> int:
    print(tr(f"firmware_install.{error.msgid}", **error.params), file=sys.stderr)
    return EXIT_FAILED


def install(port_setting: str, tr: Translator, force: bool = False, service: Service | None = None) -> int:
    """The whole install; the service stopped around it (and started again whatever happened)."""
    service = Service() if service is None else service
    if not service.active():
        return _install(port_setting, tr, force)
    if not is_root():
        print(tr("firmware_install.service_not_root", service=service.name), file=sys.stderr)
        return EXIT_FAILED
    print(tr("firmware_install.service_stopping", service=service.name))
    why = service.stop()
    if why is not None:
        print(tr("firmware_install.service_stop_failed", service=service.name, why=why), file=sys.stderr)
        service.start()  # a stop that failed half way: it should play on
        return EXIT_FAILED
    try:
        return _install(port_setting, tr, force)
    finally:
        why = service.start()
        if why is None:
            print(tr("firmware_install.service_started", service=service.name))
        else:
            print(tr("firmware_install.service_start_failed", service=service.name, why=why), file=sys.stderr)


def _found(port_setting: str, tr: Translator) -> str | None:
    """The board's port, or None after saying in one line that no board was found."""
    port = _find(port_setting)
    if port is None:
        print(tr("firmware.no_board", port=port_setting), file=sys.stderr)
    return port


def _install(port_setting: str, tr: Translator, force: bool) -> int:
    files = firmware_files()
    shipped = identity(files)
    port = _found(port_setting, tr)
    if port is None:
        return EXIT_FAILED
    try:
        link = BoardLink(port)
    except InstallFailed as error:
        return _fail(error, tr)
    try:
        firmware = link.hello()
        print(tr("firmware_install.found", port=port, firmware=firmware, shipped=shipped))
        if board_identity(firmware) == shipped and not force:
            print(tr("firmware_install.up_to_date", identity=shipped))
            return 0
        print(tr("firmware_install.sending", count=len(files), size=sum(map(len, files.values()))))
        transfer(link, files, shipped, lambda name, size: print(tr("firmware_install.sent_file", name=name, size=size)))
    except InstallFailed as error:
        if error.msgid in ("bare_micropython", "old_firmware"):
            return _by_mpremote(error, link, port, files, tr)
        return _fail(error, tr)
    finally:
        link.close()
    print(tr("firmware_install.restarting"))
    try:
        port, firmware = wait_back(_find, port_setting)
    except InstallFailed as error:
        return _fail(error, tr)
    if board_identity(firmware) != shipped:
        return _fail(InstallFailed("still_other", port=port, firmware=firmware, shipped=shipped), tr)
    print(tr("firmware_install.installed", port=port, protocol=PROTOCOL, firmware=firmware))
    return 0


def _by_mpremote(error: InstallFailed, link: BoardLink, port: str, files: dict[str, bytes], tr: Translator) -> int:
    """A board that cannot take MAINT: stage the files and the identity, print the mpremote line.
    An older firmware of ours is asked to STOP first, which frees the REPL for mpremote."""
    if error.msgid == "old_firmware":
        link.send("STOP")
        link.answer((b"BYE",))
    folder = Path(tempfile.mkdtemp(prefix="codenames-firmware-"))
    stage(folder, files)
    print(tr(f"firmware_install.{error.msgid}", port=port), file=sys.stderr)
    print(mpremote_command(port, folder, files), file=sys.stderr)
    print(tr("firmware_install.mpremote_hint"), file=sys.stderr)
    return EXIT_FAILED


def _status(port_setting: str, tr: Translator) -> int:
    shipped = identity(firmware_files())
    port = _found(port_setting, tr)
    if port is None:
        return EXIT_FAILED
    try:
        link = BoardLink(port)
        try:
            firmware = link.hello()
        finally:
            link.close()
    except InstallFailed as error:
        return _fail(error, tr)
    print(tr("firmware_install.found", port=port, firmware=firmware, shipped=shipped))
    if board_identity(firmware) == shipped:
        print(tr("firmware_install.up_to_date", identity=shipped))
        return 0
    print(tr("firmware_install.other_firmware"))
    return EXIT_FAILED


def _stop(port_setting: str, tr: Translator) -> int:
    """STOP: the board restarts with the REPL free for mpremote (firmware/README.md)."""
    import serial

    from .tileboard.serial_board import stop_board

    port = _found(port_setting, tr)
    if port is None:
        return EXIT_FAILED
    try:
        stopped = stop_board(port)
    except (serial.SerialException, OSError) as error:
        print(tr("firmware.port_error", port=port, why=error), file=sys.stderr)
        return EXIT_FAILED
    if not stopped:
        print(tr("firmware.no_answer", port=port), file=sys.stderr)
        return EXIT_FAILED
    print(tr("firmware.stopped", port=port))
    return 0


if __name__ == "__main__":  # python -m codenames_board.firmware_install ACTION ...: before cli.py registers it
    from .i18n import detect_language

    _tr = Translator(detect_language())
    _parser = argparse.ArgumentParser(prog="codenames-board")
    add_parser(_parser.add_subparsers(dest="command", required=True), _tr)
    sys.exit(main(_parser.parse_args(["firmware", *sys.argv[1:]]), _tr))
