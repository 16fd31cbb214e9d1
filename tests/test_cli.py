"""`codenames-board replay` and the command line as a whole, run as real processes: exit codes,
the display check, Ctrl-C, one seed everywhere, the README's examples."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from codenames_board.engine import Key
from codenames_board.record import read_record

KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA"  # red starts: red 0-8, blue 9-16, bystanders 17-23, assassin 24
HEADER = {"format": "codenames-board/1", "variant": "classic", "key": KEY, "start": "red"}


def record(tmp_path, *actions, header=None, name="game.jsonl"):
    path = tmp_path / name
    lines = [json.dumps(header or HEADER)] + [json.dumps(action) for action in actions]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def test_replay_json_prints_the_documented_state(tmp_path, run_cli):
    path = record(
        tmp_path,
        {"action": "clue", "count": 2},
        {"action": "touch", "tile": 0},
        {"action": "touch", "tile": 17},
        {"action": "clue", "count": "unlimited"},
        {"action": "touch", "tile": 9, "time": "2026-11-22T20:00:00Z"},
    )
    result = run_cli("replay", path, "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state == {
        "variant": "classic",
        "key": KEY,
        "start": "red",
        "turn": "blue",
        "phase": "guess",
        "clue": "unlimited",
        "guesses_made": 1,
        "guesses_left": None,
        "revealed": [0, 17, 9],
        "covered": [],
        "remaining": {"red": 8, "blue": 7},
        "winner": None,
        "reason": None,
        "score": None,
        "actions": 5,
        "turns": [
            {"team": "red", "clue": {"word": None, "count": 2}, "events": [
                {"kind": "touch", "tile": 0, "name": "A1", "word": None, "identity": "red"},
                {"kind": "touch", "tile": 17, "name": "D3", "word": None, "identity": "bystander"},
            ]},
            {"team": "blue", "clue": {"word": None, "count": "unlimited"}, "events": [
                {"kind": "touch", "tile": 9, "name": "B5", "word": None, "identity": "blue"},
            ]},
        ],
    }
    assert result.stderr == ""


def test_replay_of_a_finished_duo_game_reports_the_score(tmp_path, run_cli):
    actions = [{"action": "clue", "count": "unlimited"}] + [{"action": "touch", "tile": tile} for tile in range(9)]
    path = record(tmp_path, *actions, header={**HEADER, "variant": "duo"})
    state = json.loads(run_cli("replay", path, "--json").stdout)
    assert (state["phase"], state["winner"], state["reason"], state["score"]) == ("over", "red", "agents", 8)


def test_replay_without_json_prints_a_readable_board(tmp_path, run_cli):
    words = [f"w{n:02}" for n in range(25)]
    path = record(tmp_path, {"action": "clue", "count": 1}, {"action": "touch", "tile": 24}, header={**HEADER, "words": words})
    result = run_cli("replay", path)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[:2] == ["1. Red: 1", "   E5 w24: assassin"]  # the story first, turn by turn
    lines = lines[3:]
    assert lines[0].split() == ["1", "2", "3", "4", "5"]
    assert lines[1].startswith("A   r  w00")
    assert "[A] w24" in lines[5]
    assert "Game over: red touched the assassin, blue wins." in result.stdout


def test_replay_names_the_line_the_rules_reject(tmp_path, run_cli):
    path = record(tmp_path, {"action": "clue", "count": 1}, {"action": "touch", "tile": 3}, {"action": "touch", "tile": 3})
    result = run_cli("replay", path, "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"{path}:4: the rules reject this action: tile A4 is already revealed"]


def test_replay_of_a_file_that_is_not_a_record_is_one_clear_line(tmp_path, run_cli):
    path = tmp_path / "photo.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run_cli("replay", path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f'{path}:1: not a codenames-board game record: its first line should be a JSON object with "format": "codenames-board/1"'
    ]


@pytest.mark.parametrize("name", ["missing.jsonl", "."])
def test_replay_of_a_missing_or_unreadable_file_is_one_clear_line(tmp_path, run_cli, name):
    path = tmp_path / name
    result = run_cli("replay", path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"{path}: cannot read the file: ")


def test_replay_of_a_torn_record_warns_and_keeps_the_rest(tmp_path, run_cli):
    path = record(tmp_path, {"action": "clue", "count": 2}, {"action": "touch", "tile": 0})
    with open(path, "ab") as file:
        file.write(b'{"action": "tou')
    result = run_cli("replay", path, "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["revealed"] == [0]
    assert result.stderr.splitlines() == [
        f"{path}:4: warning: the last line is incomplete (the power went off while it was written); "
        "it was skipped and everything before it is kept"
    ]


def test_replay_speaks_the_chosen_language(tmp_path, run_cli):
    path = record(tmp_path, {"action": "touch", "tile": 3})
    result = run_cli("replay", path, "--lang", "de")
    assert result.returncode == 2
    english = run_cli("replay", path).stderr
    assert result.stderr != english
    assert result.stderr.startswith(f"{path}:2: ")
    assert run_cli("replay", path, env={"LANG": "de_DE.UTF-8"}).stderr == result.stderr


def test_help_lists_the_commands(run_cli):
    result = run_cli("--help")
    assert result.returncode == 0
    assert "console" in result.stdout and "replay" in result.stdout


# --- command-line conventions


def test_no_command_is_a_usage_mistake(run_cli):
    result = run_cli()
    assert (result.returncode, result.stdout) == (2, "")
    lines = result.stderr.splitlines()
    assert lines[0].startswith("usage: codenames-board")
    assert lines[-1] == "a command is needed: codenames-board sim plays on this computer; codenames-board --help lists them all"


def test_no_tile_board_found_is_a_runtime_failure(tmp_path, run_cli):
    result = run_cli("firmware", "stop", "--port", tmp_path / "no-pico")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"no tile board found ({tmp_path / 'no-pico'}): plug the Pico in, or name its port with --port"
    ]


# --- long-running commands as real processes: the display check, Ctrl-C, seeds

ROOT = Path(__file__).resolve().parent.parent
# pygame as it is, except that SDL reports the driver it falls back to without a screen
# ("offscreen", as pygame's wheels do on Raspberry Pi OS Lite) while the tests' dummy driver draws.
FORCE_OFFSCREEN = (
    "import sys, pygame; pygame.display.get_driver = lambda: 'offscreen'; "
    "from codenames_board.cli import main; sys.exit(main(sys.argv[1:]))"
)
NO_SCREEN_ENV = {"DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""}
HAS_KMS = any(Path("/dev/dri").glob("card*")) if Path("/dev/dri").is_dir() else False


def cli_environment(tmp_path, env=None):
    environ = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "host"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CONFIG_HOME": str(tmp_path / "state" / "config"),
        "LANG": "C.UTF-8",
        "GPIOZERO_PIN_FACTORY": "mock",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        "PYTHONUNBUFFERED": "1",  # the tests wait for lines as they are written
        "PYTHONFAULTHANDLER": "1",  # a process that has to be aborted writes every thread's stack (finish())
    }
    for name in ("LANGUAGE", "CODENAMES_BOARD_LANG", "CODENAMES_BOARD_CONFIG", "CODENAMES_BOARD_LOG"):
        environ.pop(name, None)
    environ.update(env or {})
    return {name: value for name, value in environ.items() if value != ""}  # "": unset


def table_config(tmp_path, output="png"):
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "table.toml"
    path.write_text(
        f'state_dir = "{tmp_path / "games-here"}"\n[tiles]\ndriver = "virtual"\n'
        f'[display]\noutput = "{output}"\npng = "{tmp_path / "spymaster.png"}"\n'
    )
    return path


class Started:
    """A command running as a real process in a session of its own, as a terminal runs it."""

    def __init__(self, tmp_path, *args, env=None, program=("-m", "codenames_board")):
        self.process = subprocess.Popen(
            [sys.executable, *program, *map(str, args)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=cli_environment(tmp_path, env), start_new_session=True,
        )
        self.lines = {"stdout": [], "stderr": []}
        self.changed = threading.Condition()
        self.readers = [
            threading.Thread(target=self._read, args=(name, getattr(self.process, name)), daemon=True)
            for name in self.lines
        ]
        for reader in self.readers:
            reader.start()

    def _read(self, name, stream):
        for line in stream:
            with self.changed:
                self.lines[name].append(line)
                self.changed.notify_all()

    def wait_for(self, text, stream="stderr", timeout=60):
        with self.changed:
            found = self.changed.wait_for(
                lambda: any(text in line for line in self.lines[stream]) or self.process.poll() is not None, timeout
            )
        assert found and any(text in line for line in self.lines[stream]), self.lines

    def interrupt(self):
        """Ctrl-C: SIGINT to the whole foreground group (children included), as the terminal sends it."""
        os.killpg(self.process.pid, signal.SIGINT)

    def finish(self, timeout=60):
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            # still running: SIGABRT makes it write where every thread stands (PYTHONFAULTHANDLER), and that is the failure
            os.killpg(self.process.pid, signal.SIGABRT)
            self.process.wait(10)
            for reader in self.readers:
                reader.join(10)
            stderr = "".join(self.lines["stderr"])
            raise AssertionError(f"still running after {timeout} s; its threads:\n{stderr[-8000:]}") from None
        for reader in self.readers:
            reader.join(timeout)
        return self.process.returncode, "".join(self.lines["stdout"]), "".join(self.lines["stderr"])


def wait_until_idle(pid, timeout=30):
    """Linux: wait until the process uses no CPU for a moment (a window waiting for its next event)."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        fields = stat.read_text().rsplit(")", 1)[1].split()
        now = int(fields[11]) + int(fields[12])
        if now == last:
            return
        last = now
        time.sleep(0.3)


