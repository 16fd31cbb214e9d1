"""`codenames-board firmware install|status`: new firmware over the tile protocol (MAINT, PUT, DATA,
COMMIT) onto the real firmware under MicroPython's unix port on a pty, whose flash is a folder."""

import argparse
import base64
import binascii
import os
import re
import subprocess
import sys
import tty
from datetime import datetime, timezone
from pathlib import Path

import pytest

from codenames_board.commands import firmware as firmware_install
from codenames_board.config import parse
from codenames_board.i18n import Translator
from codenames_board.sounds import Sounder
from codenames_board.table import Table
from codenames_board.tileboard import BoardConnected, VirtualTileBoard
from codenames_board.tileboard.firmware_files import firmware_files, identity, shipped_identity
from codenames_board.tileboard.serial_board import SerialTileBoard
from codenames_firmware.tileproto import PROTOCOL, decode
from boardline import Session
from needs import micropython

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"

EN = Translator("en")
OTHER_FIRMWARE = "the tile board runs other firmware than this codenames-board ships: codenames-board firmware install"


def old_files() -> dict[str, bytes]:
    """The shipped firmware with one constant changed: another identity, and a version to tell it by."""
    files = firmware_files(FIRMWARE)
    files["board.py"] = files["board.py"].replace(b'FIRMWARE_VERSION = "0.1.0"', b'FIRMWARE_VERSION = "0.0.9"')
    assert identity(files) != shipped_identity()
    return files


@pytest.fixture
def old_board(flashed_firmware):
    """A board whose flash holds the old firmware (with its identity), plugged in."""
    board = flashed_firmware(old_files())
    board.plug()
    return board


@pytest.fixture
def no_service(tmp_path, monkeypatch):
    """systemctl as on a laptop: the table's service is not running (the calls are recorded)."""
    return fake_systemctl(tmp_path, monkeypatch, active=False)


def fake_systemctl(tmp_path, monkeypatch, active):
    # systemd cannot run in a test: a systemctl that says whether the unit is active and logs its calls.
    calls = tmp_path / "systemctl-calls"
    script = tmp_path / "systemctl"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> "{calls}"\n'
        f'[ "$1" = is-active ] && exit {0 if active else 3}\n'
        "exit 0\n"
    )
    script.chmod(0o755)
    monkeypatch.setattr(firmware_install, "SYSTEMCTL", str(script))
    return calls


def install_args(port, action="install", force=False):
    return argparse.Namespace(action=action, port=str(port), config_file=None, force=force)


def flash_files(board) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in board.flash.glob("*.py")}


@pytest.fixture
def session(old_board):
    talk = Session(old_board.link)
    talk.send("HELLO", PROTOCOL)
    board_line = talk.expect(b"BOARD")
    assert board_line[2] == f"0.0.9+{identity(old_files())}".encode()
    yield talk
    talk.close()


# --- the whole install


def test_install_puts_the_shipped_firmware_on_the_board_and_it_comes_back_with_its_identity(old_board, no_service, events, capsys):
    assert firmware_install.main(install_args(old_board.link), EN) == 0
    out = capsys.readouterr().out
    shipped = shipped_identity()
    assert f"firmware 0.0.9+{identity(old_files())}; this codenames-board ships {shipped}." in out
    assert f"Done: the tile board on {old_board.link} runs the shipped firmware 0.1.0+{shipped} (protocol {PROTOCOL})." in out
    assert old_board.resets == 1  # COMMIT reset the board once; it came back on the same link
    assert flash_files(old_board) == firmware_files(FIRMWARE)
    assert (old_board.flash / "fwid.txt").read_text() == shipped + "\n"
    assert not [path.name for path in old_board.flash.iterdir() if path.suffix == ".new" or "fwcommit" in path.name]
    assert no_service.read_text().split("\n")[0] == "is-active --quiet codenames-board"  # and nothing else
    assert no_service.read_text().count("\n") == 1

    # The status LEDs filled amber as the files came (default brightness 64 of 255), the tiles dark.
    writes = [write for write in (bytes.fromhex(line) for line in (old_board.directory / "leds-1").read_text().split())]
    assert any(write[: 3 * 25] == bytes(75) and write[3 * 25 :] == bytes([64, 32, 0]) * 12 for write in writes)

    # and the host's driver finds the shipped firmware there: nothing to say
    host = SerialTileBoard(port=str(old_board.link), on_event=events).start()
    try:
        connected = events.wait_for(lambda event: isinstance(event, BoardConnected))
        assert connected.firmware == f"0.1.0+{shipped}" and not connected.other_firmware
    finally:
        host.close()


