"""The firmware under the real MicroPython interpreter, on the far end of a real pseudo-terminal."""

import os
import queue
import signal
import subprocess
import time
import tty
from pathlib import Path

import pytest

from needs import micropython as micropython_command

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
SHIMS = ROOT / "host" / "codenames_board" / "unixboard"


class PtyFirmware:
    """A Pico running our firmware, as far as the host can tell: plug it in, touch pads, read its LEDs.

    The host opens ``link`` (a symlink, like the udev rule's /dev/codenames-tiles)
    to the slave side of a pty; the firmware process owns the master side.
    Unplugging kills the process and closes the pty; plugging in again makes a
    new one behind the same link.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.link = directory / "codenames-tiles"
        self.control = directory / "control"
        self.process: subprocess.Popen | None = None
        self._slave: int | None = None
        self.plugs = 0

    @property
    def led_log(self) -> Path:
        return self.directory / f"leds-{self.plugs}"

    def plug(self) -> None:
        self.plugs += 1
        self.control.write_bytes(b"")
        self.led_log.write_bytes(b"")
        master, slave = os.openpty()
        tty.setraw(slave)
        # The firmware reads a whole frame per read on a non-blocking pty (unixboard/unix_stdin.py).
        os.set_blocking(master, False)
        environment = {
            **os.environ,
            "MICROPYPATH": f"{FIRMWARE}:{SHIMS}",
            "TILES_CONTROL": str(self.control),
            "TILES_LEDS": str(self.led_log),
        }
        stderr = open(self.directory / f"stderr-{self.plugs}", "wb")
        self.process = subprocess.Popen(
            [micropython_command(), str(SHIMS / "unix_board.py")],
            stdin=master,
            stdout=master,
            stderr=stderr,
            env=environment,
        )
        stderr.close()
        os.close(master)
        # The test keeps the slave open, so the pty survives the host closing and reopening it.
        self._slave = slave
        temporary = self.directory / "link.tmp"
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(os.ttyname(slave))
        temporary.replace(self.link)

    def unplug(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None
        self.link.unlink(missing_ok=True)

    def command(self, line: str) -> None:
        with open(self.control, "ab") as control:
            control.write(line.encode() + b"\n")

    def touch(self, tile: int, down: bool = True) -> None:
        self.command(f"touch {tile} {1 if down else 0}")

    def led_writes(self) -> list[bytes]:
        return [bytes.fromhex(line) for line in self.led_log.read_text().split()]

    def stderr(self) -> str:
        return (self.directory / f"stderr-{self.plugs}").read_text(errors="replace")


@pytest.fixture
def firmware(tmp_path):
    board = PtyFirmware(tmp_path)
    board.plug()
    yield board
    board.unplug()


class Events:
    """What a tile board reported, with waiting that ends as soon as the event is there."""

    def __init__(self) -> None:
        self.queue: queue.Queue = queue.Queue()
        self.seen: list = []

    def __call__(self, event) -> None:
        self.queue.put(event)

    def wait_for(self, predicate, timeout: float = 10.0):
        deadline = time.monotonic() + timeout
        for event in self.seen:
            if predicate(event):
                self.seen.remove(event)
                return event
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no matching event within {timeout} s; saw {self.seen}")
            try:
                event = self.queue.get(timeout=remaining)
            except queue.Empty:
                continue
            if predicate(event):
                return event
            self.seen.append(event)


@pytest.fixture
def events():
    return Events()


def _wait_until(condition, timeout: float = 10.0, what: str = "condition"):
    """Wait for a condition on a real process's output (files the firmware writes)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.02)


@pytest.fixture
def wait_until():
    return _wait_until