def test_ctrl_c_stops_run_cleanly_and_a_bad_log_level_is_one_warning(tmp_path):
    table = Started(tmp_path, "run", "--config", table_config(tmp_path), env={"CODENAMES_BOARD_LOG": "loud"})
    table.wait_for("ready")
    table.interrupt()
    code, out, err = table.finish()
    assert code == 130, err
    assert "Traceback" not in err
    assert err.splitlines()[0] == (
        "CODENAMES_BOARD_LOG=loud is not a log level; info is used. The levels: debug, info, warning, error, critical"
    )
    assert "INFO codenames_board.controller: ready" in err
    [game] = (tmp_path / "games-here" / "games").glob("*.jsonl")
    assert read_record(game).header.key is not None  # the game is kept


def test_sigterm_stops_run_with_0(tmp_path):
    table = Started(tmp_path, "run", "--config", table_config(tmp_path))
    table.wait_for("ready")
    table.process.terminate()
    code, _, err = table.finish()
    assert code == 0 and "Traceback" not in err


def idle_simulator_window(tmp_path):
    """The simulator's window, its game saved, waiting in the window's loop for an event; and its games folder."""
    sim = Started(tmp_path, "sim", "--seed", 3)
    games = tmp_path / "state" / "codenames-board" / "sim" / "games"
    deadline = time.monotonic() + 60
    while not list(games.glob("*.jsonl")) and sim.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    wait_until_idle(sim.process.pid)
    return sim, games


