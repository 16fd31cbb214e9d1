"""``codenames-board bench``: speed measured, not asserted in tests (machines are shared and noisy).

``bench tiles`` runs the real serial driver against a board simulated in
Python on the far end of a pseudo-terminal. Latency: from the board writing
a TOUCH line to the board holding the complete line the host sent back (a
SET: a touch changes two LEDs here), through the driver's reader thread, an
event queue and a consumer thread (the shape of the controller).
Throughput: whole frames per second (two frames that differ in every LED,
taking turns, so each goes out as a FRAME) the host gets onto the wire and
the board decodes.
"""

from __future__ import annotations

import os
import queue
import statistics
import threading
import time
import tty

from codenames_firmware.tileproto import PROTOCOL, LineReader, message

from .progress import silent
from .tileboard import BoardConnected, TileTouched
from .tileboard.firmware_files import shipped_identity
from .tileboard.serial_board import SerialTileBoard

LEDS = 37


def start_headless(folder, config: str = ""):
    """``codenames-board run`` with mock pins, the virtual tile board and a PNG display in ``folder``,
    once it says "ready" (or has ended); ``config``: more sections of its configuration."""
    import subprocess
    import sys
    from pathlib import Path

    path = Path(folder) / "config.toml"
    path.write_text(
        f'state_dir = "{folder}"\n[tiles]\ndriver = "virtual"\n'
        f'[display]\noutput = "png"\npng = "{folder}/spymaster.png"\n{config}'
    )
    environment = {
        **os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1", "CODENAMES_BOARD_LOG": "info",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "codenames_board", "run", "--config", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment,
    )
    try:
        for line in process.stdout:
            if line.rstrip().endswith(b"ready"):
                break
    except BaseException:  # SIGTERM or Ctrl-C while it starts: it stops before its folder is removed
        process.terminate()
        process.wait(timeout=10)
        raise
    return process


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system; Linux: from /proc)."""
    from pathlib import Path

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_run(idle_seconds: float = 5.0, runs: int = 3, progress=silent) -> dict:
    """``codenames-board run`` with mock pins, the virtual tile board and a PNG display, as a real process.

    Start to ready: from starting the process to its "ready" log line. Idle
    CPU: the process's CPU time over ``idle_seconds`` of waiting (from a second
    after ready), as a share of one core. Memory: its resident set afterwards (Linux: from /proc).
    """
    import signal
    import tempfile
    from pathlib import Path

    starts, cpu_shares, rss_mb = [], [], []
    for run in range(runs):
        progress("bench.progress_runs", done=run, total=runs)
        with tempfile.TemporaryDirectory() as folder:
            started, process = time.perf_counter(), None
            try:
                process = start_headless(folder)
                starts.append(time.perf_counter() - started)
                time.sleep(1.0)  # the last of start-up (first frame, imports finishing) is not idling
                before, wall = cpu_seconds(process.pid), time.perf_counter()
                time.sleep(idle_seconds)
                cpu_shares.append((cpu_seconds(process.pid) - before) / (time.perf_counter() - wall))
                status = Path(f"/proc/{process.pid}/status").read_text()
                rss_mb.append(int(status.split("VmRSS:")[1].split()[0]) / 1024)
            finally:
                if process is not None:
                    process.send_signal(signal.SIGTERM)
                    process.wait(timeout=10)
    return {
        "runs": runs,
        "start_s": statistics.median(starts),
        "start_max_s": max(starts),
        "idle_cpu_percent": 100 * statistics.median(cpu_shares),
        "rss_mb": max(rss_mb),
    }


class _PtyBoard:
    """The board's end: answers HELLO, sends touches when told, timestamps the frames (FRAME or SET) that arrive."""

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
                if words[0] == b"HELLO":  # it stands in for the shipped firmware, and says so
                    os.write(self.master, message("BOARD", PROTOCOL, f"bench+{shipped_identity()}", 25, 12, "0000000"))
                elif (words[0] == b"FRAME" and len(words[2]) == 6 * LEDS) or (
                    words[0] == b"SET" and len(words) >= 4 and len(words) % 2 == 0
                ):
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


def bench_tiles(touches: int = 2000, seconds: float = 3.0, progress=silent) -> dict:
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
            progress("bench.progress_touches", done=number, total=touches)
            start = board.touch((2 * number + 1) & 0xFFFF, number % 25)
            if not board.frame_arrived.wait(5):
                raise RuntimeError("no frame came back for a touch")
            latencies.append((board.frame_time - start) * 1000)
        events.put(None)
        consumer.join()

        progress("bench.progress_throughput", seconds=f"{seconds:g}")
        before = board.frames
        frames = (bytes(range(3 * LEDS)), bytes(range(128, 128 + 3 * LEDS)))  # every LED differs: FRAMEs
        started = time.perf_counter()
        sent = 0
        while time.perf_counter() - started < seconds:
            host.show(frames[sent & 1])
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
