"""One table per folder of game records, as users start them: a second `run`, `console` or `sim` on
a held folder says who holds it and exits 1; a holder killed with kill -9 leaves a lock that
blocks nothing. And `run --seed` numbers its game after the others."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from codenames_board.engine import Clue, Key
from codenames_board.record import Header, RecordWriter
from codenames_board.statelock import LOCK_NAME, FolderInUse, hold, read_holder
from patience import PATIENCE_S

HOST = Path(__file__).resolve().parents[1] / "host"


def wait_until(condition, what):
    deadline = time.monotonic() + PATIENCE_S
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {PATIENCE_S} s")
        time.sleep(0.02)
    return value


class Process:
    """A long-running command as a real process, its output collected as it comes."""

    def __init__(self, *args, env):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "codenames_board", *map(str, args)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.decode(errors="replace").rstrip())

    def said(self, text):
        return any(text in line for line in self.lines)

    def stop(self, signum=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(signum)
        code = self.process.wait(timeout=PATIENCE_S)
        self.reader.join(timeout=PATIENCE_S)
        return code


@pytest.fixture
def table(tmp_path):
    """A table's configuration (virtual tile board, PNG display) and the environment `run` gets."""
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(
        f'state_dir = "{state}"\n[tiles]\ndriver = "virtual"\n'
        f'[display]\noutput = "png"\npng = "{tmp_path / "spymaster.png"}"\n'
    )
    env = {
        **os.environ, "PYTHONPATH": str(HOST), "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1", "XDG_STATE_HOME": str(tmp_path / "xdg"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "LANG": "C.UTF-8",
    }
    env.pop("CODENAMES_BOARD_LANG", None)
    return config, state / "games", env


def test_a_second_run_says_who_holds_the_folder_and_a_kill_9_blocks_nothing(table, run_cli):
    config, games, env = table
    first = Process("run", "--config", config, env=env)
    try:
        wait_until(lambda: first.said("ready"), "the first table ready")
        record = next(games.glob("*.jsonl"))
        before = record.read_bytes()

        second = run_cli("run", "--config", config, env={"GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy"})
        assert second.returncode == 1
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr
        assert f"process {first.process.pid}" in lines[0] and "run" in lines[0] and str(games) in lines[0]
        assert "one table per folder" in lines[0]

        console = run_cli("console", "--record", record, input="q\n")
        assert console.returncode == 1
        assert f"process {first.process.pid}" in console.stderr and console.stdout == ""

        assert sorted(games.glob("*.jsonl")) == [record] and record.read_bytes() == before  # nothing dealt, nothing added
    finally:
        assert first.stop(signal.SIGKILL) == -signal.SIGKILL
    assert read_holder(games / LOCK_NAME).pid == first.process.pid  # the lock file stays behind a kill -9 ...

    again = Process("run", "--config", config, env=env)
    try:
        wait_until(lambda: again.said("ready"), "a run after the kill -9 ready")  # ... and blocks nothing
        assert again.said(f"resumed {record}")
        assert read_holder(games / LOCK_NAME).pid == again.process.pid
    finally:
        assert again.stop() == 0
    assert not (games / LOCK_NAME).exists()  # a table that ends takes its lock file along


def test_a_second_simulator_on_the_same_games_is_refused(table, run_cli, tmp_path):
    config, _, env = table
    games = tmp_path / "state" / "sim" / "games"
    first = Process("sim", "--config", config, env=env)
    try:
        wait_until(lambda: read_holder(games / LOCK_NAME).pid == first.process.pid, "the first simulator holding its games")
        second = run_cli("sim", "--config", config, env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
        assert second.returncode == 1
        assert f"process {first.process.pid}" in second.stderr and "sim" in second.stderr
        assert len(second.stderr.strip().splitlines()) == 1, second.stderr
        # The table's own folder is another one: the simulator does not stand in its way.
        table_run = Process("run", "--config", config, env=env)
        try:
            wait_until(lambda: table_run.said("ready"), "the table ready beside the simulator")
        finally:
            assert table_run.stop() == 0
    finally:
        first.stop(signal.SIGKILL)


def test_console_records_kept_in_a_missing_folder_make_no_folders(tmp_path, run_cli):
    where = tmp_path / "no" / "such" / "folder" / "game.jsonl"
    result = run_cli("console", "--record", where, input="q\n")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"{where}: cannot write the game record: No such file or directory; choose another file with --record"
    ]
    assert not (tmp_path / "no").exists()


def test_a_games_folder_that_cannot_hold_a_lock_is_said_as_a_folder_the_table_cannot_use(tmp_path, run_cli):
    state = tmp_path / "state"
    state.mkdir()
    (state / "games").write_text("a file where the games folder belongs")
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{state}"\n[tiles]\ndriver = "virtual"\n[display]\noutput = "png"\npng = "{tmp_path / "s.png"}"\n')
    result = run_cli("run", "--config", config, env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"{state / 'games'}: the table cannot keep its games here: File exists. Free some space, "
        "or set state_dir in the configuration to a folder it can write."
    ]


def test_the_lock_is_the_folders_not_the_files_and_ends_with_the_holder(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from codenames_board.statelock import hold; "
         "lock = hold(Path(sys.argv[1]), 'run'); print('held', flush=True); time.sleep(600)", str(tmp_path / "games")],
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(HOST)}, text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(FolderInUse) as refused:
            hold(tmp_path / "games", "console")
        assert refused.value.holder.pid == holder.pid and refused.value.holder.command == "run"
        assert refused.value.holder.since.endswith("Z")
    finally:
        holder.kill()
        holder.wait(timeout=PATIENCE_S)
    with hold(tmp_path / "games", "console") as lock:  # killed: the stale file is taken over
        assert read_holder(lock.path).pid == os.getpid()
        with pytest.raises(FolderInUse):  # within one process as well: a second table is a second table
            hold(tmp_path / "games", "sim")
    assert not (tmp_path / "games" / LOCK_NAME).exists()