def test_ctrl_c_stops_the_simulator_window(tmp_path):
    sim, _ = idle_simulator_window(tmp_path)
    sim.interrupt()
    code, out, err = sim.finish()
    assert (code, out, err) == (130, "", "")


def test_sigterm_stops_the_simulator_window_waiting_for_an_event(tmp_path):
    # kill's SIGTERM reaches a window idle inside SDL's event wait: it closes at once, the game kept
    sim, games = idle_simulator_window(tmp_path)
    sim.process.terminate()
    code, out, err = sim.finish(timeout=30)
    assert (code, out, err) == (143, "", "")
    [game] = games.glob("*.jsonl")
    assert read_record(game).header.key is not None


def test_ctrl_c_stops_the_console_and_keeps_the_game(tmp_path):
    console = Started(tmp_path, "console", "--seed", 4)
    console.wait_for("Type the clue number", stream="stdout")
    console.interrupt()
    code, out, err = console.finish()
    assert (code, err) == (130, "")
    assert "The game is saved in" in out


def test_ctrl_c_stops_the_selftest(tmp_path):
    selftest = Started(tmp_path, "selftest", "--config", table_config(tmp_path), "--timeout", 60)
    selftest.wait_for("", stream="stdout")
    selftest.interrupt()
    code, _, err = selftest.finish()
    assert code == 130 and "Traceback" not in err


