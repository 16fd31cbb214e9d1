"""Every command as a newcomer meets it, through the command line: options named one way across
commands, contradictions refused, the language chosen on the command line winning, output to a
reader who stops reading, hints that name a command that works, and the journal of ``run``."""

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from codenames_board.engine import Clue, Touch
from codenames_firmware.tileproto import LineReader
from patience import PATIENCE_S

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("console", "replay", "sim", "run", "selftest", "stats", "config", "firmware", "bench")
SAVED = {  # console.saved, the line a console game ends with, by language
    "en": "The game is saved in",
    "de": "Das Spiel ist in",
    "da": "Spillet er gemt i",
    "et": "Mäng on salvestatud",
    "id": "Permainan disimpan di",
}


def language_of(output: str) -> str:
    (found,) = [language for language, start in SAVED.items() if start in output]
    return found


# --- one name per idea; contradictions refused


def help_of(run_cli, *command):
    result = run_cli(*command, "--help")
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_every_option_names_its_value_one_way(run_cli):
    # A file is FILE, a folder DIR, a count N, a time SECONDS, in every command (`--record RECORD`,
    # `--dir`, `--init PATH` and a positional folder named one idea four ways).
    metavars = set()
    for command in COMMANDS:
        usage = help_of(run_cli, command).split("\n\n")[0]
        metavars |= set(re.findall(r"--[\w-]+ \[?([A-Z][\w]*)", usage))
        assert "--dir" not in usage and "PATH" not in usage and "RECORD" not in usage, usage
    assert metavars <= {"FILE", "DIR", "N", "SECONDS", "WIDTHxHEIGHT", "KEY", "PORT", "PACK"}, metavars  # --words PACK|FILE
    assert "--config FILE" in help_of(run_cli, "console")  # every command that reads the configuration takes it
    assert "--folder DIR" in help_of(run_cli, "stats")
    for module in ("hardware", "wiring"):
        build_kit = subprocess.run(
            [sys.executable, ROOT / "host" / "buildkit", module, "--help"], capture_output=True, text=True, timeout=60,
        )
        assert "--folder DIR" in build_kit.stdout, build_kit.stdout


def test_stats_json_says_what_it_prints(run_cli):
    assert "the state as one JSON object" in help_of(run_cli, "replay")
    stats = " ".join(help_of(run_cli, "stats").split())
    assert "print the numbers as one JSON object" in stats and "the state as one JSON object" not in stats


@pytest.mark.parametrize(
    "args, says",
    [
        (["config", "--check", "--default"], "argument --default: not allowed with argument --check"),
        (["config", "--default", "--init"], "argument --init: not allowed with argument --default"),
        (["stats", "--games", "sim", "--folder", "x"], "argument --folder: not allowed with argument --games"),
        (["console", "--seed", "3", "--key", "RRRRRRRRRBBBBBBBBNNNNNNNA"], "argument --key: not allowed with argument --seed"),
        (["firmware", "status", "--port", "x", "--config", "y"], "argument --config: not allowed with argument --port"),
        (["firmware", "path", "--port", "x"], "--port does not go with firmware path"),
        (["firmware", "status", "--force"], "--force only goes with firmware install"),
        (["sim", "--json"], "--json only goes with --headless"),
        (["sim", "--screenshots", "shots"], "--screenshots only goes with --headless"),
        (["sim", "--headless", "--script", "x", "--spymaster-window"], "--spymaster-window does not go with --headless"),
        (["bench", "run", "--touches", "5"], "--touches only goes with bench touch, bench tiles"),
        (["bench", "touch", "--seconds", "5"], "--seconds only goes with bench run, bench tiles"),
        (["bench", "tiles", "--touches", "0"], 'argument --touches: a number above 0 and at most 1000000 is needed, not "0"'),
        (["bench", "tiles", "--seconds", "nan"], 'argument --seconds: a number above 0 and at most 3600 is needed, not "nan"'),
        (["selftest", "--timeout", "-1"], 'argument --timeout: a number above 0 and at most 3600 is needed, not "-1"'),
        (["selftest", "--timeout", "99999999999"], 'argument --timeout: a number above 0 and at most 3600 is needed, not "99999999999"'),
        (["selftest", "--pads", "--yes"], "--yes does not go with --pads"),
        (["config", "--default", "--config", "x.toml"], "--config does not go with --default, --init"),
        (["config", "--init", "x.toml", "--config", "y.toml"], "--config does not go with --default, --init"),
    ],
)
def test_options_that_contradict_each_other_are_refused(run_cli, args, says):
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].endswith(f"error: {says}"), result.stderr