def test_install_when_the_board_runs_the_shipped_firmware_does_nothing_unless_forced(firmware, no_service, capsys):
    assert firmware_install.main(install_args(firmware.link), EN) == 0
    assert f"The board runs the shipped firmware ({shipped_identity()}): nothing to install" in capsys.readouterr().out
    assert firmware.resets == 0
    assert firmware_install.main(install_args(firmware.link, force=True), EN) == 0
    assert "Done: the tile board" in capsys.readouterr().out
    assert firmware.resets == 1


def test_status_says_which_firmware_the_board_runs_as_a_module_command(old_board, run_cli):
    command = [sys.executable, "-m", "codenames_board.commands.firmware", "status", "--port", str(old_board.link)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, env={**os.environ, "CODENAMES_BOARD_LANG": "en"})
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        f"Tile board on {old_board.link}: firmware 0.0.9+{identity(old_files())}; this codenames-board ships {shipped_identity()}.",
        OTHER_FIRMWARE,
    ]


# --- a transfer cut short, garbage, bad files


def test_a_transfer_cut_in_the_middle_leaves_the_old_firmware_working(old_board, session):
    before = flash_files(old_board)
    app = (FIRMWARE / "app.py").read_bytes()
    assert session.ask("MAINT", len(app), kinds=(b"MAINT",)) == [b"MAINT", b"1", b"256"]
    assert session.ask("PUT", "app.py", len(app), "%08x" % binascii.crc32(app)) == [b"GOT", b"app.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(app[:256])) == [b"GOT", b"app.py", b"256"]
    assert (old_board.flash / "app.py.new").read_bytes() == app[:256]  # beside the old file, not over it
    session.close()  # the host goes away mid-file (a cable pulled, the installer killed)

    # The next host says HELLO: maintenance is over, the half file gone, the old firmware plays.
    again = Session(old_board.link)
    try:
        again.send("HELLO", PROTOCOL)
        assert again.expect(b"BOARD")[2] == f"0.0.9+{identity(old_files())}".encode()
        assert flash_files(old_board) == before
        assert not list(old_board.flash.glob("*.new"))
        old_board.touch(12)
        assert again.expect(b"TOUCH")[2:] == [b"12", b"1"]
    finally:
        again.close()
    assert old_board.resets == 0 and old_board.process.poll() is None


def test_garbage_during_maintenance_is_refused_with_a_clear_line_and_changes_nothing(old_board, session):
    before = flash_files(old_board)
    session.ask("MAINT", 100, kinds=(b"MAINT",))
    assert session.ask("FRAME", 1, "00" * 3 * 37) == [b"ERROR", b"maint", b"refused", b"FRAME"]
    assert session.ask("HULLO") == [b"ERROR", b"maint", b"refused", b"HULLO"]
    os.write(session.fd, b"\x00\xff line noise without a checksum\n")  # dropped as damaged, no answer
    assert session.ask("PUT", "../main.py", 3, "00000000") == [b"ERROR", b"maint", b"name", b"../main.py"]
    assert session.ask("PUT", "fwid.txt", 3, "00000000") == [b"ERROR", b"maint", b"name", b"fwid.txt"]
    assert session.ask("PUT", "big.py", 70000, "00000000") == [b"ERROR", b"maint", b"size", b"big.py", b"70000"]
    assert session.ask("PUT", "x.py", 3, "nothex!!") == [b"ERROR", b"maint", b"syntax", b"PUT"]
    assert session.ask("DATA", 0, base64.b64encode(b"abc")) == [b"ERROR", b"maint", b"state", b"DATA"]
    assert session.ask("COMMIT", "abcdef") == [b"ERROR", b"maint", b"missing", b"-"]

    # A file whose bytes do not match PUT's CRC is dropped; one out of order is refused.
    assert session.ask("PUT", "x.py", 6, "%08x" % binascii.crc32(b"abcdef")) == [b"GOT", b"x.py", b"0"]
    assert session.ask("DATA", 3, base64.b64encode(b"def")) == [b"ERROR", b"maint", b"offset", b"x.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(b"abc")) == [b"GOT", b"x.py", b"3"]
    assert session.ask("DATA", 0, base64.b64encode(b"abc")) == [b"GOT", b"x.py", b"3"]  # a repeat: answered again
    assert session.ask("DATA", 3, base64.b64encode(b"xyz")) == [b"ERROR", b"maint", b"crc", b"x.py"]
    assert not list(old_board.flash.glob("x.py*"))

    # Still in maintenance and still sane: a good file arrives; HELLO ends it without COMMIT.
    assert session.ask("PUT", "x.py", 3, "%08x" % binascii.crc32(b"abc")) == [b"GOT", b"x.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(b"abc")) == [b"GOT", b"x.py", b"3"]
    session.send("HELLO", PROTOCOL)
    assert session.expect(b"BOARD")[2] == f"0.0.9+{identity(old_files())}".encode()
    assert flash_files(old_board) == before and not list(old_board.flash.glob("x.py*"))


def test_a_commit_cut_short_by_a_power_cut_is_finished_at_the_next_start(flashed_firmware, wait_until):
    # COMMIT's journal is in place and one file is renamed when the power goes: the next start
    # renames the rest, writes the identity and starts once more, with the new files.
    board = flashed_firmware(old_files())
    shipped = firmware_files(FIRMWARE)
    for name, content in shipped.items():
        (board.flash / f"{name}.new").write_bytes(content)
    (board.flash / "fwcommit.txt").write_text(shipped_identity() + "\n" + "\n".join(shipped) + "\n")
    os.replace(board.flash / "app.py.new", board.flash / "app.py")
    board.plug()
    wait_until(lambda: board.resets == 1, what="the start that finishes the journal and resets")
    talk = Session(board.link)
    talk.send("HELLO", PROTOCOL)
    assert talk.expect(b"BOARD")[2] == f"0.1.0+{shipped_identity()}".encode()
    talk.close()
    assert flash_files(board) == shipped
    assert not list(board.flash.glob("*.new")) and not (board.flash / "fwcommit.txt").exists()


# --- the host says so when the board runs other firmware


def test_the_host_says_once_when_the_board_runs_other_firmware(old_board, events, tmp_path):
    host = SerialTileBoard(port=str(old_board.link), on_event=events).start()
    try:
        connected = events.wait_for(lambda event: isinstance(event, BoardConnected))
    finally:
        host.close()
    assert connected.firmware == f"0.0.9+{identity(old_files())}" and connected.other_firmware

    # The table shows it as a notice, once however often the board reconnects.
    config = parse(f'state_dir = "{tmp_path / "state"}"\n')
    clock = lambda: 1000.0  # noqa: E731
    table = Table(
        config, EN, VirtualTileBoard(status_leds=12), clock, sounder=Sounder(enabled=False), new_seed=lambda: 7,
        wall_clock=lambda: datetime(2026, 11, 22, 20, 0, tzinfo=timezone.utc),
    )
    try:
        table.start()
        table.handle(connected)
        table.handle(connected)
        assert [notice.text(EN) for notice in table.ui.notices] == [OTHER_FIRMWARE]
    finally:
        table.close()

    # A board that reports no identity (older firmware, copied by hand) is other firmware too.
    unknown = BoardConnected("x", PROTOCOL, "0.1.0", 25, 12, True)
    from codenames_board.tileboard.firmware_files import runs_shipped

    assert not runs_shipped(unknown.firmware) and runs_shipped(f"0.1.0+{shipped_identity()}")


def test_every_language_says_it_in_one_line():
    for language in ("en", "de", "da", "et", "id"):
        text = Translator(language)("firmware_install.other_firmware")
        assert "\n" not in text and text.endswith("codenames-board firmware install")


# --- first install, and the service


def test_a_pico_with_only_micropython_gets_the_exact_mpremote_command(tmp_path, no_service, capsys):
    # A bare MicroPython REPL on a pty: the unix port, interactive, as a fresh Pico answers.
    master, slave = os.openpty()
    tty.setraw(slave)
    repl = subprocess.Popen([micropython(), "-i"], stdin=master, stdout=master, stderr=master, env={**os.environ, "MICROPYPATH": str(tmp_path)})
    os.close(master)
    link = tmp_path / "ttyACM0"
    link.symlink_to(os.ttyname(slave))
    try:
        assert firmware_install.main(install_args(link), EN) == 1
    finally:
        repl.kill()
        repl.wait()
        os.close(slave)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"{link}: the Pico runs MicroPython without the codenames-board firmware. Install it once with mpremote (files staged with their identity):"
    command = err[1]
    match = re.fullmatch(rf"mpremote connect {re.escape(str(link))} cp (.+) : \+ reset", command)
    assert match, command
    sources = [Path(source) for source in match.group(1).split()]
    assert [source.name for source in sources][-2:] == ["fwid.txt", "main.py"]  # main.py last: it runs at power-up
    assert {source.name for source in sources} == set(firmware_files(FIRMWARE)) | {"fwid.txt"}
    assert {source.name: source.read_bytes() for source in sources if source.suffix == ".py"} == firmware_files(FIRMWARE)
    assert sources[0].with_name("fwid.txt").read_text() == shipped_identity() + "\n"
    assert err[2].startswith("(mpremote on Raspberry Pi OS: pipx install mpremote")


def test_our_older_firmware_without_maintenance_is_stopped_for_mpremote(flashed_firmware, no_service, capsys):
    # A board of ours from before MAINT (answers it ERROR unknown MAINT), its files copied by hand (no identity).
    files = firmware_files(FIRMWARE)
    files["app.py"] = files["app.py"].replace(b'kind == b"MAINT"', b'kind == b"MAINT-TO-COME"')
    board = flashed_firmware()
    board.flash.mkdir()
    for name, content in files.items():
        (board.flash / name).write_bytes(content)
    board.plug()
    assert firmware_install.main(install_args(board.link), EN) == 1
    out, err = capsys.readouterr()
    assert f"{board.link}: firmware 0.1.0; this codenames-board ships {shipped_identity()}." in out
    err = err.splitlines()
    assert err[0].startswith(f"{board.link}: the board's firmware is too old to be updated over the tile protocol;")
    assert err[1].startswith(f"mpremote connect {board.link} cp ") and err[1].endswith("/main.py : + reset")
    assert board.process.wait(timeout=10) == 0  # it said BYE to STOP: the REPL is free for mpremote
    assert flash_files(board) == files


def test_a_running_service_is_stopped_for_the_install_and_started_again_even_when_it_fails(tmp_path, monkeypatch, capsys):
    calls = fake_systemctl(tmp_path, monkeypatch, active=True)
    monkeypatch.setattr(firmware_install, "is_root", lambda: True)
    assert firmware_install.main(install_args(tmp_path / "no-board"), EN) == 1  # no board there: it fails
    assert calls.read_text().splitlines() == [
        "is-active --quiet codenames-board",
        "stop codenames-board",
        "start codenames-board",
    ]
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "Stopping the codenames-board service for the install (it holds the tile board's port).",
        "The codenames-board service is started again.",
    ]
    assert err.splitlines() == [f"no tile board found ({tmp_path / 'no-board'}): plug the Pico in, or name its port with --port"]


def test_without_root_a_running_service_is_one_line_and_left_alone(tmp_path, monkeypatch, capsys):
    calls = fake_systemctl(tmp_path, monkeypatch, active=True)
    monkeypatch.setattr(firmware_install, "is_root", lambda: False)
    assert firmware_install.main(install_args(tmp_path / "no-board"), EN) == 1
    assert calls.read_text().splitlines() == ["is-active --quiet codenames-board"]
    assert capsys.readouterr().err.splitlines() == [
        "The codenames-board service is running and holds the tile board's port: run this with sudo, "
        "or stop the service first (sudo systemctl stop codenames-board)."
    ]


def test_a_port_held_by_the_running_table_is_named_as_busy(firmware, no_service, events, capsys):
    host = SerialTileBoard(port=str(firmware.link), on_event=events).start()  # run holds it exclusively
    try:
        events.wait_for(lambda event: isinstance(event, BoardConnected))
        assert firmware_install.main(install_args(firmware.link), EN) == 1
    finally:
        host.close()
    assert capsys.readouterr().err.splitlines() == [
        f"{firmware.link} is in use by another program (a running codenames-board run?): stop it first, then try again."
    ]


# --- the documentation


def test_protocol_md_maintenance_examples_decode():
    text = (ROOT / "firmware" / "PROTOCOL.md").read_text("utf-8")
    section = text.split("## Maintenance", 1)[1].split("\n## ", 1)[0]
    lines = [line for block in re.findall(r"```\n(.*?)```", section, flags=re.S) for line in block.splitlines() if line[:2] in ("> ", "< ")]
    assert len(lines) >= 8
    for line in lines:
        words = decode(line[2:].encode())
        assert words is not None, f"{line!r}: bad checksum"
        if line.startswith("<"):
            assert words[0] in (b"BOARD", b"MAINT", b"GOT", b"DONE", b"ERROR"), line
            assert words[0] != b"ERROR" or words[1] == b"maint", line