def test_ctrl_c_stops_a_benchmark(tmp_path):
    bench = Started(tmp_path, "bench", "tiles", "--touches", 100000, "--seconds", 60)
    time.sleep(1.5)  # it prints nothing until it is done: interrupt it on the way
    bench.interrupt()
    code, out, err = bench.finish()
    assert code == 130 and "Traceback" not in err


def test_fullscreen_drawn_off_screen_unasked_stops_run_with_1(tmp_path):
    result = Started(
        tmp_path, "run", "--config", table_config(tmp_path, "fullscreen"), program=("-c", FORCE_OFFSCREEN)
    ).finish()
    code, _, err = result
    assert code == 1
    assert err.splitlines()[-1].startswith(
        'fullscreen: SDL found no screen and would draw off screen (video driver "offscreen"): '
        "this pygame's SDL has no KMS/DRM. Use a pygame built on the system's SDL "
        "(sudo host/pi/setup.sh --system-pygame, or --pygame-from-source)"
    )
    assert "ready" not in err and "Traceback" not in err


def test_fullscreen_off_screen_on_purpose_runs(tmp_path):
    table = Started(tmp_path, "run", "--config", table_config(tmp_path, "fullscreen"), env={"SDL_VIDEODRIVER": "offscreen"})
    table.wait_for("ready")
    table.interrupt()
    assert table.finish()[0] == 130


@pytest.mark.skipif(not sys.platform.startswith("linux") or HAS_KMS, reason="needs Linux without a KMS/DRM screen")
def test_fullscreen_without_any_screen_stops_run_with_1(tmp_path):
    """SDL_VIDEODRIVER unset: real pygame finds nothing to draw on here and falls back off screen."""
    code, _, err = Started(tmp_path, "run", "--config", table_config(tmp_path, "fullscreen"), env=NO_SCREEN_ENV).finish()
    assert code == 1
    assert "this pygame's SDL has no KMS/DRM" in err.splitlines()[-1] and "ready" not in err


def test_selftest_refuses_a_display_nobody_sees(tmp_path):
    code, _, err = Started(
        tmp_path, "selftest", "--config", table_config(tmp_path, "fullscreen"), "--yes", program=("-c", FORCE_OFFSCREEN)
    ).finish()
    assert code == 1
    assert "this pygame's SDL has no KMS/DRM" in err.splitlines()[-1]


RUN_NO_DISPLAY = (
    'no display here, so a window cannot be seen: set [display] output to "fullscreen", "framebuffer" or "png" '
    "in the configuration, or start the table inside a desktop session"
)
SIM_NO_DISPLAY = (
    "no display here, so the simulator's window cannot be seen: play without one with "
    "codenames-board sim --headless --script FILE, or codenames-board console"
)