def test_a_seed_for_a_game_dealt_already_is_refused_not_ignored(tmp_path, run_cli):
    record = tmp_path / "game.jsonl"
    assert run_cli("console", "--seed", "4", "--record", record, input="quit\n").returncode == 0
    for option in (["--seed", "5"], ["--key", "RRRRRRRRRBBBBBBBBNNNNNNNA"], ["--variant", "duo"]):
        result = run_cli("console", *option, "--record", record, input="quit\n")
        assert (result.returncode, result.stderr.splitlines()) == (2, [
            f"{record} is a game already and goes on as it was dealt: leave out --seed, --key and --variant, "
            "or name a new file with --record"
        ])
    assert run_cli("console", "--record", record, input="quit\n").returncode == 0  # and it goes on


# --- the language: the command line, then the environment, then the configuration


@pytest.mark.parametrize(
    "args, environment, language",
    [
        (["--lang", "da", "console"], {}, "da"),  # before the command: it was lost to the configuration's
        (["console", "--lang", "da"], {}, "da"),
        (["console"], {"CODENAMES_BOARD_LANG": "et"}, "et"),
        (["console"], {}, "de"),  # the configuration's, over the locale's
        (["console"], {"LANG": "id_ID.UTF-8"}, "de"),
    ],
)
def test_the_language_on_the_command_line_wins_over_the_configuration(tmp_path, run_cli, args, environment, language):
    config = tmp_path / "state" / "config" / "codenames-board" / "config.toml"  # run_cli's XDG_CONFIG_HOME
    config.parent.mkdir(parents=True)
    config.write_text('language = "de"\n')
    result = run_cli(*args, input="quit\n", env=environment)
    assert result.returncode == 0, result.stderr
    assert language_of(result.stdout) == language


def test_stats_speaks_the_language_chosen_before_the_command(tmp_path, run_cli):
    config = tmp_path / "config.toml"
    config.write_text(f'language = "de"\nstate_dir = "{tmp_path}"\n')
    assert run_cli("--lang", "et", "stats", "--config", config).stdout.splitlines()[-1] == "Seal pole veel ühtegi mängu."
    assert run_cli("stats", "--config", config).stdout.splitlines()[-1] == "Dort gibt es noch keine Spiele."


# --- console: its configuration and its folder


def test_console_takes_a_configuration_and_keeps_its_games_in_its_state_folder(tmp_path, run_cli):
    config = tmp_path / "table.toml"
    config.write_text(f'state_dir = "{tmp_path / "elsewhere"}"\nvariant = "duo"\n')
    result = run_cli("console", "--config", config, input="quit\n")
    assert result.returncode == 0, result.stderr
    (record,) = (tmp_path / "elsewhere" / "console").glob("*.jsonl")
    assert record.name.endswith("-duo.jsonl")  # the configuration's variant
    assert str(record) in result.stdout
    config.write_text("varient = 'duo'\n")
    bad = run_cli("console", "--config", config, input="quit\n")
    assert (bad.returncode, bad.stderr.splitlines()) == (2, [f'{config}: varient: unknown setting; did you mean "variant"?'])


def test_the_state_folder_is_worked_out_in_one_place():
    package = ROOT / "host" / "codenames_board"
    sources = {path.relative_to(package).as_posix(): path.read_text("utf-8") for path in package.rglob("*.py")}
    assert [name for name, text in sources.items() if "XDG_STATE_HOME" in text] == ["config.py"]


# --- output to a reader who stops reading


