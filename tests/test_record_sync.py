"""The record writer's durability: fsync off the touch's path (group commit), and faults injected
into every write and fsync of a game."""

import errno
import os
import threading

import pytest

from codenames_board.engine import Clue, EndTurn, Key, Penalty, Timeout, Touch, Undo
from codenames_board.record import Header, RecordWriter, read_record
from patience import PATIENCE_S

KEY = Key.from_text("RRRRRRRRRBBBBBBBBNNNNNNNA:red")


def header():
    return Header("classic", KEY, language="en", seed=7)


class GatedFsync:
    """os.fsync that waits for the test to open a gate, and remembers the file size at every call."""

    def __init__(self, monkeypatch):
        self.real = os.fsync
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.sizes = []
        monkeypatch.setattr(os, "fsync", self)

    def __call__(self, fd):
        self.entered.set()
        self.gate.wait(PATIENCE_S)
        self.sizes.append(os.fstat(fd).st_size)
        self.real(fd)


def test_background_append_returns_before_the_fsync_and_the_line_is_already_in_the_file(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    writer = RecordWriter.create(path, header(), background_sync=True)
    fsync = GatedFsync(monkeypatch)
    writer.append(Clue(2))  # returns although the fsync is held at the gate
    assert fsync.entered.wait(PATIENCE_S)
    # A killed process loses nothing: the line is in the file (the kernel's cache) already.
    assert [action for _, action in read_record(path).actions] == [Clue(2)]
    assert not writer.wait_synced(timeout=0.05)
    fsync.gate.set()
    assert writer.wait_synced(timeout=PATIENCE_S)
    assert fsync.sizes[-1] == path.stat().st_size
    writer.close()


def test_lines_written_during_an_fsync_share_the_next_one(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    writer = RecordWriter.create(path, header(), background_sync=True)
    fsync = GatedFsync(monkeypatch)
    writer.append(Clue(2))
    assert fsync.entered.wait(PATIENCE_S)
    for tile in range(5):  # all while the first fsync is still running
        writer.append(Touch(tile))
    fsync.gate.set()
    assert writer.wait_synced(timeout=PATIENCE_S)
    writer.close()
    assert len(fsync.sizes) <= 2  # group commit: one fsync for the first line, one for the other five
    assert fsync.sizes[-1] == path.stat().st_size
    assert len(read_record(path).actions) == 6


def test_close_finishes_the_last_fsync(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    writer = RecordWriter.create(path, header(), background_sync=True)
    fsync = GatedFsync(monkeypatch)
    fsync.gate.set()
    for tile in range(3):
        writer.append(Touch(tile))
    writer.close()
    assert fsync.sizes and fsync.sizes[-1] == path.stat().st_size
    assert writer.closed


def test_a_failed_background_fsync_is_reported_and_refuses_the_next_action(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    reported = []
    writer = RecordWriter.create(path, header(), background_sync=True, on_sync_error=reported.append)

    def failing(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    writer.append(Clue(1))
    assert not writer.wait_synced(timeout=5)
    assert isinstance(writer.fault, OSError) and writer.fault.errno == errno.EIO
    assert reported == [writer.fault]
    with pytest.raises(OSError):
        writer.append(Touch(0))
    writer.close()
    assert [action for _, action in read_record(path).actions] == [Clue(1)]


class ShortThenFull:
    """os.write that writes half of the first line it gets, then says the disk is full."""

    def __init__(self, monkeypatch):
        self.real = os.write
        self.calls = 0
        monkeypatch.setattr(os, "write", self)

    def __call__(self, fd, data):
        self.calls += 1
        if self.calls == 1:
            return self.real(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("background", [False, True])
def test_a_write_cut_short_by_a_full_disk_leaves_no_half_line(tmp_path, monkeypatch, background):
    path = tmp_path / "game.jsonl"
    writer = RecordWriter.create(path, header(), background_sync=background)
    writer.append(Clue(2))
    size = path.stat().st_size
    with monkeypatch.context() as patch:
        ShortThenFull(patch)
        with pytest.raises(OSError) as raised:
            writer.append(Touch(0))
    assert raised.value.errno == errno.ENOSPC
    assert path.stat().st_size == size  # the half line is gone
    writer.append(Touch(1))  # space came back: the record goes on, whole
    writer.close()
    record = read_record(path)
    assert [action for _, action in record.actions] == [Clue(2), Touch(1)]
    assert record.torn_line is None


def test_an_inline_fsync_that_fails_takes_its_line_back(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    writer = RecordWriter.create(path, header())
    writer.append(Clue(2))
    size = path.stat().st_size

    def failing(fd):
        raise OSError(errno.EIO, "Input/output error")

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", failing)
        with pytest.raises(OSError):
            writer.append(EndTurn())
    assert path.stat().st_size == size
    writer.close()


def test_a_header_that_cannot_be_written_leaves_no_open_writer(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        RecordWriter.create(path, header(), background_sync=True)
    assert not path.exists()  # no empty record left behind


@pytest.mark.parametrize(
    "action", [Clue(0), Clue(9), Clue("unlimited"), Touch(0), Touch(24), EndTurn(), Timeout(), Penalty(), Undo()]
)
@pytest.mark.parametrize("extra", [{}, {"time": "2026-11-23T20:01:12Z"}, {"time": 'quote " inside'}, {"who": "x"}])
def test_lines_formatted_directly_are_what_json_writes(tmp_path, action, extra):
    import json

    from codenames_board.record import action_to_json
    from codenames_board.record.writer import _plain_line

    expected = (json.dumps(action_to_json(action, **extra), ensure_ascii=False, separators=(", ", ": ")) + "\n").encode()
    line = _plain_line(action, extra)
    assert line in (expected, None)
    assert line is not None or extra not in ({}, {"time": "2026-11-23T20:01:12Z"})  # the plain cases take the short way
    path = tmp_path / "game.jsonl"
    with RecordWriter.create(path, header()) as writer:
        writer.write(action, **extra)
    assert path.read_bytes().splitlines(keepends=True)[-1] == expected


def test_after_a_failed_fsync_the_whole_record_is_written_anew_and_appends_go_on(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    writer = RecordWriter.create(path, header(), background_sync=True)
    writer.append(Clue(2))
    assert writer.wait_synced(timeout=PATIENCE_S)
    inode = path.stat().st_ino

    def failing(fd):
        raise OSError(errno.EIO, "Input/output error")

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", failing)
        writer.append(Touch(0))
        assert not writer.wait_synced(timeout=5)
        with pytest.raises(OSError):
            writer.repair()  # the disk still fails: the writer stays at fault
        assert writer.fault is not None
    # A failed fsync may have lost the touch while the kernel calls its pages clean: say so.
    os.truncate(path, path.stat().st_size - 10)
    writer.append(Touch(1))  # repairs first, then appends
    assert writer.fault is None and writer.wait_synced(timeout=PATIENCE_S)
    writer.close()
    assert path.stat().st_ino != inode  # a new copy took the old one's place
    assert [action for _, action in read_record(path).actions] == [Clue(2), Touch(0), Touch(1)]
    assert not list(tmp_path.glob("*.rewrite"))


def test_a_record_removed_under_the_writer_is_noticed_at_the_next_fsync_and_made_again(tmp_path):
    folder = tmp_path / "games"
    path = folder / "game.jsonl"
    reported = []
    writer = RecordWriter.create(path, header(), background_sync=True, on_sync_error=reported.append)
    path.unlink()
    folder.rmdir()
    writer.append(Clue(1))
    assert not writer.wait_synced(timeout=5)
    assert [error.errno for error in reported] == [errno.ENOENT]
    writer.repair()
    writer.append(Touch(3))
    writer.close()
    assert [action for _, action in read_record(path).actions] == [Clue(1), Touch(3)]


@pytest.mark.parametrize(
    "on_disk, rewrite, kept",
    [
        ("touch lost", "whole", "whole"),  # the rewrite was synced, the power went before the rename
        ("whole", "cut mid-line", "whole"),  # the power went while the rewrite was written
        ("whole", "touch lost", "whole"),  # ... even when it was cut at a line's end
    ],
)
def test_a_rewrite_cut_off_by_a_restart_is_finished_or_removed_whichever_holds_more(tmp_path, on_disk, rewrite, kept):
    from codenames_board.record import finish_rewrites

    path = tmp_path / "game.jsonl"
    with RecordWriter.create(path, header()) as writer:
        writer.append(Clue(2))
        writer.append(Touch(0))
    whole = path.read_bytes()
    copies = {"whole": whole, "touch lost": whole[: whole.rindex(b'{"action": "touch"')], "cut mid-line": whole[:-7]}
    path.write_bytes(copies[on_disk])
    (tmp_path / "game.jsonl.rewrite").write_bytes(copies[rewrite])
    finish_rewrites(tmp_path)
    assert path.read_bytes() == copies[kept] and not (tmp_path / "game.jsonl.rewrite").exists()