def test_a_window_drawn_off_screen_is_no_display(tmp_path):
    code, _, err = Started(tmp_path, "run", "--config", table_config(tmp_path, "window"), program=("-c", FORCE_OFFSCREEN)).finish()
    assert (code, err.splitlines()[-1]) == (2, RUN_NO_DISPLAY)
    code, out, err = Started(tmp_path, "sim", program=("-c", FORCE_OFFSCREEN)).finish()
    assert (code, out, err) == (2, "", SIM_NO_DISPLAY + "\n")


@pytest.mark.skipif(not sys.platform.startswith("linux") or HAS_KMS, reason="needs Linux without a KMS/DRM screen")
def test_without_a_display_sim_and_a_window_say_so_before_sdl_starts(tmp_path):
    code, out, err = Started(tmp_path, "sim", env=NO_SCREEN_ENV).finish()
    assert (code, out, err) == (2, "", SIM_NO_DISPLAY + "\n")  # nothing from SDL: it never started
    code, out, err = Started(tmp_path, "run", "--config", table_config(tmp_path, "window"), env=NO_SCREEN_ENV).finish()
    assert (code, err) == (2, RUN_NO_DISPLAY + "\n")


# --- one seed, the same games everywhere


@pytest.mark.parametrize("seed", [0, 7, 2026])
def test_a_seed_deals_the_same_key_in_sim_console_and_run(tmp_path, seed):
    script = tmp_path / "nothing.txt"
    script.write_text("wait 0\n")
    code, out, err = Started(tmp_path / "sim", "sim", "--headless", "--script", script, "--seed", seed, "--json").finish()
    assert code == 0, err
    sim = json.loads(out)

    console = Started(tmp_path / "console", "console", "--seed", seed)
    console.process.stdin.write("new\nquit\n")  # and the evening's second game
    console.process.stdin.close()
    assert console.finish()[0] == 0
    records = (tmp_path / "console" / "state" / "codenames-board" / "console").glob("*.jsonl")
    by_seed = {header.seed: header for header in (read_record(path).header for path in records)}
    assert sorted(by_seed) == [seed, seed + 1]
    headers = [by_seed[seed], by_seed[seed + 1]]

    table = Started(tmp_path / "run", "run", "--config", table_config(tmp_path / "run"), "--seed", seed)
    table.wait_for("ready")
    table.interrupt()
    assert table.finish()[0] == 130
    [game] = (tmp_path / "run" / "games-here" / "games").glob("*.jsonl")
    run = read_record(game).header

    key = Key.generate(seed)
    assert f"{sim['key']}:{sim['start']}" == key.text()
    assert headers[0].key == run.key == key and (headers[0].seed, run.seed) == (seed, seed)
    assert headers[1].key == Key.generate(seed + 1) and headers[1].seed == seed + 1
    assert sim["words"] == headers[0].words and len(set(sim["words"])) == 25
    assert not set(headers[1].words) & set(headers[0].words)  # the next game: new words


# --- the README's examples


UNSAFE = (" run", "selftest", "bench", "firmware", "quickstart", "FILE")  # hardware, minutes, or a placeholder


def readme_commands():
    """Every codenames-board command in the README's shell blocks (comments dropped)."""
    import re

    text = (ROOT / "README.md").read_text("utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split(" #")[0].strip()
            through_quick_start = re.match(r"^python3 host/quickstart\.py (?!test\b)(\S.*)", line)
            if through_quick_start:  # `python3 host/quickstart.py ARGS` runs `codenames-board ARGS`
                commands.append(f"codenames-board {through_quick_start[1]}")
            elif re.match(r"^(\.venv/bin/)?codenames-board\b", line):
                commands.append(line)
    return commands


def git(*args, cwd):
    return subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", *args],
        cwd=cwd, capture_output=True, text=True, check=True,
    ).stdout