@pytest.fixture
def a_record(tmp_path):
    from codenames_board.engine import Key
    from codenames_board.record import Header, RecordWriter

    path = tmp_path / "game.jsonl"
    with RecordWriter.create(path, Header("classic", Key.generate(3), seed=3)) as writer:
        writer.append(Clue(2), time="2026-11-28T20:00:00Z")
        writer.append(Touch(0), time="2026-11-28T20:00:10Z")
    return path


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "--json", "RECORD"],
        ["replay", "RECORD"],
        ["stats", "--json"],
        ["stats"],
        ["config", "--default"],
        ["--help"],
        ["stats", "--help"],
        ["firmware", "path"],
        ["sim", "--headless", "--script", "SCRIPT", "--json"],
        ["console", "--seed", "1"],
    ],
)
def test_a_reader_that_stops_reading_gets_no_traceback(tmp_path, a_record, args):
    # `codenames-board replay --json FILE | head -c 10`: here the reader has gone before the first byte.
    script = tmp_path / "game.txt"
    script.write_text("clue 2\ntouch A1\n")
    args = [str(a_record) if arg == "RECORD" else str(script) if arg == "SCRIPT" else arg for arg in args]
    read_end, write_end = os.pipe()
    os.close(read_end)
    environ = {**os.environ, "PYTHONPATH": str(ROOT / "host"), "XDG_STATE_HOME": str(tmp_path / "state"),
               "XDG_CONFIG_HOME": str(tmp_path / "config"), "SDL_VIDEODRIVER": "dummy", "LANG": "C.UTF-8"}
    try:
        result = subprocess.run(
            [sys.executable, "-m", "codenames_board", *args],
            stdout=write_end, stderr=subprocess.PIPE, input=b"quit\n", env=environ, timeout=60,
        )
    finally:
        os.close(write_end)
    assert result.stderr.decode() == ""
    assert result.returncode == 1  # what was asked could not be delivered


@pytest.mark.parametrize(
    "args", [["replay", "RECORD"], ["config", "--default"], ["--help"], ["--version"], ["console", "--seed", "1"]]
)
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here (Linux has it)")
def test_output_to_a_full_disk_is_one_line_and_blames_no_record(tmp_path, a_record, args):
    args = [str(a_record) if arg == "RECORD" else arg for arg in args]
    environ = {**os.environ, "PYTHONPATH": str(ROOT / "host"), "XDG_STATE_HOME": str(tmp_path / "state"),
               "XDG_CONFIG_HOME": str(tmp_path / "config"), "LANG": "C.UTF-8"}
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "codenames_board", *args],
            stdout=full, stderr=subprocess.PIPE, text=True, input="1\nC3\nquit\n", env=environ, timeout=60,
        )
    assert (result.returncode, result.stderr.splitlines()) == (1, ["the output cannot be written: No space left on device"])


# --- hints name a command that works here


def test_a_hint_names_the_command_as_it_was_started(tmp_path):
    # After the quick start only .venv/bin/codenames-board exists: a hint saying "codenames-board sim
    # --headless" names a command that is not there. Started by its path, a hint names that path.
    installed = Path(sys.executable).parent / "codenames-board"
    if not installed.exists():
        pytest.skip(f"no codenames-board command beside {sys.executable}")
    environ = {
        **os.environ, "PATH": "/usr/bin:/bin", "DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": "",
        "XDG_STATE_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "LANG": "C.UTF-8",
    }
    environ = {name: value for name, value in environ.items() if value and name != "CODENAMES_BOARD_COMMAND"}
    result = subprocess.run([str(installed), "sim"], capture_output=True, text=True, env=environ, cwd=tmp_path, timeout=60)
    assert result.returncode == 2
    assert f"play without one with {installed} sim --headless --script FILE, or {installed} console" in result.stderr
    on_path = {**environ, "PATH": f"{installed.parent}:/usr/bin:/bin"}
    result = subprocess.run([str(installed), "sim"], capture_output=True, text=True, env=on_path, timeout=60)
    assert "with codenames-board sim --headless --script FILE" in result.stderr