def test_a_lock_file_replaced_between_open_and_lock_is_not_trusted(tmp_path, monkeypatch):
    """A holder that ends removes its file; one who opened that file just before holds nothing."""
    import codenames_board.statelock as statelock

    folder = tmp_path / "games"
    folder.mkdir()
    real_try_lock, swapped = statelock._try_lock, []

    def try_lock(fd):
        if not swapped:  # the holder ended and a third table made a new file, after our open
            swapped.append(True)
            (folder / LOCK_NAME).unlink()
            (folder / LOCK_NAME).write_text("")
        return real_try_lock(fd)

    monkeypatch.setattr(statelock, "_try_lock", try_lock)
    with hold(folder, "run") as lock:
        assert os.path.samestat(os.fstat(lock._fd), os.stat(folder / LOCK_NAME))
    assert swapped


def test_a_lock_file_of_another_kind_still_names_no_holder(tmp_path):
    (tmp_path / LOCK_NAME).write_bytes(b"[" * 100_000)
    assert read_holder(tmp_path / LOCK_NAME).pid is None


def numbered_game(games, number, name):
    games.mkdir(parents=True, exist_ok=True)
    with RecordWriter.create(games / name, Header("classic", Key.generate(number), extra={"number": number})) as writer:
        writer.append(Clue(2))


def test_a_seeded_game_takes_the_next_number_and_is_the_one_resumed(table, run_cli):
    config, games, env = table
    for number in (1, 2, 3):  # unfinished, all three
        numbered_game(games, number, f"2026110{number}-200000-classic.jsonl")
    old = set(games.glob("*.jsonl"))

    seeded = Process("run", "--config", config, "--seed", 42, env=env)
    try:
        wait_until(lambda: seeded.said("ready"), "the seeded game ready")
    finally:
        assert seeded.stop() == 0
    new = sorted(set(games.glob("*.jsonl")) - old)
    assert len(new) == 1
    assert json.loads(new[0].read_text().splitlines()[0])["number"] == 4

    plain = Process("run", "--config", config, env=env)
    try:
        wait_until(lambda: plain.said("ready"), "the next start ready")
    finally:
        assert plain.stop() == 0
    assert plain.said(f"resumed {new[0]}")  # the seeded game, not game 3
    assert len(list(games.glob("*.jsonl"))) == 4
