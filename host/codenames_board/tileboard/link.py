"""The tile board's port: finding it, opening it, lines in and out, and the thread that keeps it open.

``SerialLink`` owns the port and the reader thread. The thread finds the
board, opens its port and hands it to the session (``handshake()``, then
``serve()`` until something goes wrong); on any trouble it closes the port and
tries again after a pause that grows along ``BACKOFF_S``, saying once that no
board is there rather than once a try.

``write()`` runs on any thread that holds the driver's lock (the controller's
in ``show()``, the reader thread's for heartbeats and repairs): one line, all
at once, and a failure is only logged, because the reader thread notices the
lost port and reconnects. ``read_messages()`` belongs to the reader thread.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from typing import Callable, Protocol

import serial
from serial.tools import list_ports

from codenames_firmware.tileproto import LineReader, message

from .base import BoardDisconnected, EventCallback, TileBoard

# Every part of the serial driver logs under the one name its users filter on and the tests read.
log = logging.getLogger(f"{__package__}.serial_board")

PICO_VID, MICROPYTHON_PID = 0x2E8A, 0x0005  # Raspberry Pi's vendor id, MicroPython's product id
STABLE_NAME = "/dev/codenames-tiles"  # made by the udev rule in host/pi/
BEAT_S = 0.25
BACKOFF_S = (0.25, 0.5, 1.0, 2.0, 4.0)
WRITE_TIMEOUT_S = 0.5
READ_SIZE = 4096


class LinkDown(Exception):
    """The board went away (unplugged, silent, refused the handshake)."""


class Served(Protocol):
    """What the reader thread runs on each port it opens (``session.Session``)."""

    def handshake(self) -> None: ...

    def serve(self) -> None: ...


def find_board(configured: str | None = None) -> str | None:
    """The board's serial port: the configured path, else the udev name, else a MicroPython Pico by USB id."""
    if configured and configured != "auto":
        return configured if os.path.exists(configured) else None
    if os.path.exists(STABLE_NAME):
        return STABLE_NAME
    for port in sorted(list_ports.comports(), key=lambda port: port.device):
        if port.vid == PICO_VID and port.pid == MICROPYTHON_PID:
            return port.device
    return None


def stop_board(port: str, timeout: float = 3.0) -> bool:
    """Send STOP: the firmware says BYE and restarts for maintenance (see firmware/README.md)."""
    with serial.Serial(port, 115200, timeout=0.1, write_timeout=WRITE_TIMEOUT_S) as link:
        reader = LineReader()
        link.write(message("STOP"))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                data = link.read(max(1, link.in_waiting))
            except (serial.SerialException, OSError):
                # The port went away under the read: the board restarts after BYE, and a host
                # slower than that restart loses the BYE with the port. It stopped all the same.
                return True
            for words in reader.feed(data):
                if words[0] == b"BYE":
                    return True
    return False


class SerialLink:
    """``SerialLink(board, port_setting, find, lock, post, clock)``: the port of ``board``.

    :param board: the driver; the link reads and clears its ``connected`` when the port is lost.
    :param port_setting: the configured port, or "auto" / None to look for one (``find``).
    :param lock: the driver's lock: no line is written while another is, nor the port closed meanwhile.
    :param post: where ``BoardDisconnected`` goes.
    """

    def __init__(
        self,
        board: TileBoard,
        port_setting: str | None,
        find: Callable[[str | None], str | None],
        lock: threading.Lock,
        post: EventCallback,
        clock: Callable[[], float],
    ) -> None:
        self.board = board
        self.port_setting = port_setting
        self.find = find
        self.lock = lock
        self.post = post
        self.clock = clock
        self.port: str | None = None  # the port last opened
        self.reader = LineReader()  # a new one for every port opened
        self.last_sent = 0.0  # when the last line went out (a heartbeat is due BEAT_S after it)
        self.reconnects = 0  # sessions that ended after a handshake
        self.stopping = threading.Event()
        self._serial: serial.Serial | None = None
        self._thread: threading.Thread | None = None

    @property
    def damaged(self) -> int:
        """Lines dropped for a bad checksum or characters, or for being too long."""
        return self.reader.damaged + self.reader.overflows

    def start(self, session: Served) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, args=(session,), name="tileboard-serial", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """End the reader thread (and wait for it, unless this is it)."""
        self.stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)

    def _run(self, session: Served) -> None:
        attempt = 0
        reported_absent = False
        while not self.stopping.is_set():
            port = self.find(self.port_setting)
            if port is None:
                if not reported_absent:
                    reported_absent = True
                    log.warning(
                        "no tile board found (port %s): plug the Pico in by USB, or set [tiles] port; "
                        "waiting for one", self.port_setting or "auto",
                    )
                    self.post(BoardDisconnected(self.port_setting or "auto", "no board found"))
                self.stopping.wait(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
                attempt += 1
                continue
            try:
                self.open(port)
                session.handshake()
                attempt = 0
                reported_absent = False
                session.serve()
            except Exception as error:  # noqa: BLE001 - the reader thread must outlive any surprise
                if isinstance(error, LinkDown):
                    reason = str(error)
                    log.info("tile board on %s: %s", port, reason)
                elif isinstance(error, (serial.SerialException, OSError, ValueError)):
                    reason = "unplugged"
                    log.info("tile board on %s: %s (%s)", port, reason, error)
                else:
                    reason = "driver error"
                    log.exception("tile board on %s: unexpected error, reconnecting", port)
                was_connected = self.board.connected
                self.board.connected = False
                self.close()
                if was_connected:
                    self.reconnects += 1
                    self.post(BoardDisconnected(port, reason))
                elif not reported_absent:
                    reported_absent = True
                    log.warning(
                        "no tile board answered on %s (%s): is the Pico running the codenames-board firmware? "
                        "codenames-board firmware status tells; trying again", port, reason,
                    )
                    self.post(BoardDisconnected(port, reason))
                self.stopping.wait(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
                attempt += 1
        self.close()

    def open(self, port: str) -> None:
        self.port = port
        self.reader = LineReader()
        self._serial = serial.Serial(port, 115200, timeout=BEAT_S, write_timeout=WRITE_TIMEOUT_S, exclusive=True)
        self._serial.reset_input_buffer()

    def close(self) -> None:
        """Close the port (safe twice); never while a line is being written on another thread."""
        with self.lock:
            port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def write(self, line: bytes) -> None:
        """(Under the lock.) One encoded line to the board; nothing if the port is closed."""
        port = self._serial
        if port is None:
            return
        try:
            # pyserial opens the port non-blocking: a plain write takes the whole line at once
            # unless the board stopped reading; only then does pyserial's write (with its
            # select and timeout) finish the rest.
            try:
                written = os.write(port.fileno(), line)
            except BlockingIOError:
                written = 0
            if written < len(line):
                port.write(line[written:])
            self.last_sent = self.clock()
        except (serial.SerialException, OSError, ValueError) as error:
            log.info("tile board write failed: %s", error)  # the reader thread notices and reconnects

    def read_messages(self) -> list[list[bytes]]:
        """Wait up to a heartbeat for input, then take everything that has arrived in one read
        (the port is non-blocking): a touch's line is handled as soon as it is in."""
        port = self._serial
        if port is None:
            raise LinkDown("closed")
        fd = port.fileno()
        if not select.select([fd], [], [], BEAT_S)[0]:
            return []
        try:
            data = os.read(fd, READ_SIZE)
        except BlockingIOError:
            return []
        if not data:  # readable, yet nothing: the device went away
            raise serial.SerialException("the port reports input but gives none (unplugged?)")
        return self.reader.feed(data)