def test_the_quick_start_passes_its_own_name_to_the_hints(tmp_path):
    if Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        pytest.skip("the tests run outside the quick start's .venv (python3 host/quickstart.py test runs them in it)")
    environ = {
        **os.environ, "DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": "",
        "XDG_STATE_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "LANG": "C.UTF-8",
    }
    environ = {name: value for name, value in environ.items() if value and name != "CODENAMES_BOARD_COMMAND"}
    result = subprocess.run(
        ["python3", "host/quickstart.py", "sim"], capture_output=True, text=True, env=environ, cwd=ROOT, timeout=300
    )
    assert result.returncode == 2, result.stderr
    assert "with python3 host/quickstart.py sim --headless --script FILE" in result.stderr


# --- config --init: what it could not write


def test_config_init_where_nothing_can_be_written_names_the_configuration(run_cli):
    result = run_cli("config", "--init", "/proc/codenames/config.toml")
    assert result.returncode == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("/proc/codenames: the configuration cannot be written there: ")
    assert line.endswith("Name a file in a folder you can write: codenames-board config --init FILE")
    assert "record" not in line


# --- run: the journal tells a maker what is wrong


def test_run_without_a_tile_board_says_so_in_its_log(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(
        f'state_dir = "{tmp_path / "state"}"\n[tiles]\ndriver = "serial"\nport = "{tmp_path / "no-pico"}"\n'
        f'[display]\noutput = "png"\npng = "{tmp_path / "spymaster.png"}"\n'
    )
    environ = {
        **os.environ, "PYTHONPATH": str(ROOT / "host"), "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "codenames_board", "run", "--config", str(config)],
        stderr=subprocess.PIPE, text=True, env=environ,
    )
    log, changed = [], threading.Condition()

    def read():
        for line in process.stderr:
            with changed:
                log.append(line.rstrip())
                changed.notify_all()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        with changed:  # ready, and the warning (which may come first: the driver's thread starts before)
            changed.wait_for(
                lambda: any(line.endswith(" ready") for line in log) and any("tile board" in line for line in log),
                PATIENCE_S,
            )
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(PATIENCE_S)
        reader.join(PATIENCE_S)
    assert process.returncode == 0, log
    assert any(line.endswith(" ready") for line in log), log
    assert [line for line in log if "no tile board found" in line] == [
        f"WARNING codenames_board.tileboard.serial_board: no tile board found (port {tmp_path / 'no-pico'}): "
        "plug the Pico in by USB, or set [tiles] port; waiting for one"
    ], log
    assert not [line for line in log if "by the board" in line], log  # no board has capped anything


# --- firmware stop: a board that restarts before its BYE is read


def test_firmware_stop_counts_a_board_that_restarts_at_once_as_stopped(tmp_path, run_cli):
    master, slave = os.openpty()
    tty.setraw(slave)
    link = tmp_path / "codenames-tiles"
    link.symlink_to(os.ttyname(slave))

    def board():  # STOP arrives, the board resets at once: its port is gone before BYE could be read
        reader = LineReader()
        while True:
            if select.select([master], [], [], PATIENCE_S)[0]:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    break
                if any(words[0] == b"STOP" for words in reader.feed(data)):
                    break
        os.close(master)

    thread = threading.Thread(target=board, daemon=True)
    thread.start()
    try:
        result = run_cli("firmware", "stop", "--port", link)
    finally:
        thread.join(PATIENCE_S)
        os.close(slave)
    assert result.returncode == 0, result.stderr
    assert f"The tile board on {link} restarts in maintenance mode" in result.stdout


# --- long work shows how far it is on a terminal, and only there


def test_bench_tiles_shows_progress_on_a_terminal_and_nothing_in_a_pipe(tmp_path):
    environ = {**os.environ, "PYTHONPATH": str(ROOT / "host"), "LANG": "C.UTF-8", "CODENAMES_BOARD_LOG": "info"}
    command = [sys.executable, "-m", "codenames_board", "bench", "tiles", "--touches", "40", "--seconds", "0.3"]
    piped = subprocess.run(command, capture_output=True, text=True, env=environ, timeout=PATIENCE_S)
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == ""  # no progress, and no "runs other firmware" about the stand-in board
    assert piped.stdout.startswith("The serial driver alone")

    master, slave = pty.openpty()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, env=environ)
    os.close(slave)
    terminal = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the process closed its end
            break
        if not chunk:
            break
        terminal += chunk
    out, _ = process.communicate(timeout=PATIENCE_S)
    os.close(master)
    assert process.returncode == 0
    shown = terminal.decode()
    assert "\rtouches timed: 0 of 40" in shown and "\rsending frames for 0.3 s ..." in shown
    assert shown.endswith("\r"), shown[-80:]  # the line is cleared before the results
    assert out.decode().startswith("The serial driver alone")


