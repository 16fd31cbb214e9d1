"""Game records: writing, reading, torn lines, damage, replay."""

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codenames_board.engine import (
    UNLIMITED,
    Clue,
    EndTurn,
    Key,
    Penalty,
    Timeout,
    Touch,
    Undo,
    new_game,
)
from codenames_board.record import FORMAT, Header, RecordError, RecordWriter, parse_record, read_record

# Red starts: red agents on tiles 0-8, blue 9-16, bystanders 17-23, the assassin on 24.
KEY = Key.from_text("RRRRRRRRRBBBBBBBBNNNNNNNA:red")


def header(**changes):
    fields = {"variant": "classic", "key": KEY, "language": "en", "seed": 7, "created": "2026-11-22T20:00:00Z"}
    fields.update(changes)
    return Header(**fields)


def write_record(path, actions, head=None):
    with RecordWriter.create(path, head or header()) as writer:
        for action in actions:
            writer.append(action)
    return path


GAME = [Clue(2), Touch(0), Touch(1), Touch(17), Clue(UNLIMITED), Touch(9), EndTurn(), Clue(1), Touch(24), Undo()]


def test_header_and_actions_round_trip(tmp_path):
    path = write_record(tmp_path / "game.jsonl", GAME, header(words=[f"word{n}" for n in range(25)]))
    record = read_record(path)
    assert record.header.key == KEY
    assert record.header.variant == "classic"
    assert record.header.words == [f"word{n}" for n in range(25)]
    assert (record.header.language, record.header.seed, record.header.created) == ("en", 7, "2026-11-22T20:00:00Z")
    assert [action for _, action in record.actions] == GAME
    assert [line for line, _ in record.actions] == list(range(2, 2 + len(GAME)))
    assert record.torn_line is None


def test_written_lines_are_the_documented_json(tmp_path):
    path = write_record(tmp_path / "game.jsonl", [Clue(2), Clue(UNLIMITED), Touch(12), EndTurn(), Timeout(), Penalty(), Undo()])
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert lines[0] == {
        "format": "codenames-board/1",
        "variant": "classic",
        "key": KEY.letters,
        "start": "red",
        "language": "en",
        "seed": 7,
        "created": "2026-11-22T20:00:00Z",
    }
    assert lines[1:] == [
        {"action": "clue", "count": 2},
        {"action": "clue", "count": "unlimited"},
        {"action": "touch", "tile": 12},
        {"action": "end_turn"},
        {"action": "timeout"},
        {"action": "penalty"},
        {"action": "undo"},
    ]


