"""The tile board on USB serial: the Pico running our firmware (pyserial).

One reader thread owns the port: it finds the board, says HELLO, waits for
BOARD, then reads touches and heartbeats, sends heartbeats, and on any
trouble (unplugged, silent for a second, garbage) closes the port and tries
again with a growing pause. After every handshake it sends the brightness
limit and the whole last frame, so the LEDs are right again at once.
Damaged or malformed lines are dropped and counted, never raised: a touch
event comes only from a line whose checksum and fields are right.

``show()`` runs on the caller's thread (the controller's, on the touch's
path) and writes straight to the port under ``_lock``. It sends only what
changed since the last frame it sent: a SET naming at most ``SET_MOST`` LEDs
(a touch, an animation step), else the whole FRAME. Every FRAME and SET is
acknowledged in order; a missing ACK means a line was lost (dropped for its
checksum) and the board's LEDs may be stale, so the reader thread sends the
whole frame again as soon as a later ACK skips one, or when none came for
``REPAIR_S`` (firmware/PROTOCOL.md, "Partial frames and repair").

``tune()`` sends the touch thresholds at once and after every handshake;
``tune_pads()`` sets some tiles' own: the board says in ``TUNED`` which it
has, and one ``TUNEPAD`` goes out only when they differ from what is wanted.
``order()`` sends the LED strip's colour order (``ORDER``) at once and after
every handshake. ``request_pads()`` asks for every pad's signal, which comes
back as a ``PadSignals`` event. A board whose firmware knows none of these
(``ERROR unknown``) is said once in the log and plays on with its own
thresholds; when it cannot take what the configuration asks for (its own
thresholds, a colour order other than its green-first one), a ``BoardProblem``
"firmware_tunepad" or "firmware_order" says so to the display and selftest.

What the board says goes to the log through ``Repeats``: a condition that
repeats (the same ``ERROR``, ``BEAT`` counters that keep changing, ``TUNED``)
is logged once, then counted, at most a line a minute for each; an ``ERROR``
goes to the table as a ``BoardProblem`` when it is news (another detail than
its code's last one, or the same after a quiet minute), at most 4 a second. Every
number the board sends is read with ``tileproto.number``: ASCII digits only.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from typing import Callable

import serial
from serial.tools import list_ports

from codenames_firmware.tileproto import MAX_SET, PROTOCOL, LineReader, encode, message, number

from .base import BoardConnected, BoardDisconnected, BoardProblem, EventCallback, PadSignals, TileBoard, TileTouched
from .firmware_files import board_identity, runs_shipped, shipped_identity
from .repeats import Repeats

log = logging.getLogger(__name__)

PICO_VID, MICROPYTHON_PID = 0x2E8A, 0x0005  # Raspberry Pi's vendor id, MicroPython's product id
STABLE_NAME = "/dev/codenames-tiles"  # made by the udev rule in host/pi/
BEAT_S = 0.25
SILENT_S = 1.0
HANDSHAKE_S = 1.0
BACKOFF_S = (0.25, 0.5, 1.0, 2.0, 4.0)
WRITE_TIMEOUT_S = 0.5
READ_SIZE = 4096
SET_MOST = 8  # at most this many changed LEDs go as a SET (under 100 bytes); more as a FRAME (244)
REPAIR_S = BEAT_S  # no ACK for this long while one is due: the whole frame again
PROBLEMS_PER_S = 4  # BoardProblems the table gets a second at most, whatever the board sends
_CHANGED = bytes([0]) + bytes([1]) * 255  # bytes.translate table: 0 stays 0, anything else becomes 1

assert SET_MOST <= MAX_SET


class LinkDown(Exception):
    """The board went away (unplugged, silent, refused the handshake)."""


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


class SerialTileBoard(TileBoard):
    """``SerialTileBoard(port="auto", on_event=queue.put)``; ``start()`` begins connecting in the background."""

    def __init__(
        self,
        port: str | None = "auto",
        tiles: int = 25,
        status_leds: int = 12,
        on_event: EventCallback | None = None,
        clock: Callable[[], float] = time.monotonic,
        find: Callable[[str | None], str | None] = find_board,
    ) -> None:
        super().__init__(tiles, status_leds, on_event)
        self.port_setting = port
        self.clock = clock
        self.find = find
        self.port: str | None = None
        self.info: BoardConnected | None = None
        self._serial: serial.Serial | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader = LineReader()
        self._frame_seq = 0
        self._touch_seq: int | None = None
        self._last_heard = 0.0
        self._last_sent = 0.0
        self.malformed = 0  # lines with a good checksum but fields that make no sense
        self.lost_touches = 0  # gaps in the board's touch numbering
        self.acked_frame: int | None = None
        self.repairs = 0  # whole frames sent again because a FRAME or SET went missing
        # What the board shows once every line sent has arrived (None: send the whole frame next).
        self._board_frame: bytes | None = None
        self._acked_seq = 0  # every FRAME/SET up to this seq is acknowledged (or made moot by a later FRAME)
        self._waiting_since: float | None = None  # since when an ACK is due (None: none is)
        self._first_bytes = sum(0xFF << (24 * led) for led in range(self.leds))  # each LED's first byte, as an int
        self.board_counters: tuple[int, int, int] = (0, 0, 0)  # damaged, overflows, dropped, as the board says
        self.reconnects = 0
        self._shown = False  # has the host drawn anything yet?
        self._said_other_firmware = False
        self.tuned: tuple[int, int, int] | None = None  # what the board said in its last TUNED
        self.tuned_pads: dict[int, tuple[int, int]] = {}  # the tiles' own thresholds, as in that TUNED
        self.tunable = True  # False once the board answered TUNE or PADS as unknown
        self.pads_tunable = True  # False once it answered TUNEPAD as unknown
        self._tunepads_left = 0  # TUNEPADs this session may still send (one per TUNE, and a retry)
        self._said = Repeats(log, clock)  # the reader thread's log of what the board says
        self._problems: dict[str, tuple[str, float]] = {}  # code: (detail, when) last told to the table
        self._problem_second, self._problem_count = 0.0, 0

    @property
    def damaged(self) -> int:
        """Lines dropped for a bad checksum or characters, or for being too long."""
        return self._reader.damaged + self._reader.overflows

    # --- the host's side

    def start(self) -> SerialTileBoard:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tileboard-serial", daemon=True)
            self._thread.start()
        return self

    def show(self, frame: bytes) -> None:
        frame = self.check_frame(frame)
        with self._lock:
            self.frame = frame
            self._shown = True
            if self.connected:
                self._send_changes()

    def limit(self, brightness: int, max_ma: int) -> None:
        super().limit(brightness, max_ma)
        with self._lock:
            if self.connected:
                self._write(message("LIMIT", brightness, max_ma))

    def tune(self, touch: int, release: int, debounce: int) -> None:
        super().tune(touch, release, debounce)
        with self._lock:
            if self.connected:
                self._write(message("TUNE", touch, release, debounce))

    def tune_pads(self, thresholds: dict[int, tuple[int, int]]) -> None:
        super().tune_pads(thresholds)
        with self._lock:
            if self.connected and self.tuned is not None:
                self._tunepads_left = 1
                self._send_tunepad()

    def order(self, colours: str) -> None:
        super().order(colours)
        with self._lock:
            if self.connected:
                self._write(message("ORDER", colours))

    def _send_tunepad(self) -> None:
        """(Under the lock.) One TUNEPAD naming every tile that should have its own thresholds and
        every tile that has some it should not (0 0), when what the board said in TUNED differs."""
        wanted, board = self.pad_tuning, self.tuned_pads
        if wanted == board or not self.pads_tunable or self._tunepads_left <= 0:
            return
        self._tunepads_left -= 1
        fields: list[int] = []
        for tile in sorted(set(wanted) | set(board)):
            fields.extend((tile, *wanted.get(tile, (0, 0))))
        self._write(message("TUNEPAD", *fields))

    def request_pads(self) -> bool:
        with self._lock:
            if not (self.connected and self.tunable):
                return False
            self._write(message("PADS"))
        return True

    def close(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)
        super().close()
        self._close_port()

    # --- the reader thread

    def _run(self) -> None:
        attempt = 0
        reported_absent = False
        while not self._stop.is_set():
            port = self.find(self.port_setting)
            if port is None:
                if not reported_absent:
                    reported_absent = True
                    log.warning(
                        "no tile board found (port %s): plug the Pico in by USB, or set [tiles] port; "
                        "waiting for one", self.port_setting or "auto",
                    )
                    self._post(BoardDisconnected(self.port_setting or "auto", "no board found"))
                self._stop.wait(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
                attempt += 1
                continue
            try:
                self._open(port)
                self._handshake()
                attempt = 0
                reported_absent = False
                self._serve()
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
                was_connected = self.connected
                self.connected = False
                self._close_port()
                if was_connected:
                    self.reconnects += 1
                    self._post(BoardDisconnected(port, reason))
                elif not reported_absent:
                    reported_absent = True
                    log.warning(
                        "no tile board answered on %s (%s): is the Pico running the codenames-board firmware? "
                        "codenames-board firmware status tells; trying again", port, reason,
                    )
                    self._post(BoardDisconnected(port, reason))
                self._stop.wait(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
                attempt += 1
        self._close_port()

    def _open(self, port: str) -> None:
        self.port = port
        self._reader = LineReader()
        self._serial = serial.Serial(port, 115200, timeout=BEAT_S, write_timeout=WRITE_TIMEOUT_S, exclusive=True)
        self._serial.reset_input_buffer()

    def _close_port(self) -> None:
        with self._lock:  # never while show() is writing on another thread
            port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _write(self, line: bytes) -> None:
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
            self._last_sent = self.clock()
        except (serial.SerialException, OSError, ValueError) as error:
            log.info("tile board write failed: %s", error)  # the reader thread notices and reconnects

    def _send_frame(self) -> None:
        """The whole frame (under the lock): the board shows it whatever was lost before it."""
        seq = self._frame_seq = (self._frame_seq + 1) & 0xFFFF
        self._acked_seq = (seq - 1) & 0xFFFF  # what went before no longer matters
        self._waiting_since = self.clock()
        self._board_frame = self.frame
        self._write(message("FRAME", seq, self.frame.hex()))

    def _send_changes(self) -> None:
        """``self.frame`` to the board (under the lock): nothing if the board has it, a SET
        if at most SET_MOST LEDs differ from the last frame sent, else the whole FRAME."""
        frame, sent = self.frame, self._board_frame
        if sent is None:
            self._send_frame()
            return
        if frame == sent:
            return
        # In C, on 111-byte integers: a 1 at the first byte of every LED that changed, 0 elsewhere.
        differ = int.from_bytes(frame, "little") ^ int.from_bytes(sent, "little")
        changed = ((differ | differ >> 8 | differ >> 16) & self._first_bytes).to_bytes(len(frame), "little")
        changed = changed.translate(_CHANGED)
        if changed.count(1) > SET_MOST:
            self._send_frame()
            return
        seq = (self._frame_seq + 1) & 0xFFFF
        payload = b"SET %d" % seq
        at = changed.find(1)
        while at >= 0:
            payload += b" %d %02x%02x%02x" % (at // 3, frame[at], frame[at + 1], frame[at + 2])
            at = changed.find(1, at + 3)
        self._frame_seq = seq
        if self._waiting_since is None:
            self._waiting_since = self.clock()
        self._board_frame = frame
        self._write(encode(payload))

    def _acknowledged(self, seq: int) -> None:
        """The board's ACK (reader thread). ACKs come in the order the lines went out: one
        that skips a seq means a FRAME or SET was lost, and the LEDs may be stale."""
        with self._lock:
            self.acked_frame = seq
            ahead = (seq - self._acked_seq) & 0xFFFF
            if not 0 < ahead <= (self._frame_seq - self._acked_seq) & 0xFFFF:
                return  # a repeat, or a line that a later FRAME made moot
            self._acked_seq = seq
            self._waiting_since = None if seq == self._frame_seq else self.clock()
            if ahead > 1:
                self._repair()

    def _check_acknowledged(self, now: float) -> None:
        """Reader thread, at least every BEAT_S: the whole frame again if an ACK is REPAIR_S overdue."""
        waiting = self._waiting_since
        if waiting is not None and now - waiting >= REPAIR_S:
            with self._lock:
                waiting = self._waiting_since  # show() may have sent a FRAME meanwhile
                if waiting is not None and now - waiting >= REPAIR_S:
                    self._repair()

    def _repair(self) -> None:
        # Under the lock.
        if self.connected and self._shown:
            self.repairs += 1
            log.info("tile board: a frame went missing, sending the whole frame again")
            self._send_frame()

    def _read_messages(self) -> list[list[bytes]]:
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
        return self._reader.feed(data)

    def _handshake(self) -> None:
        with self._lock:
            self._write(message("HELLO", PROTOCOL))
        deadline = self.clock() + HANDSHAKE_S
        while self.clock() < deadline and not self._stop.is_set():
            for words in self._read_messages():
                if words[0] == b"BOARD":
                    self._board(words)
                    return
                if words[0] == b"ERROR" and words[1:2] == [b"protocol"]:
                    self._refuse(b" ".join(words[2:]).decode())
        raise LinkDown("no answer to HELLO")

    def _refuse(self, protocol: str) -> None:
        self._post(BoardProblem("protocol", protocol))
        raise LinkDown(f"the board speaks protocol {protocol}, this program {PROTOCOL}: update the firmware")

    def _board(self, words: list[bytes]) -> None:
        try:
            protocol, firmware = number(words[1]), words[2].decode()
            tiles, status_leds = number(words[3]), number(words[4])
        except (IndexError, ValueError, UnicodeDecodeError):
            self.malformed += 1
            raise LinkDown("malformed BOARD") from None
        if protocol != PROTOCOL:
            self._refuse(str(protocol))
        if (tiles, status_leds) != (self.tiles, self.status_leds):
            self._post(BoardProblem("layout", f"{tiles} {status_leds}"))
            raise LinkDown(
                f"the board has {tiles} tiles and {status_leds} status LEDs, the configuration says "
                f"{self.tiles} and {self.status_leds}"
            )
        other = not runs_shipped(firmware)
        if other and not self._said_other_firmware:  # once a run: the log is not a reconnect counter
            self._said_other_firmware = True
            log.warning(
                "the tile board runs other firmware (%s) than this codenames-board ships (%s): "
                "codenames-board firmware install",
                board_identity(firmware),
                shipped_identity(),
            )
        self.info = BoardConnected(self.port or "", protocol, firmware, tiles, status_leds, other)
        log.info(
            "tile board on %s: firmware %s, %d tiles, %d status LEDs; LEDs at brightness %d, capped at %d mA",
            self.port, firmware, tiles, status_leds, self.brightness, self.max_ma,
        )
        self._touch_seq = None
        self._last_heard = self.clock()
        with self._lock:
            self.connected = True
            self._board_frame, self._acked_seq, self._waiting_since = None, self._frame_seq, None
            self._write(message("LIMIT", self.brightness, self.max_ma))
            if self.led_order is not None:
                self._write(message("ORDER", self.led_order))
            self._tunepads_left = 2 if self.pad_tuning else 1
            if self.tuning is not None:
                self._write(message("TUNE", *self.tuning))
            if self._shown:  # nothing drawn yet: no dark frame flashing up before the first one
                self._send_frame()
        self._post(self.info)

    def _serve(self) -> None:
        try:
            while not self._stop.is_set():
                for words in self._read_messages():
                    self._last_heard = self.clock()
                    self._dispatch(words)
                now = self.clock()
                if now - self._last_heard > SILENT_S:
                    raise LinkDown("silent")
                self._check_acknowledged(now)
                self._said.flush(now)
                if now - self._last_sent >= BEAT_S:
                    with self._lock:
                        self._write(message("BEAT", 0))
        finally:
            self._said.flush(everything=True)  # the counts so far, before the session's end is logged

    def _dispatch(self, words: list[bytes]) -> None:
        kind = words[0]
        try:
            if kind == b"TOUCH":
                self._touch(number(words[1]), number(words[2]), number(words[3]))
            elif kind == b"BEAT":
                counters = (number(words[3]), number(words[4]), number(words[5]))
                if counters != self.board_counters:
                    self.board_counters = counters
                    self._said.say(
                        "counts", logging.WARNING, "tile board counts: damaged %d, too long %d, not sent %d", *counters
                    )
            elif kind == b"ACK":
                seq = number(words[1])
                if 0 <= seq <= 0xFFFF:
                    self._acknowledged(seq)
                else:
                    self.malformed += 1
            elif kind == b"PADS":
                self._pads(words)
            elif kind == b"TUNED":
                self._tuned(words)
            elif kind == b"ERROR" and words[1:2] == [b"unknown"] and words[2:3] in ([b"TUNE"], [b"PADS"]):
                if self.tunable:
                    self.tunable = False
                    log.warning(
                        "the tile board's firmware cannot be tuned or show its pads (it answers %s as unknown): "
                        "codenames-board firmware install", words[2].decode()
                    )
            elif kind == b"ERROR" and words[1:2] == [b"unknown"] and words[2:3] == [b"TUNEPAD"]:
                if self.pads_tunable:
                    self.pads_tunable = False
                    self._too_old("TUNEPAD", "thresholds of their own for some tiles ([tiles.thresholds])")
            elif kind == b"ERROR" and words[1:2] == [b"unknown"] and words[2:3] == [b"ORDER"]:
                if self.led_order not in (None, "GRB"):  # an older board lays out frames green first anyway
                    self._too_old("ORDER", f"the LED colour order {self.led_order} ([leds] order)")
            elif kind == b"ERROR":
                code = words[1].decode()
                detail = b" ".join(words[2:]).decode()
                self._said.say(("ERROR", code, detail), logging.WARNING, "tile board reports %s %s", code, detail)
                self._problem(code, detail)
            else:
                self.malformed += 1
        except (IndexError, ValueError, UnicodeDecodeError):
            self.malformed += 1
            log.debug("malformed line from the tile board: %r", words)

    def _too_old(self, kind: str, what: str) -> None:
        self._said.say(
            ("too old", kind), logging.WARNING,
            "the tile board's firmware does not know %s, so %s is not in force: codenames-board firmware install",
            kind, what,
        )
        self._problem(f"firmware_{kind.lower()}", kind)

    def _problem(self, code: str, detail: str) -> None:
        """A BoardProblem for the table when it is news: another detail than this code's last one
        (a tile noisy again after it went quiet), or the same after a quiet interval; and never more
        than PROBLEMS_PER_S a second, so a board that floods cannot flood the table's queue."""
        now = self.clock()
        last = self._problems.get(code)
        if last is not None and last[0] == detail and now - last[1] < self._said.interval:
            self._problems[code] = (detail, now)  # still going: quiet means a whole interval without it
            return
        if now - self._problem_second >= 1.0:
            self._problem_second, self._problem_count = now, 0
        if self._problem_count >= PROBLEMS_PER_S:
            return
        self._problem_count += 1
        if len(self._problems) >= 64:  # a board making up codes: forget, rather than grow
            self._problems.clear()
        self._problems[code] = (detail, now)
        self._post(BoardProblem(code, detail))

    def _tuned(self, words: list[bytes]) -> None:
        tuned = (number(words[1]), number(words[2]), number(words[3]))
        pads = {}
        for word in words[4:]:
            tile, touch, release = (number(part) for part in word.split(b","))
            pads[tile] = (touch, release)
        self.tuned, self.tuned_pads = tuned, pads
        own = " ".join(f"{tile}:{touch}/{release}" for tile, (touch, release) in sorted(pads.items()))
        self._said.say(
            ("TUNED", *words[1:]), logging.INFO,
            "tile board: touch threshold %d, release %d, debounce %d%s", *tuned, f"; tiles' own {own}" if own else "",
        )
        with self._lock:
            if self.connected:
                self._send_tunepad()

    def _pads(self, words: list[bytes]) -> None:
        touch, release, debounce = number(words[1]), number(words[2]), number(words[3])
        if len(words) != 4 + self.tiles:
            raise ValueError("a PADS line for another tile count")
        pads = []
        for word in words[4:]:
            if word == b"-":
                pads.append(None)
                continue
            filtered, baseline = word.split(b",")
            pads.append((number(filtered), number(baseline)))
        own = tuple(self.tuned_pads.get(tile) for tile in range(self.tiles))
        self._post(PadSignals(touch, release, debounce, tuple(pads), own))

    def _touch(self, seq: int, tile: int, state: int) -> None:
        if not (0 <= tile < self.tiles and state in (0, 1) and 0 <= seq <= 0xFFFF):
            self.malformed += 1
            return
        last = self._touch_seq
        if last is not None:
            gap = (seq - last) & 0xFFFF
            if gap == 0 or gap > 0x8000:  # a repeat or an old one: already handled
                return
            if gap > 1:
                self.lost_touches += gap - 1
                self._said.say("lost", logging.WARNING, "tile board: %d touch events lost", gap - 1)
        self._touch_seq = seq
        self._post(TileTouched(tile, bool(state)))
