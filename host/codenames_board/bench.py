"""``codenames-board bench``: speed measured, not asserted in tests (machines are shared and noisy).

``bench tiles`` runs the real serial driver against a board simulated in
Python on the far end of a pseudo-terminal. Latency: from the board writing
a TOUCH line to the board holding the complete FRAME the host sent back,
through the driver's reader thread, an event queue and a consumer thread
(the shape of the controller). Throughput: frames per second the host gets
onto the wire and the board decodes.
"""

from __future__ import annotations

import os
import queue
import statistics
import threading
import time
import tty

from codenames_firmware.tileproto import LineReader, message

from .tileboard import BoardConnected, TileTouched
from .tileboard.serial_board import SerialTileBoard

LEDS = 37


class _PtyBoard:
    """The board's end: answers HELLO, sends touches when told, timestamps the frames that arrive."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.frames = 0
        self.frame_arrived = threading.Event()
        self.frame_time = 0.0
        self._reader = LineReader()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._beats, daemon=True)
        self._beat.start()

    def _beats(self) -> None:  # as the firmware does, so the host does not call the board silent
        count = 0
        while not self._stop.wait(0.25):
            count += 1
            try:
                os.write(self.master, message("BEAT", count, "0000000", 0, 0, 0))
            except OSError:
                return

    def _serve(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            now = time.perf_counter()
            for words in self._reader.feed(data):
                if words[0] == b"HELLO":
                    os.write(self.master, message("BOARD", 1, "bench", 25, 12, "0000000"))
                elif words[0] == b"FRAME" and len(words[2]) == 6 * LEDS:
                    self.frames += 1
                    self.frame_time = now
                    self.frame_arrived.set()

    def touch(self, seq: int, tile: int) -> float:
        self.frame_arrived.clear()
        line = message("TOUCH", seq, tile, 1) + message("TOUCH", seq + 1, tile, 0)
        start = time.perf_counter()
        os.write(self.master, line)
        return start

    def close(self) -> None:
        self._stop.set()
        self._beat.join()
        os.close(self.master)
        os.close(self.slave)


def bench_tiles(touches: int = 2000, seconds: float = 3.0) -> dict:
    board = _PtyBoard()
    events: queue.Queue = queue.Queue()
    host = SerialTileBoard(port=board.path, on_event=events.put).start()
    try:
        event = events.get(timeout=10)
        if not isinstance(event, BoardConnected):
            raise RuntimeError(f"the simulated board did not connect: {event}")
        board.frame_arrived.wait(5)  # the frame sent after the handshake

        def controller() -> None:  # one consumer, as in the real controller
            while True:
                item = events.get()
                if item is None:
                    return
                if isinstance(item, TileTouched) and item.down:
                    frame = bytearray(3 * LEDS)
                    frame[3 * item.tile] = 255
                    host.show(bytes(frame))

        consumer = threading.Thread(target=controller, daemon=True)
        consumer.start()
        latencies = []
        for number in range(touches):
            start = board.touch((2 * number + 1) & 0xFFFF, number % 25)
            if not board.frame_arrived.wait(5):
                raise RuntimeError("no frame came back for a touch")
            latencies.append((board.frame_time - start) * 1000)
        events.put(None)
        consumer.join()

        before = board.frames
        frame = bytes(range(3 * LEDS))
        started = time.perf_counter()
        sent = 0
        while time.perf_counter() - started < seconds:
            host.show(frame)
            sent += 1
        deadline = time.perf_counter() + 5
        while board.frames - before < sent and time.perf_counter() < deadline:
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
        received = board.frames - before
    finally:
        host.close()
        board.close()
    latencies.sort()
    return {
        "touches": touches,
        "p50_ms": statistics.median(latencies),
        "p99_ms": latencies[max(0, int(len(latencies) * 0.99) - 1)],
        "max_ms": latencies[-1],
        "frames_sent": sent,
        "frames_received": received,
        "fps": received / elapsed,
        "damaged": host.damaged,
    }