# --- help and usage texts stay translatable


def test_the_new_messages_are_said_in_every_language():
    from codenames_board.i18n import LANGUAGES, catalog

    for msgid in ("cli.only_with", "cli.not_with", "cli.positive", "config.init_unwritable", "stats.folder",
                  "stats.other_sim", "bench.progress_touches"):
        texts = {catalog(language)[msgid] for language in LANGUAGES}
        assert len(texts) == len(LANGUAGES), msgid  # translated, not copied


def test_stats_json_names_the_folder(tmp_path, run_cli):
    data = json.loads(run_cli("stats", "--json").stdout)
    assert data["folder"] == str(tmp_path / "state" / "codenames-board" / "games")


# --- what the audit of every command found


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("device", ["fifo", "/dev/zero"])
@pytest.mark.parametrize(
    "args",
    [["replay", "X"], ["console", "--record", "X"], ["sim", "--headless", "--script", "X"],
     ["sim", "--headless", "--script", "SCRIPT", "--words", "X"]],
)
def test_a_pipe_or_a_device_for_a_file_is_one_line_not_a_hang(tmp_path, run_cli, fifo, device, args):
    # A FIFO waited for a writer forever; /dev/zero filled the memory (6.7 GB in 7 s).
    path = fifo if device == "fifo" else Path(device)
    script = tmp_path / "game.txt"
    script.write_text("clue 2\n")
    args = [str(path) if arg == "X" else str(script) if arg == "SCRIPT" else arg for arg in args]
    result = run_cli(*args, input="quit\n")
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{path}: not a regular file (a pipe or a device): name a")


def test_stats_lists_a_pipe_among_the_records_as_unreadable(tmp_path, run_cli, fifo):
    result = run_cli("stats", "--folder", fifo.parent)
    assert result.returncode == 0
    assert "Records that could not be read (1): pipe.jsonl" in result.stdout


def test_a_display_picture_that_cannot_be_written_stops_run_in_one_line(tmp_path):
    config = tmp_path / "table.toml"
    folder = tmp_path / "spymaster.png"
    folder.mkdir()  # a folder where the picture should go
    config.write_text(f'state_dir = "{tmp_path}"\n[tiles]\ndriver = "virtual"\n[display]\noutput = "png"\npng = "{folder}"\n')
    environ = {**os.environ, "PYTHONPATH": str(ROOT / "host"), "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy",
               "SDL_AUDIODRIVER": "dummy", "LANG": "C.UTF-8", "CODENAMES_BOARD_LOG": "warning"}
    result = subprocess.run(
        [sys.executable, "-m", "codenames_board", "run", "--config", str(config)],
        capture_output=True, text=True, env=environ, timeout=PATIENCE_S,
    )
    assert (result.returncode, result.stderr.splitlines()) == (2, [
        f"{folder}: the display's picture cannot be written there: Is a directory; "
        "set [display] png to a file in a folder it can write"
    ])


