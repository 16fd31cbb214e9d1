"""A record is as big as a game can be, no bigger: past the limits it is refused in one line before
it is read (a 50 MB file once took replay 875 MB and run 1.1 GB), a record within them is read a
line at a time, and the writer never makes one the readers would refuse."""

import errno
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import codenames_board.record.writer as writer_module  # where the writer reads its limits
from codenames_board.engine import Clue, Key, Touch, Undo
from codenames_board.record import MAX_ACTIONS, MAX_RECORD_BYTES, Header, RecordError, RecordFull, RecordWriter, parse_record, read_record

HOST = Path(__file__).resolve().parents[1] / "host"
KEY = Key.generate(7)
TILE = next(tile for tile in range(25) if KEY.letters[tile] == KEY.start.value[0].upper())
TOUCH = b'{"action": "touch", "tile": %d, "time": "2026-11-28T05:00:02Z"}\n' % TILE
UNDO = b'{"action": "undo", "time": "2026-11-28T05:00:03Z"}\n'


def write_record(path: Path, actions: int) -> Path:
    """A record of a clue and then ``actions - 1`` lines of touch, undo, touch, ... (a legal game)."""
    with open(path, "wb") as file:
        file.write(json.dumps(Header("classic", KEY, None, "en", 7, "2026-11-28T05:00:00Z").to_json()).encode() + b"\n")
        file.write(b'{"action": "clue", "count": 2, "time": "2026-11-28T05:00:01Z"}\n')
        pair = TOUCH + UNDO
        body = pair * ((actions - 1) // 2) + (TOUCH if (actions - 1) % 2 else b"")
        file.write(body)
    return path


def limited_memory():
    resource.setrlimit(resource.RLIMIT_AS, (400 * 1024 * 1024,) * 2)


@pytest.mark.parametrize("command", [["replay"], ["stats", "--folder"]])
def test_a_record_of_50_mb_is_refused_in_one_line_within_400_mb_of_memory(tmp_path, command):
    games = tmp_path / "games"
    games.mkdir()
    huge = write_record(games / "huge.jsonl", 900_000)
    assert huge.stat().st_size > 50_000_000
    result = subprocess.run(
        [sys.executable, "-m", "codenames_board", *command, str(huge if command == ["replay"] else games)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(HOST), "LANG": "C.UTF-8"},
        preexec_fn=limited_memory, timeout=120,
    )
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    expected = f"{huge}: {huge.stat().st_size} bytes, more than a game record can be ({MAX_RECORD_BYTES} at most): not read"
    if command == ["replay"]:
        assert result.returncode == 2 and result.stderr.strip().splitlines() == [expected]
    else:
        assert result.returncode == 0 and "Records that could not be read (1): huge.jsonl" in result.stdout


def test_the_longest_game_reads_and_one_action_more_is_refused_naming_its_line(tmp_path):
    longest = write_record(tmp_path / "longest.jsonl", MAX_ACTIONS)
    assert longest.stat().st_size < MAX_RECORD_BYTES
    record = read_record(longest)
    assert len(record.actions) == MAX_ACTIONS and record.last_time == "2026-11-28T05:00:02Z"  # the last line is a touch
    record.replay()
    with open(longest, "ab") as file:
        file.write(TOUCH)
    with pytest.raises(RecordError) as refused:
        read_record(longest)
    assert refused.value.msgid == "too_many_actions" and refused.value.line == MAX_ACTIONS + 2


def test_the_bytes_limit_holds_for_bytes_given_too(tmp_path):
    with pytest.raises(RecordError) as refused:
        parse_record(b"{}\n" * (MAX_RECORD_BYTES // 3 + 1))
    assert refused.value.msgid == "too_big"


def test_the_writer_refuses_the_action_past_the_limit_and_the_record_still_reads(tmp_path):
    path = write_record(tmp_path / "full.jsonl", MAX_ACTIONS - 1)
    writer, record = RecordWriter.resume(path)
    with writer:
        writer.append(Undo() if len(record.actions) % 2 == 0 else Touch(TILE))  # the last one a game may have
        size = path.stat().st_size
        with pytest.raises(RecordFull) as refused:
            writer.append(Clue(1))
        assert refused.value.errno == errno.EFBIG
        assert path.stat().st_size == size  # nothing of it written
    assert len(read_record(path).actions) == MAX_ACTIONS


def test_the_writer_refuses_a_line_past_the_bytes_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(writer_module, "MAX_RECORD_BYTES", 400)
    with RecordWriter.create(tmp_path / "game.jsonl", Header("classic", KEY)) as writer:
        with pytest.raises(RecordFull):
            for _ in range(100):
                writer.append(Clue(1), note="x" * 40)
    assert (tmp_path / "game.jsonl").stat().st_size <= 400


def test_the_table_says_the_record_is_full_and_takes_nothing_more(tmp_path, monkeypatch):
    from datetime import datetime, timezone

    from codenames_board.config import parse
    from codenames_board.i18n import Translator
    from codenames_board.table import Table
    from codenames_board.tileboard import VirtualTileBoard

    monkeypatch.setattr(writer_module, "MAX_ACTIONS", 2)  # the header, the automatic clue, one touch
    config = parse(f'state_dir = "{tmp_path}"\n[game]\nclue_entry = false\n')
    board = VirtualTileBoard(status_leds=12)
    table = Table(config, Translator("en"), board, lambda: 1000.0, new_seed=lambda: 7,
                  wall_clock=lambda: datetime(2026, 11, 28, 5, 0, tzinfo=timezone.utc))
    board.on_event = table.handle
    table.start()
    try:
        agents = table.game.key.agents(table.game.turn)
        board.tap(agents[0])  # the record's last action
        assert table.game.revealed == [agents[0]] and not table.ui.notices
        board.tap(agents[1])
        assert table.game.revealed == [agents[0]]  # refused: not shown, not played
        assert len(read_record(table.writer.path).actions) == 2
        notice = table.ui.notices[-1]
        assert notice.msgid == "notice.record_unwritable"
        said = Translator("en")(notice.msgid, **{name: value for name, value in notice.params})
        assert said == "Cannot save (this game's record is full: hold NEW GAME): the last action was taken back."
        assert read_record(table.writer.path).replay().state() == table.game.state()  # memory and disk agree
        assert not board.tile_colour(agents[1]) or board.tile_colour(agents[1]) != board.tile_colour(agents[0])
    finally:
        table.close()


def test_a_pipe_or_a_folder_is_not_read_as_a_record(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(RecordError) as refused:
        read_record(tmp_path / "fifo")  # would hang on a FIFO no one writes
    assert refused.value.msgid == "not_a_regular_file"
    with pytest.raises(IsADirectoryError):
        read_record(tmp_path)