def test_every_append_is_synced_before_it_returns(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def spy(fd):
        synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    path = tmp_path / "game.jsonl"
    with RecordWriter.create(path, header()) as writer:
        writer.append(Clue(1))
        size_after_clue = path.stat().st_size
        writer.append(Touch(0))
    assert size_after_clue in synced  # the clue's line was on disk when append returned
    assert path.stat().st_size in synced


def test_extra_fields_are_ignored_by_replay(tmp_path):
    path = tmp_path / "game.jsonl"
    with RecordWriter.create(path, header()) as writer:
        writer.append(Clue(2), time="2026-11-22T20:01:00Z", who="blue spymaster")
    record = read_record(path)
    assert [action for _, action in record.actions] == [Clue(2)]
    assert record.replay().state()["phase"] == "guess"


def test_unknown_header_fields_are_kept_when_resuming(tmp_path):
    path = tmp_path / "game.jsonl"
    obj = {**header().to_json(), "table": "kitchen"}
    path.write_text(json.dumps(obj) + "\n", "utf-8")
    writer, record = RecordWriter.resume(path)
    writer.close()
    assert record.header.extra == {"table": "kitchen"}
    assert record.header.to_json()["table"] == "kitchen"


def test_create_refuses_to_overwrite_a_record(tmp_path):
    path = write_record(tmp_path / "game.jsonl", [Clue(1)])
    with pytest.raises(FileExistsError):
        RecordWriter.create(path, header())
    assert len(read_record(path).actions) == 1


def test_closing_twice_is_safe_and_repr_says_closed(tmp_path):
    writer = RecordWriter.create(tmp_path / "game.jsonl", header())
    writer.close()
    writer.close()
    assert "closed" in repr(writer)
    with pytest.raises(ValueError):
        writer.append(Clue(1))


def test_replay_equals_the_live_game(tmp_path):
    game = new_game(KEY)
    for action in GAME:
        game.play(action)
    path = write_record(tmp_path / "game.jsonl", GAME)
    assert read_record(path).replay().state() == game.state()


# --- power cuts


def test_a_torn_last_line_is_dropped_and_everything_before_is_kept(tmp_path):
    path = write_record(tmp_path / "game.jsonl", GAME)
    data = path.read_bytes()
    last_line_start = data.rstrip(b"\n").rfind(b"\n") + 1
    for cut in range(last_line_start + 1, len(data) - 1):  # every way to lose part of the last line
        record = parse_record(data[:cut])
        assert record.torn_line == len(GAME) + 1
        assert [action for _, action in record.actions] == GAME[:-1]
        assert record.good_bytes == last_line_start


def test_a_last_line_complete_but_for_its_newline_is_kept(tmp_path):
    path = write_record(tmp_path / "game.jsonl", GAME)
    record = parse_record(path.read_bytes().rstrip(b"\n"))
    assert record.torn_line is None
    assert [action for _, action in record.actions] == GAME


def test_zero_bytes_left_by_a_power_cut_are_dropped(tmp_path):
    path = write_record(tmp_path / "game.jsonl", GAME[:3])
    good = path.read_bytes()
    record = parse_record(good + b"\x00" * 300)
    assert [action for _, action in record.actions] == GAME[:3]
    assert record.good_bytes == len(good)
    assert record.torn_line == 5  # said, not passed over as a blank line
    record = parse_record(good + b'{"action": "to' + b"\x00" * 40)
    assert record.torn_line == 5
    assert record.good_bytes == len(good)


def test_resume_cuts_a_torn_line_off_and_appends_after_it(tmp_path):
    path = write_record(tmp_path / "game.jsonl", GAME[:4])
    with open(path, "ab") as file:
        file.write(b'{"action": "clue", "cou')
    writer, record = RecordWriter.resume(path)
    with writer:
        assert record.torn_line == 6
        writer.append(Clue(3))
    record = read_record(path)
    assert record.torn_line is None
    assert [action for _, action in record.actions] == GAME[:4] + [Clue(3)]


def test_resume_after_zero_bytes_and_a_missing_newline(tmp_path):
    path = write_record(tmp_path / "game.jsonl", GAME[:2])
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    writer, _ = RecordWriter.resume(path)
    with writer:
        writer.append(Touch(2))
    with open(path, "ab") as file:
        file.write(b"\x00" * 100)
    writer, _ = RecordWriter.resume(path)
    with writer:
        writer.append(Touch(3))
    assert [action for _, action in read_record(path).actions] == GAME[:2] + [Touch(2), Touch(3)]
    assert b"\x00" not in path.read_bytes()


def test_a_torn_header_says_so():
    with pytest.raises(RecordError) as caught:
        parse_record(b'{"format": "codenames-board/1", "vari')
    assert (caught.value.msgid, caught.value.line) == ("torn_header", 1)


# --- damage and files that are not records


@pytest.mark.parametrize(
    "data, msgid, line",
    [
        (b"", "empty", None),
        (b"\n\n  \n", "empty", None),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not_a_record", 1),
        (b"hello world\n", "not_a_record", 1),
        (b"[1, 2, 3]\n", "not_a_record", 1),
        (b'{"variant": "classic"}\n', "not_a_record", 1),
        (b'{"format": "chess/1"}\n', "not_a_record", 1),
        (b'{"format": "codenames-board/2", "variant": "classic"}\n', "format_version", 1),
    ],
)
def test_files_that_are_not_records_are_refused(data, msgid, line):
    with pytest.raises(RecordError) as caught:
        parse_record(data)
    assert (caught.value.msgid, caught.value.line) == (msgid, line)


def _header_line(**changes):
    obj = {"format": FORMAT, "variant": "classic", "key": KEY.letters, "start": "red"}
    obj.update(changes)
    return (json.dumps({k: v for k, v in obj.items() if v is not None}) + "\n").encode()


@pytest.mark.parametrize(
    "changes, msgid",
    [
        ({"variant": "triple"}, "bad_variant"),
        ({"variant": None}, "bad_variant"),
        ({"start": "green"}, "bad_start"),
        ({"start": "blue"}, "bad_key"),  # red has 9 agents, so red starts
        ({"key": "RRRR"}, "bad_key"),
        ({"key": "X" * 25}, "bad_key"),
        ({"key": 12}, "bad_field"),
        ({"words": ["one", "two"]}, "bad_words"),
        ({"language": 5}, "bad_field"),
    ],
)
def test_bad_headers_name_the_problem(changes, msgid):
    with pytest.raises(RecordError) as caught:
        parse_record(_header_line(**changes))
    assert (caught.value.msgid, caught.value.line) == (msgid, 1)


@pytest.mark.parametrize(
    "line, msgid",
    [
        (b'{"action": "shout"}', "unknown_action"),
        (b'{"tile": 3}', "not_an_action"),
        (b'"touch"', "not_an_action"),
        (b'{"action": "clue", "count": "two"}', "bad_count"),
        (b'{"action": "clue"}', "bad_count"),
        (b'{"action": "touch", "tile": "12"}', "bad_tile"),
        (b'{"action": "touch", "tile": true}', "bad_tile"),
        (b'{"action": "clue", "count": 2', "bad_json"),
    ],
)
def test_a_damaged_line_before_the_last_is_an_error_with_its_line_number(line, msgid):
    data = _header_line() + b'{"action": "clue", "count": 1}\n' + line + b'\n{"action": "end_turn"}\n'
    with pytest.raises(RecordError) as caught:
        parse_record(data)
    assert (caught.value.msgid, caught.value.line) == (msgid, 3)


def test_an_action_the_rules_reject_names_its_line(tmp_path):
    data = _header_line() + b'{"action": "clue", "count": 1}\n{"action": "touch", "tile": 0}\n{"action": "touch", "tile": 0}\n'
    record = parse_record(data)
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert (caught.value.msgid, caught.value.line) == ("rejected", 4)
    assert caught.value.cause.msgid == "tile_revealed"


def assert_read_or_refused(data):
    """Damaged bytes give a record or a RecordError, never another exception; replay likewise."""
    try:
        record = parse_record(data)
    except RecordError as error:
        assert error.msgid
        return
    try:
        record.replay()
    except RecordError as error:
        assert error.msgid == "rejected"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_crash_the_reader(data):
    assert_read_or_refused(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_mutated_records_are_read_or_refused_never_crash(tmp_path, data):
    good = tmp_path / "good.jsonl"
    if not good.exists():
        write_record(good, GAME)
    raw = bytearray(good.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(raw) - 1))
        raw[position] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(1, len(raw)))
    assert_read_or_refused(bytes(raw[:cut]))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["classic", "duo"]), data=st.data())
def test_replay_of_the_written_record_equals_the_live_state(seed, variant, data):
    key = Key.generate(seed)
    game = new_game(key, variant)
    with tempfile.TemporaryDirectory() as directory:
        _play_and_write(Path(directory) / "game.jsonl", game, key, variant, seed, data)


def _play_and_write(path, game, key, variant, seed, data):
    with RecordWriter.create(path, header(key=key, variant=variant, seed=seed)) as writer:
        for _ in range(data.draw(st.integers(0, 40))):
            legal = game.legal_actions()
            if not legal:
                break
            action = data.draw(st.sampled_from(legal))
            game.play(action)
            writer.append(action)
    assert read_record(path).replay().state() == game.state()