def test_the_readme_examples_run_and_leave_the_tests_folder_alone(tmp_path):
    """Every example a reader may just type (not the hardware ones, not those with a FILE to fill
    in) runs in a checkout and leaves its tests/ folder as git has it."""
    import shlex
    import shutil

    if shutil.which("git") is None:
        pytest.skip("needs git")
    commands = readme_commands()
    safe = [command for command in commands if not any(word in command for word in UNSAFE)]
    assert any("sim --headless" in command for command in safe) and any("config --init" in command for command in safe)
    # A checkout of its own (a copy of this tests folder, committed), so that nothing here is
    # touched and nobody else's work in this one counts (an sdist has no .git at all).
    work = tmp_path / "checkout"
    shutil.copytree(ROOT / "tests", work / "tests", ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    git("init", "-q", cwd=work)
    git("add", "tests", cwd=work)
    git("commit", "-q", "-m", "tests", cwd=work)
    written = {path: path.stat().st_mtime_ns for path in (work / "tests").rglob("*")}
    for command in safe:
        words = shlex.split(command)
        result = subprocess.run(
            [sys.executable, "-m", "codenames_board", *words[1:]], cwd=work, input="quit\n",
            capture_output=True, text=True, env=cli_environment(tmp_path), timeout=120,
        )
        assert result.returncode == 0, (command, result.stderr)
    assert git("status", "--porcelain", "--untracked-files=all", "--", "tests", cwd=work) == ""
    # Not even rewritten with the same bytes (which git would not see).
    assert {path: path.stat().st_mtime_ns for path in (work / "tests").rglob("*")} == written
    assert (work / "shots" / "reference" / "sim-guessing-1280x720.png").is_file()


# --- word packs: --words PACK|FILE and [words] for sim, console and run


def test_sim_console_and_run_name_the_packs_in_their_help(run_cli):
    for command in ("sim", "console", "run"):
        result = run_cli(command, "--help")
        assert "--words PACK|FILE" in result.stdout and "easy, standard, hard" in " ".join(result.stdout.split())


def words_args(tmp_path, command):
    """How each command is started in these tests (a script for the simulator, a table for run)."""
    if command == "sim":
        script = tmp_path / "script.txt"
        script.write_text("wait 0\n")
        return ["sim", "--headless", "--script", script, "--json"]
    if command == "run":
        return ["run", "--config", table_config(tmp_path)]
    return ["console"]


@pytest.mark.parametrize("command", ["sim", "console", "run"])
@pytest.mark.parametrize("value, line", [
    ("esay", '"esay": no word pack of that name and no such file: name a pack (easy, standard, hard) '
             "or the path of a word file of your own, one word per line"),
    ("{folder}", "{folder}: a folder, not a word file: name a file in it (one word per line) or a pack (easy, standard, hard)"),
    ("{short}", "{short}: a word list needs at least 25 different words, this one has 24: add words, one per line"),
])
def test_a_bad_words_value_is_one_line_and_exit_2_with_nothing_started(tmp_path, command, value, line):
    folder, short = tmp_path / "a folder", tmp_path / "short.txt"
    folder.mkdir()
    short.write_text("\n".join(f"w{n}" for n in range(24)))
    value, line = (text.format(folder=folder, short=short) for text in (value, line))
    code, out, err = Started(tmp_path, *words_args(tmp_path, command), "--words", value).finish()
    assert (code, err.splitlines(), out) == (2, [line], "")
    assert not (tmp_path / "state" / "codenames-board").exists() and not (tmp_path / "games-here").exists()


def test_console_deals_the_pack_named_on_the_command_line_over_the_configurations(tmp_path):
    from codenames_board.words import builtin_words

    own = tmp_path / "ours.txt"
    own.write_text("\n".join(f"ours{n}" for n in range(30)))
    config = tmp_path / "config.toml"
    config.write_text(f'[words]\npack = "{own}"\n')
    folder = tmp_path / "state" / "codenames-board" / "console"
    for args, pack in ([], "file"), (["--words", "standard"], "standard"):
        started = Started(tmp_path, "console", "--config", config, "--seed", 3, *args)
        started.process.stdin.write("quit\n")
        started.process.stdin.close()
        assert started.finish()[0] == 0
        [header] = [read_record(path).header for path in folder.glob("*.jsonl") if read_record(path).header.extra.get("pack") == pack]
        words = [f"ours{n}" for n in range(30)] if pack == "file" else builtin_words("en")
        assert len(header.words) == 25 and set(header.words) <= set(words)


def test_console_refuses_words_for_a_game_dealt_already(tmp_path, run_cli):
    record = tmp_path / "game.jsonl"
    assert run_cli("console", "--record", record, input="quit\n").returncode == 0
    result = run_cli("console", "--words", "standard", "--record", record, input="quit\n")
    assert (result.returncode, result.stderr.splitlines()) == (2, [
        f"{record} is a game already, its words dealt: leave out --words, or name a new file with --record"
    ])


def test_sim_deals_the_pack_named_and_the_configurations_otherwise(tmp_path, run_cli):
    from codenames_board.words import builtin_words

    script = tmp_path / "script.txt"
    script.write_text("wait 0\n")
    own = tmp_path / "ours.txt"
    own.write_text("\n".join(f"ours{n}" for n in range(30)))
    config = tmp_path / "config.toml"
    config.write_text(f'[words]\npack = "{own}"\n')
    dealt = run_cli("sim", "--headless", "--script", script, "--json", "--config", config)
    assert all(word.startswith("ours") for word in json.loads(dealt.stdout)["words"])
    dealt = run_cli("sim", "--headless", "--script", script, "--json", "--config", config, "--words", "standard")
    assert set(json.loads(dealt.stdout)["words"]) <= set(builtin_words("en"))


def run_table(tmp_path, *args, settings="", seed=8):
    """``run`` on mock pins until ready, then Ctrl-C; the header of the game it dealt."""
    config = table_config(tmp_path)
    config.write_text(config.read_text() + settings)
    table = Started(tmp_path, "run", "--config", config, *(["--seed", seed] if seed is not None else []), *args)
    table.wait_for("ready")
    table.interrupt()
    assert table.finish()[0] == 130
    [game] = (tmp_path / "games-here" / "games").glob("*.jsonl")
    return read_record(game).header


def test_run_with_words_easy_deals_the_easy_pack_into_the_record(tmp_path):
    from codenames_board.words import pack_words

    header = run_table(tmp_path, "--words", "easy")
    assert len(header.words) == 25 and set(header.words) <= set(pack_words("en", "easy"))
    assert (header.extra["pack"], header.seed) == ("easy", 8)


def test_run_deals_words_when_the_configuration_says_so_and_none_by_default(tmp_path):
    from codenames_board.words import builtin_words

    header = run_table(tmp_path / "dealt", settings="[words]\ndeal = true\n", seed=None)
    assert set(header.words) <= set(builtin_words("en")) and header.extra["pack"] == "standard"
    place = json.loads((tmp_path / "dealt" / "games-here" / "words-en.json").read_text())  # the standard pack's place
    assert place["position"] == 25
    header = run_table(tmp_path / "cards")  # the cards lie on the tiles
    assert header.words is None and "pack" not in header.extra


def test_replay_says_which_pack_the_words_came_from(tmp_path, run_cli):
    words = [f"w{n:02}" for n in range(25)]
    path = record(tmp_path, {"action": "clue", "count": 1}, header={**HEADER, "words": words, "pack": "hard"})
    result = run_cli("replay", path)
    assert result.stdout.splitlines()[0] == "Words: the hard pack"
    assert json.loads(run_cli("replay", "--json", path).stdout)["pack"] == "hard"
    path = record(tmp_path, header={**HEADER, "words": words, "pack": "file"}, name="own.jsonl")
    assert run_cli("replay", path).stdout.splitlines()[0] == "Words: a list of the players' own"
    path = record(tmp_path, header={**HEADER, "words": words, "pack": ["odd"]}, name="odd.jsonl")
    assert "pack" not in json.loads(run_cli("replay", "--json", path).stdout)  # a name this table never writes