def test_selftest_without_anyone_to_answer_says_so_instead_of_failing_the_hardware(tmp_path, run_cli):
    config = tmp_path / "table.toml"
    config.write_text(f'[tiles]\ndriver = "virtual"\n[display]\noutput = "png"\npng = "{tmp_path / "d.png"}"\n')
    result = run_cli("selftest", "--config", config, "--timeout", "0.3", input="",
                     env={"GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].startswith("no answers: standard input has ended")
    assert "FAILED" not in result.stdout


def test_config_init_names_the_file_to_check_and_a_file_in_the_way(tmp_path, run_cli):
    result = run_cli("config", "--init", tmp_path / "mine.toml")
    assert result.stdout.strip().endswith(f"codenames-board config --check --config {tmp_path / 'mine.toml'}")
    result = run_cli("config", "--init", tmp_path / "mine.toml" / "sub.toml")
    assert result.returncode == 1
    assert result.stderr.startswith(f"{tmp_path / 'mine.toml'}: the configuration cannot be written there: Not a directory.")
    default = run_cli("config", "--init")  # where the commands look: no --config needed
    assert default.stdout.strip().endswith("then check it: codenames-board config --check")


def test_a_setting_in_the_wrong_table_says_where_it_belongs_and_a_bom_is_no_error(tmp_path, run_cli):
    config = tmp_path / "table.toml"
    config.write_text("[leds]\nbrightness = 50\n")
    result = run_cli("config", "--check", "--config", config)
    assert (result.returncode, result.stderr.splitlines()) == (2, [
        f"{config}: [leds] brightness: not a setting of this table; it belongs in [tiles]: move it there"
    ])
    config.write_bytes(b"\xef\xbb\xbf[tiles]\nbrightness = 50\n")  # as Notepad saves UTF-8
    assert run_cli("config", "--check", "--config", config).returncode == 0


def test_console_says_a_tile_off_the_grid_is_not_a_tile(run_cli):
    result = run_cli("console", "--seed", "1", input="2\nF1\n6 6\nfoo\nquit\n")
    assert '"F1" is not a tile: write it as C3 (row A-E, column 1-5) or as 3 3' in result.stdout
    assert '"6 6" is not a tile' in result.stdout and '"foo" is not a command' in result.stdout


def test_console_blames_the_state_folder_not_a_record_and_an_empty_file_for_what_it_is(tmp_path, run_cli):
    config = tmp_path / "table.toml"
    config.write_text('state_dir = "/proc/codenames/state"\n')
    result = run_cli("console", "--config", config, input="quit\n")
    assert result.returncode == 2
    assert result.stderr.startswith("/proc/codenames: the console cannot keep its games here:")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = run_cli("console", "--seed", "1", "--record", empty, input="quit\n")
    assert (result.returncode, result.stderr.splitlines()) == (2, [f"{empty}: the file is empty, it is not a game record"])


def test_sim_screenshots_are_png_files_in_a_folder(tmp_path, run_cli):
    script = tmp_path / "game.txt"
    script.write_text("clue 2\nscreenshot board.txt\n")
    result = run_cli("sim", "--headless", "--script", script, env={"SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 2 and result.stderr.startswith(f"{script}:2: screenshot takes the name of a PNG file")
    script.write_text("clue 2\nscreenshot board.png\n")
    (tmp_path / "shots").write_text("")
    result = run_cli("sim", "--headless", "--script", script, "--screenshots", tmp_path / "shots", env={"SDL_VIDEODRIVER": "dummy"})
    assert (result.returncode, result.stderr.splitlines()) == (2, [
        f"{tmp_path / 'shots'} is not a folder: --screenshots names the folder the screenshots go to (it is made if it does not exist)"
    ])


def test_a_benchmark_stopped_by_sigterm_leaves_nothing_behind(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    environ = {**os.environ, "PYTHONPATH": str(ROOT / "host"), "TMPDIR": str(scratch), "LANG": "C.UTF-8"}
    process = subprocess.Popen(
        [sys.executable, "-m", "codenames_board", "bench", "run", "--seconds", "600"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ,
    )
    deadline = time.monotonic() + PATIENCE_S
    while not any(scratch.iterdir()) and time.monotonic() < deadline:  # its first start is under way
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=PATIENCE_S)
    assert process.returncode == 128 + signal.SIGTERM
    assert b"Traceback" not in stderr
    assert list(scratch.iterdir()) == []


def test_a_sigterm_while_the_benchmarks_table_starts_stops_it_before_its_folder_goes(tmp_path, monkeypatch):
    # the race the test above can meet under load: SIGTERM's SystemExit while `run` is still starting. The
    # child is stopped and waited for first, or it writes its state into the folder as it is removed
    from codenames_board import bench

    class Starting:
        def __init__(self, *args, **kwargs):
            self.stopped = self.waited = False
            self.stdout = self

        def __iter__(self):
            raise SystemExit(128 + signal.SIGTERM)

        def terminate(self):
            self.stopped = True

        def wait(self, timeout=None):
            self.waited = self.stopped
            return -signal.SIGTERM

    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(Starting()) or started[-1])
    with pytest.raises(SystemExit):
        bench.start_headless(tmp_path)
    assert started[0].stopped and started[0].waited
    with pytest.raises(SystemExit):
        bench.bench_run(idle_seconds=0, runs=1)
    assert started[1].stopped and started[1].waited


@pytest.mark.parametrize(
    "args, code, says",
    [
        (["wiring", "--folder", "/proc/codenames/wiring"], 1, "cannot write /proc/codenames"),
        (["hardware", "--define", "leds=1"], 2, "--define only goes with --picture or --stl"),
        (["hardware", "--check", "--picture"], 2, "--check does not go with --picture, --steps or --stl"),
        (["nonsense"], 2, "unknown command 'nonsense': choose one of wiring, hardware, power"),
    ],
)
def test_the_build_kits_commands_say_one_line(args, code, says):
    module, *rest = args
    result = subprocess.run(
        [sys.executable, ROOT / "host" / "buildkit", module, *rest], capture_output=True, text=True, timeout=PATIENCE_S,
    )
    assert result.returncode == code
    assert says in result.stderr.splitlines()[-1] and "Traceback" not in result.stderr


def test_the_build_kits_output_to_a_reader_gone_is_no_traceback():
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run(
            [sys.executable, ROOT / "host" / "buildkit", "power"], stdout=write_end, stderr=subprocess.PIPE,
            timeout=PATIENCE_S,
        )
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (1, b"")


def test_closed_standard_streams_are_said_not_tracebacks(tmp_path, a_record):
    # `codenames-board stats >&-` and `console <&-`: a closed stdout is output that cannot be
    # written (exit 1), a closed stdin is input that has ended.
    environ = {**os.environ, "PYTHONPATH": str(ROOT / "host"), "XDG_STATE_HOME": str(tmp_path / "state"),
               "XDG_CONFIG_HOME": str(tmp_path / "config"), "LANG": "C.UTF-8"}
    command = [sys.executable, "-m", "codenames_board"]
    closed_stdout = subprocess.run(
        ["bash", "-c", 'exec "$@" >&-', "-", *command, "replay", str(a_record)], capture_output=True, text=True,
        env=environ, timeout=PATIENCE_S,
    )
    assert (closed_stdout.returncode, closed_stdout.stderr) == (1, "the output cannot be written: Bad file descriptor\n")
    closed_stdin = subprocess.run(
        ["bash", "-c", 'exec "$@" <&-', "-", *command, "console", "--seed", "1"], capture_output=True, text=True,
        env=environ, timeout=PATIENCE_S,
    )
    assert closed_stdin.returncode == 0 and closed_stdin.stderr == ""
    assert "The game is saved in" in closed_stdin.stdout


def test_a_display_picture_is_checked_by_config_check_and_selftest_as_run_checks_it(tmp_path, run_cli):
    config = tmp_path / "table.toml"
    (tmp_path / "folder.png").mkdir()
    for png, says in ((tmp_path / "board.txt", 'is not a PNG file\'s name: end it in .png'),
                      (tmp_path / "folder.png", "the display's picture cannot be written there: Is a directory")):
        config.write_text(f'[tiles]\ndriver = "virtual"\n[display]\noutput = "png"\npng = "{png}"\n')
        check = run_cli("config", "--check", "--config", config)
        assert check.returncode == 2 and says in check.stderr, check.stderr
        selftest = run_cli("selftest", "--config", config, "--yes", "--timeout", "0.3",
                           env={"GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy"})
        assert selftest.returncode == 2 and says in selftest.stderr and "OK" not in selftest.stdout


def test_a_relative_xdg_state_home_is_ignored_as_the_spec_says(tmp_path, run_cli):
    home = tmp_path / "home"
    result = run_cli("stats", env={"XDG_STATE_HOME": "relative/x", "HOME": str(home)})
    assert result.stdout.splitlines()[0] == f"Games in {home / '.local' / 'state' / 'codenames-board' / 'games'}"
