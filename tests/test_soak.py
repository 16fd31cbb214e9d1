"""A long evening on a failing disk: at least 1,000 random faults in the record's open, write,
fsync, ftruncate and rename, spells of a full disk, kills and power cuts, while scripted players
touch tiles and press buttons. Nothing may be lost: after every restart the table resumes the
game it had (all of it after a kill; at least every line the disk had made durable after a
power cut), and every record in the folder replays.

Run alone for the figures (the seed, the evening's length, the faults by kind)::

    python tests/test_soak.py --faults 1000 --seed 1

The disk model: what an fsync that succeeded covered is kept by a power cut, with a random part
of what was written after it (even cut at a line's end); after a failed fsync that file's
unsynced lines are gone for good, even if a later fsync says yes (Linux marks them clean).
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import random
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from patience import PATIENCE_S

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from codenames_board.config import parse
from codenames_board.i18n import Translator
from codenames_board.record import RecordError, RecordWriter, parse_record, read_record
from codenames_board.recorded import REPAIR_SECONDS
from codenames_board.table import ButtonDown, ButtonUp, Table
from codenames_board.tileboard import VirtualTileBoard

log = logging.getLogger("soak")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR


class FaultyDisk:
    """``os`` functions that fail at random for files in one folder, and what a power cut keeps."""

    NAMES = ("open", "write", "fsync", "ftruncate", "replace", "close")

    def __init__(self, folder: Path, rng: random.Random, rate: float) -> None:
        self.folder = str(folder)
        self.rng = rng
        self.rate = rate
        self.real = {name: getattr(os, name) for name in self.NAMES}
        self.paths: dict[int, str] = {}  # our open fds
        self.synced: dict[str, int] = {}  # bytes of each file a power cut keeps for sure
        self.stuck: set[str] = set()  # files whose fsync failed: their unsynced bytes are gone
        self.faults: Counter = Counter()
        self.spell = 0  # calls left in a spell of failures (a full disk for a while)
        self.on = True  # faults are injected
        self.tracking = True  # fsyncs count towards what a power cut keeps (off once the power is cut)
        self.lock = threading.RLock()

    def install(self) -> None:
        for name in self.NAMES:
            setattr(os, name, getattr(self, name))

    def uninstall(self) -> None:
        for name, function in self.real.items():
            setattr(os, name, function)

    def _ours(self, path) -> bool:
        return os.fspath(path).startswith(self.folder)

    def _fault(self, call: str, codes: tuple[int, ...], needs_space: bool = False) -> OSError | None:
        """An error for this call, or None. A spell of a full disk fails only calls that need
        space (a write, an fsync, a new file); the other calls go through meanwhile."""
        with self.lock:
            if not self.on:
                return None
            if self.spell > 0 and needs_space:
                self.spell -= 1
                code = errno.ENOSPC
            elif self.rng.random() < self.rate:
                code = self.rng.choice(codes)
                if code == errno.ENOSPC and self.rng.random() < 0.3:
                    self.spell = self.rng.randint(2, 40)  # full for a while
            else:
                return None
            self.faults[f"{call} {errno.errorcode[code]}"] += 1
            return OSError(code, os.strerror(code))

    def open(self, path, flags, mode=0o777, *args, **kwargs):
        ours = self._ours(path) and flags & WRITE_FLAGS
        new = bool(flags & os.O_CREAT)
        codes = (errno.EIO, errno.ENOSPC, errno.EROFS) if new else (errno.EIO, errno.EROFS)
        if ours and (error := self._fault("open", codes, needs_space=new)):
            raise error
        fd = self.real["open"](path, flags, mode, *args, **kwargs)
        if ours:
            with self.lock:
                name = os.fspath(path)
                self.paths[fd] = name
                if flags & (os.O_EXCL | os.O_TRUNC):
                    self.synced[name] = 0  # a new file: nothing of it is on the disk yet
                    self.stuck.discard(name)
                else:
                    self.synced.setdefault(name, os.fstat(fd).st_size)
        return fd

    def write(self, fd, data):
        if fd in self.paths and (error := self._fault("write", (errno.ENOSPC, errno.EIO), needs_space=True)):
            if error.errno == errno.ENOSPC and len(data) > 1 and self.rng.random() < 0.5:
                self.real["write"](fd, bytes(data[: self.rng.randrange(1, len(data))]))  # cut short
            raise error
        return self.real["write"](fd, data)

    def fsync(self, fd):
        name = self.paths.get(fd)
        if name is None:
            return self.real["fsync"](fd)
        size = os.fstat(fd).st_size  # what this fsync covers for sure
        if error := self._fault("fsync", (errno.EIO, errno.ENOSPC), needs_space=True):
            with self.lock:
                self.stuck.add(name)
            raise error
        self.real["fsync"](fd)
        with self.lock:
            if self.tracking and name not in self.stuck:
                self.synced[name] = size

    def ftruncate(self, fd, length):
        name = self.paths.get(fd)
        if name is not None and (error := self._fault("ftruncate", (errno.EIO,))):
            raise error
        self.real["ftruncate"](fd, length)
        if name is not None:
            with self.lock:
                self.synced[name] = min(self.synced.get(name, length), length)

    def replace(self, source, target, *args, **kwargs):
        ours = self._ours(target)
        if ours and (error := self._fault("rename", (errno.EIO,))):
            raise error
        self.real["replace"](source, target, *args, **kwargs)
        if ours:
            with self.lock:
                source, target = os.fspath(source), os.fspath(target)
                self.synced[target] = self.synced.pop(source, 0)
                self.stuck.discard(target)
                if source in self.stuck:
                    self.stuck.discard(source)
                    self.stuck.add(target)
                for fd, name in self.paths.items():
                    if name == source:
                        self.paths[fd] = target

    def close(self, fd):
        self.paths.pop(fd, None)
        return self.real["close"](fd)

    def power_cut(self) -> dict[str, int]:
        """Every file keeps what was synced and a random part of the rest; returns the synced sizes."""
        with self.lock:
            kept = dict(self.synced)
            self.cut_stuck = sorted(Path(name).name for name in self.stuck)
            self.on = self.tracking = False  # what happens while the old table is taken down does not count
        for name, synced in kept.items():
            path = Path(name)
            if not path.exists():
                continue
            size = path.stat().st_size
            keep = synced + self.rng.randint(0, max(0, size - synced)) if name not in self.stuck else min(synced, size)
            os.truncate(path, min(keep, size))
        return kept

    def restarted(self) -> None:
        with self.lock:
            self.paths.clear()
            self.stuck.clear()
            self.synced = {}
            self.spell = 0
            self.on = self.tracking = True


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Evening:
    seed: int
    steps: int = 0
    accepted: int = 0  # actions in the records
    refused_for_disk: int = 0
    repairs: int = 0
    games: int = 0
    finished: int = 0
    kills: int = 0
    power_cuts: int = 0
    failed_starts: int = 0
    records: int = 0
    lost: list[str] = field(default_factory=list)
    unreplayable: list[str] = field(default_factory=list)

    def figures(self, disk: FaultyDisk) -> str:
        faults = sum(disk.faults.values())
        lines = [
            f"soak seed {self.seed}: {self.steps} player steps, {self.accepted} actions recorded, {self.games} games "
            f"({self.finished} finished), {self.kills} kills, {self.power_cuts} power cuts",
            f"faults injected: {faults} ("
            + ", ".join(f"{kind} {count}" for kind, count in sorted(disk.faults.items()))
            + ")",
            f"actions refused because the disk failed: {self.refused_for_disk}; records written out again: {self.repairs}; "
            f"starts that failed and were retried: {self.failed_starts}",
            f"records at the end: {self.records}; games lost: {len(self.lost)}; records that fail to replay: {len(self.unreplayable)}",
        ]
        return "\n".join(lines + [f"  lost: {item}" for item in self.lost] + [f"  unreplayable: {item}" for item in self.unreplayable])


class Players:
    """The table, scripted players and the restarts of one evening."""

    def __init__(self, state: Path, rng: random.Random, disk: FaultyDisk, evening: Evening) -> None:
        self.state, self.rng, self.disk, self.evening = state, rng, disk, evening
        self.clock = Clock()
        self.posted: list = []
        self.table: Table | None = None
        self.said: Counter = Counter()  # notices by message id

    def start(self) -> None:
        config = parse(f'state_dir = "{self.state}"\n')
        self.board = VirtualTileBoard(status_leds=config.tiles.timer_leds + config.tiles.turn_leds)
        started = datetime(2026, 11, 22, 19, 0, tzinfo=timezone.utc)
        table = Table(
            config, Translator("en"), self.board, self.clock, new_seed=lambda: self.rng.getrandbits(32),
            wall_clock=lambda: started + timedelta(seconds=self.clock.now), post=self.posted.append,
        )
        self.board.on_event = table.handle
        notice = table.prompts.notice

        def counted(said, now):
            self.said[said.msgid] += 1
            notice(said, now)

        table.prompts.notice = counted
        table.pause = lambda seconds: None  # the start's pauses between attempts: no real waiting here
        for _ in range(50):  # a start that fails is the service's restart, 2 s later
            try:
                table.start()
                break
            except OSError:
                self.evening.failed_starts += 1
                self.clock.now += 2
        else:
            raise AssertionError("the table never started")
        self.table = table

    def press(self, name: str, hold: float = 0.0) -> None:
        self.table.handle(ButtonDown(name))
        if hold:
            self.clock.now += hold
            self.table.update()
        self.table.handle(ButtonUp(name))

    def step(self) -> None:
        table, rng = self.table, self.rng
        game = table.game
        before = (game, game.version)
        roll = rng.random()
        if roll < 0.55:
            agents = [tile for tile in game.key.agents(game.turn) if not game.is_revealed(tile)]
            tile = rng.choice(agents) if agents and rng.random() < 0.7 else rng.randrange(25)
            self.board.tap(tile)
        elif roll < 0.68:
            for _ in range(rng.randrange(3)):
                self.press("clue_up")
            self.press("clue_confirm")
        elif roll < 0.76:
            self.press("end_turn")
        elif roll < 0.83:
            self.press("undo")
            self.press("clue_confirm")
        elif roll < 0.85:
            self.press("new_game", hold=table.config.controls.new_game_hold_seconds + 0.1)
            self.press("clue_confirm")
        else:
            self.clock.now += rng.choice((0.5, 2.0, REPAIR_SECONDS))
            table.update()
        while self.posted:
            table.handle(self.posted.pop(0))  # as the controller's thread would
        if game.is_over and before[0] is game and before[1] != game.version:
            self.evening.finished += 1
        if table.game is not game:
            self.evening.games += 1

    def check_now(self) -> None:
        """With the disk quiet: the record says exactly what the table shows."""
        writer = self.table.writer
        if writer.fault is not None or not writer.wait_synced(timeout=PATIENCE_S):
            return
        try:
            on_disk = read_record(writer.path).replay().state()
        except (RecordError, OSError) as error:
            self.evening.unreplayable.append(f"{writer.path.name} during play: {error}")
            return
        if on_disk != self.table.game.state():
            self.evening.lost.append(f"{writer.path.name}: the record and the table disagree during play")

    def restart(self, power_cut: bool) -> None:
        """A kill (the kernel keeps every write) or a power cut (see FaultyDisk), then a start."""
        table, writer = self.table, self.table.writer
        accepted = bytes(writer._content)
        promised = writer.durable  # what the writer has called safe
        unfinished = not table.game.is_over
        state = table.game.state()
        path = writer.path
        kept = self.disk.power_cut() if power_cut else None
        log.info("%s with %s %s", "power cut" if power_cut else "kill", path.name, "unfinished" if unfinished else "finished")
        if not power_cut:
            with self.disk.lock:
                self.disk.on = False
        writer._sync.stop()
        if writer._fd is not None:
            self.disk.real["close"](writer._fd)
            writer._fd = None
        writer._closed = True
        table.sounder.stop()
        self.disk.restarted()
        self.start()
        now = self.table
        if power_cut:
            self.evening.power_cuts += 1
            durable = accepted[:promised]
            data = path.read_bytes() if path.exists() else b""
            try:
                good = data[: parse_record(data).good_bytes]
            except RecordError:
                good = b""
            if not accepted.startswith(good) or len(good) < len(durable):
                self.evening.lost.append(
                    f"{path.name}: after a power cut {len(good)} bytes, {len(durable)} were called safe "
                    f"(the disk had synced {kept.get(str(path))}, stuck {self.disk.cut_stuck})"
                )
            elif unfinished and now.writer.path != path and not (good and parse_record(good).replay().is_over):
                # (A game the disk kept as won or lost, whose UNDO the power cut took, is over.)
                self.evening.lost.append(f"{path.name}: unfinished, yet {now.writer.path.name} was dealt after a power cut")
        else:
            self.evening.kills += 1
            if unfinished and (now.writer.path != path or now.game.state() != state):
                why = "another game" if now.writer.path != path else f"{now.game.state()} != {state}"
                self.evening.lost.append(f"{path.name}: not resumed as it was after a kill: {why} ({now.writer.path.name})")

    def close(self) -> None:
        self.table.close()


def soak(folder: Path, seed: int, faults: int, rate: float = 0.04) -> tuple[Evening, FaultyDisk]:
    rng = random.Random(seed)
    evening = Evening(seed)
    disk = FaultyDisk(folder, rng, rate)
    disk.install()
    try:
        players = Players(folder / "state", rng, disk, evening)
        players.start()
        evening.games = 1
        while sum(disk.faults.values()) < faults:
            evening.steps += 1
            players.step()
            roll = rng.random()
            if roll < 0.006:
                players.restart(power_cut=False)
            elif roll < 0.012:
                players.restart(power_cut=True)
            elif evening.steps % 97 == 0:
                with disk.lock:
                    disk.on, disk.spell = False, 0
                players.check_now()
                with disk.lock:
                    disk.on = True
        with disk.lock:
            disk.on, disk.spell = False, 0
        players.clock.now += REPAIR_SECONDS
        players.table.update()  # the disk is well again: the last record is written out
        players.check_now()
        players.close()
        evening.refused_for_disk = players.said["notice.record_unwritable"]
        evening.repairs = players.said["notice.record_saved"]
    finally:
        disk.uninstall()
    games = folder / "state" / "games"
    for path in sorted(games.glob("*.jsonl")):
        evening.records += 1
        try:
            record = read_record(path)
            record.replay()
        except (RecordError, OSError) as error:
            evening.unreplayable.append(f"{path.name}: {error}")
            continue
        evening.accepted += len(record.actions)
    evening.unreplayable += [f"{path.name}: a rewrite left behind" for path in games.glob("*" + RecordWriter.REWRITE_SUFFIX)]
    return evening, disk


def test_an_evening_with_a_thousand_disk_faults_loses_no_game(tmp_path, capsys):
    evening, disk = soak(tmp_path, seed=2026, faults=1000)
    with capsys.disabled():
        print("\n" + evening.figures(disk))
    assert sum(disk.faults.values()) >= 1000
    assert evening.kills and evening.power_cuts and evening.refused_for_disk and evening.repairs
    assert evening.lost == [] and evening.unreplayable == []


if __name__ == "__main__":
    import tempfile

    parser = argparse.ArgumentParser(description="A long evening on a failing disk (see the module's text).")
    parser.add_argument("--faults", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.04, help="chance that one call of the record's fails")
    parser.add_argument("--log", action="store_true", help="the table's log and the restarts, on stderr")
    options = parser.parse_args()
    if options.log:
        import logging

        logging.basicConfig(level=logging.INFO, format="%(threadName)s %(name)s: %(message)s")
    with tempfile.TemporaryDirectory() as folder:
        evening, disk = soak(Path(folder), options.seed, options.faults, options.rate)
    print(evening.figures(disk))
    sys.exit(1 if evening.lost or evening.unreplayable else 0)
