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
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from codenames_firmware.tileproto import PROTOCOL

from ..clibase import add_config, add_lang
from ..i18n import Translator
from ..tileboard.firmware_files import board_identity, firmware_files, firmware_folder, identity, stage
from ..tileboard.transfer import BoardLink, InstallFailed, mpremote_command, transfer, wait_back

SERVICE = "codenames-board"  # host/pi/codenames-board.service
SYSTEMCTL = "systemctl"
EXIT_FAILED, EXIT_USAGE = 1, 2


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
    parser.set_defaults(main=main)
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
    from ..clibase import load_config  # the same messages as every command's bad configuration

    config = load_config(args.config_file, tr)
    return None if config is None else config.tiles.port


def _find(port_setting: str) -> str | None:
    from ..tileboard.serial_board import find_board

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

    from ..tileboard.serial_board import stop_board

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


if __name__ == "__main__":  # python -m codenames_board.commands.firmware ACTION ...: the command on its own
    from ..i18n import detect_language

    _tr = Translator(detect_language())
    _parser = argparse.ArgumentParser(prog="codenames-board")
    add_parser(_parser.add_subparsers(dest="command", required=True), _tr)
    sys.exit(main(_parser.parse_args(["firmware", *sys.argv[1:]]), _tr))
