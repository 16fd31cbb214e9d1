"""The LED frames on their way to the board: FRAME or SET, the ACKs, and the repair of a lost line.

``send_changes()`` runs on the caller's thread (the controller's, on the
touch's path) under the driver's lock. It sends only what changed since the
last frame it sent: a SET naming at most ``SET_MOST`` LEDs (a touch, an
animation step), else the whole FRAME. Every FRAME and SET is acknowledged in
order; a missing ACK means a line was lost (dropped for its checksum) and the
board's LEDs may be stale, so the reader thread sends the whole frame again as
soon as a later ACK skips one (``acknowledged()``), or when none came for
``REPAIR_S`` (``check_acknowledged()``): firmware/PROTOCOL.md, "Partial
frames and repair".
"""

from __future__ import annotations

import threading
from typing import Callable

from codenames_firmware.tileproto import MAX_SET, encode, message

from .base import TileBoard
from .link import BEAT_S, SerialLink, log

SET_MOST = 8  # at most this many changed LEDs go as a SET (under 100 bytes); more as a FRAME (244)
REPAIR_S = BEAT_S  # no ACK for this long while one is due: the whole frame again
_CHANGED = bytes([0]) + bytes([1]) * 255  # bytes.translate table: 0 stays 0, anything else becomes 1

assert SET_MOST <= MAX_SET


class Frames:
    """``Frames(board, link, lock, clock)``: ``board.frame`` to the board over ``link``, and kept right there.

    :param board: the driver: its ``frame`` (the last one shown) and ``connected``.
    :param lock: the driver's lock; every method but ``check_acknowledged`` is called under it.
    """

    def __init__(self, board: TileBoard, link: SerialLink, lock: threading.Lock, clock: Callable[[], float]) -> None:
        self.board = board
        self.link = link
        self.lock = lock
        self.clock = clock
        self.shown = False  # has the host drawn anything yet?
        self.frame_seq = 0  # the seq of the last FRAME or SET sent
        self.acked_seq = 0  # every FRAME/SET up to this seq is acknowledged (or made moot by a later FRAME)
        self.acked_frame: int | None = None  # the seq of the board's last ACK
        self.repairs = 0  # whole frames sent again because a FRAME or SET went missing
        # What the board shows once every line sent has arrived (None: send the whole frame next).
        self._board_frame: bytes | None = None
        self._waiting_since: float | None = None  # since when an ACK is due (None: none is)
        self._first_bytes = sum(0xFF << (24 * led) for led in range(board.leds))  # each LED's first byte, as an int

    def forget(self) -> None:
        """(Under the lock.) A new session: what the board shows is unknown, and no ACK is due."""
        self._board_frame, self.acked_seq, self._waiting_since = None, self.frame_seq, None

    def send_frame(self) -> None:
        """The whole frame (under the lock): the board shows it whatever was lost before it."""
        seq = self.frame_seq = (self.frame_seq + 1) & 0xFFFF
        self.acked_seq = (seq - 1) & 0xFFFF  # what went before no longer matters
        self._waiting_since = self.clock()
        frame = self._board_frame = self.board.frame
        self.link.write(message("FRAME", seq, frame.hex()))

    def send_changes(self) -> None:
        """``board.frame`` to the board (under the lock): nothing if the board has it, a SET
        if at most SET_MOST LEDs differ from the last frame sent, else the whole FRAME."""
        frame, sent = self.board.frame, self._board_frame
        if sent is None:
            self.send_frame()
            return
        if frame == sent:
            return
        # In C, on 111-byte integers: a 1 at the first byte of every LED that changed, 0 elsewhere.
        differ = int.from_bytes(frame, "little") ^ int.from_bytes(sent, "little")
        changed = ((differ | differ >> 8 | differ >> 16) & self._first_bytes).to_bytes(len(frame), "little")
        changed = changed.translate(_CHANGED)
        if changed.count(1) > SET_MOST:
            self.send_frame()
            return
        seq = (self.frame_seq + 1) & 0xFFFF
        payload = b"SET %d" % seq
        at = changed.find(1)
        while at >= 0:
            payload += b" %d %02x%02x%02x" % (at // 3, frame[at], frame[at + 1], frame[at + 2])
            at = changed.find(1, at + 3)
        self.frame_seq = seq
        if self._waiting_since is None:
            self._waiting_since = self.clock()
        self._board_frame = frame
        self.link.write(encode(payload))

    def acknowledged(self, seq: int) -> None:
        """The board's ACK (reader thread). ACKs come in the order the lines went out: one
        that skips a seq means a FRAME or SET was lost, and the LEDs may be stale."""
        with self.lock:
            self.acked_frame = seq
            ahead = (seq - self.acked_seq) & 0xFFFF
            if not 0 < ahead <= (self.frame_seq - self.acked_seq) & 0xFFFF:
                return  # a repeat, or a line that a later FRAME made moot
            self.acked_seq = seq
            self._waiting_since = None if seq == self.frame_seq else self.clock()
            if ahead > 1:
                self._repair()

    def check_acknowledged(self, now: float) -> None:
        """Reader thread, at least every BEAT_S: the whole frame again if an ACK is REPAIR_S overdue."""
        waiting = self._waiting_since
        if waiting is not None and now - waiting >= REPAIR_S:
            with self.lock:
                waiting = self._waiting_since  # show() may have sent a FRAME meanwhile
                if waiting is not None and now - waiting >= REPAIR_S:
                    self._repair()

    def _repair(self) -> None:
        # Under the lock.
        if self.board.connected and self.shown:
            self.repairs += 1
            log.info("tile board: a frame went missing, sending the whole frame again")
            self.send_frame()
