"""Start-up on odd state: one clear line or a game, never a traceback (faults injected into the disk)."""

import errno
import os
from datetime import datetime, timezone

import pytest

from codenames_board.config import parse
from codenames_board.i18n import Translator
from codenames_board.record import Header, RecordError, RecordWriter, parse_record, read_record
from codenames_board.engine import Clue, Key
from codenames_board.table import Table
from codenames_board.tileboard import VirtualTileBoard


class Clock:
    now = 1000.0

    def __call__(self):
        return self.now


def table_in(state):
    config = parse(f'state_dir = "{state}"\n')
    return Table(
        config, Translator("en"), VirtualTileBoard(status_leds=12), Clock(), new_seed=lambda: 7,
        wall_clock=lambda: datetime(2026, 11, 23, 20, 0, tzinfo=timezone.utc),
    )


def unfinished_record(games, name="20261122-200000-classic.jsonl"):
    games.mkdir(parents=True, exist_ok=True)
    with RecordWriter.create(games / name, Header("classic", Key.generate(3))) as writer:
        writer.append(Clue(2))
    return games / name


def test_run_with_a_state_folder_that_is_a_file_says_so_in_one_line(tmp_path, run_cli):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    config = tmp_path / "config.toml"
    config.write_text(
        f'state_dir = "{blocker}"\n[tiles]\ndriver = "virtual"\n'
        f'[display]\noutput = "png"\npng = "{tmp_path / "spymaster.png"}"\n'
    )
    result = run_cli("run", "--config", config, env={"GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr
    assert any("the table cannot keep its games here" in line and "state_dir" in line for line in lines), result.stderr


def test_the_service_does_not_retry_a_start_only_a_person_can_fix():
    from pathlib import Path

    unit = (Path(__file__).parents[1] / "host" / "pi" / "codenames-board.service").read_text()
    assert "RestartPreventExitStatus=2" in unit


def test_a_folder_named_like_a_record_is_left_alone(tmp_path):
    (tmp_path / "games" / "20990101-000000-classic.jsonl").mkdir(parents=True)
    table = table_in(tmp_path)
    table.start()
    assert table.writer is not None and not table.game.actions
    assert table.ui.notices[-1].msgid == "notice.record_damaged"
    table.close()


def test_a_record_nested_too_deep_is_damaged_not_a_crash(tmp_path):
    path = unfinished_record(tmp_path / "games")
    with open(path, "ab") as record:
        record.write(b"[" * 200_000 + b"]" * 200_000 + b"\n" + b'{"action": "timeout"}\n')
    with pytest.raises(RecordError):
        parse_record(path.read_bytes())
    table = table_in(tmp_path)
    table.start()  # left as it is, named on the display, and a new game dealt
    assert table.writer.path != path and table.ui.notices[-1].msgid == "notice.record_damaged"
    table.close()


def test_an_unfinished_game_that_cannot_be_reopened_is_played_on_and_written_out_anew(tmp_path, monkeypatch):
    from codenames_board.engine import Touch

    path = unfinished_record(tmp_path / "games")
    before = path.read_bytes()
    real_open = os.open

    def read_only(name, flags, *args):
        if os.fspath(name) == os.fspath(path) and flags & (os.O_WRONLY | os.O_RDWR):
            raise OSError(errno.EROFS, "Read-only file system", os.fspath(name))
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    table = table_in(tmp_path)
    table.start()  # read, so resumed; kept in memory until the record can be written
    assert table.writer.path == path and [action.name for action in table.game.actions] == ["clue"]
    assert table.ui.notices[-1].msgid == "notice.record_unsaved"
    assert path.read_bytes() == before  # untouched so far
    tile = next(tile for tile in table.game.key.agents(table.game.turn))
    assert table.play(Touch(tile), table.clock())  # the record is written anew beside it and renamed over
    table.close()
    assert path.read_bytes().startswith(before)
    assert [action.name for _, action in read_record(path).actions] == ["clue", "touch"]


def test_no_game_can_be_dealt_on_a_full_disk_and_the_start_says_why(tmp_path, monkeypatch):
    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    table = table_in(tmp_path)
    with pytest.raises(OSError) as raised:
        table.start()
    assert raised.value.errno == errno.ENOSPC
    assert not list((tmp_path / "games").glob("*.jsonl"))  # no empty record left behind
    table.close()


def test_replay_of_a_record_nested_too_deep_is_one_line(tmp_path, run_cli):
    path = unfinished_record(tmp_path / "games")
    with open(path, "ab") as record:
        record.write(b"[" * 100_000 + b"]" * 100_000 + b"\n" + b'{"action": "timeout"}\n')
    result = run_cli("replay", path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0 and f"{path}:3:" in result.stderr


def test_a_config_that_is_a_fifo_or_a_device_is_one_line_not_a_hang(tmp_path, run_cli):
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero"):
        result = run_cli("config", "--check", "--config", path)  # run_cli's timeout would catch a hang
        assert result.returncode == 2 and "not a regular file" in result.stderr and "Traceback" not in result.stderr


def test_a_sim_script_that_is_not_utf8_text_is_one_line(tmp_path, run_cli):
    script = tmp_path / "game.txt"
    script.write_text("touch C3\n", "utf-16")
    result = run_cli("sim", "--headless", "--script", script, env={"SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 2 and "not UTF-8" in result.stderr and "Traceback" not in result.stderr


def test_a_screenshot_too_big_for_memory_is_a_script_mistake(tmp_path, run_cli):
    script = tmp_path / "game.txt"
    script.write_text("screenshot a.png 100000x100000\n")
    result = run_cli("sim", "--headless", "--script", script, env={"SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 2 and f"{script}:1:" in result.stderr and "7680x4320" in result.stderr


@pytest.mark.parametrize("where", ["under-a-file/shot.png", "taken/shot.png"])
def test_a_screenshot_that_cannot_be_saved_is_one_line(tmp_path, run_cli, where):
    (tmp_path / "under-a-file").write_text("")  # its folder cannot be made (OSError from mkdir)
    (tmp_path / "taken" / "shot.png").mkdir(parents=True)  # a folder where the picture would go: SDL cannot open it
    script = tmp_path / "game.txt"
    script.write_text(f"touch C3\nscreenshot {where}\n")
    result = run_cli("sim", "--headless", "--script", script, env={"SDL_VIDEODRIVER": "dummy"})
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert len(lines) == 1 and lines[0].startswith(f"{script}:2: cannot save the screenshot"), lines


@pytest.mark.parametrize("nesting", ["a = " + "[" * 5000 + "]" * 5000, "a = " + "{b = " * 3000 + "}" * 3000])
def test_a_configuration_nested_thousands_deep_is_one_line(tmp_path, run_cli, nesting):
    path = tmp_path / "deep.toml"
    path.write_text(nesting + "\n")
    for command in (["config", "--check"], ["run"]):
        result = run_cli(*command, "--config", path, env={"GPIOZERO_PIN_FACTORY": "mock"})
        assert result.returncode == 2
        assert result.stderr.strip().splitlines() == [f"{path}: not valid TOML: nested deeper than a configuration can be"]


def test_a_display_picture_that_cannot_be_written_stops_run_before_a_game_is_dealt(tmp_path, run_cli):
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{state}"\n[tiles]\ndriver = "virtual"\n[display]\noutput = "png"\npng = "/proc/nope/spy.png"\n')
    result = run_cli("run", "--config", config, env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("/proc/nope/spy.png: the display's picture cannot be written there")
    assert not state.exists()  # no game dealt, no folder made


GIGABYTES = 5 * 1024**3  # a sparse file: no disk space, but every reader that reads it whole runs out of memory


@pytest.mark.parametrize("command", [
    ["config", "--check", "--config", "{file}"],
    ["replay", "{file}"],
    ["console", "--record", "{file}"],
    ["sim", "--headless", "--script", "{file}"],
    ["sim", "--headless", "--script", "{script}", "--words", "{file}"],
])
def test_every_file_a_user_names_is_refused_when_larger_than_its_kind_before_it_is_read(tmp_path, run_cli, command):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as file:
        file.truncate(GIGABYTES)
    script = tmp_path / "script.txt"
    script.write_text("clue 1\n")
    args = [part.format(file=huge, script=script) for part in command]
    result = run_cli(*args, input="q\n", env={"SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(huge) in lines[0] and f"{GIGABYTES} bytes" in lines[0], result.stderr
    assert "Traceback" not in result.stderr
