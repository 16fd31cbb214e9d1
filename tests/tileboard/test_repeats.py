"""A condition the board repeats is logged once, then counted (tileboard/repeats.py), on a fake clock:
alone, and in the serial driver fed lines as its reader thread feeds them."""

import logging

import pytest

from codenames_board.tileboard.base import BoardProblem
from codenames_board.tileboard.repeats import INTERVAL_S, MOST_KINDS, Repeats
from codenames_board.tileboard.serial_board import SerialTileBoard
from codenames_firmware.tileproto import message

LOGGER = "codenames_board.tileboard.serial_board"


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def lines(caplog):
    """``lines()``: the log's messages since the last call."""
    caplog.set_level(logging.INFO, logger=LOGGER)
    seen = 0

    def take():
        nonlocal seen
        messages = [record.getMessage() for record in caplog.records[seen:]]
        seen = len(caplog.records)
        return messages

    return take


def repeats(clock):
    return Repeats(logging.getLogger(LOGGER), clock)


def test_a_condition_is_said_at_once_then_counted_once_an_interval(lines):
    clock = Clock()
    said = repeats(clock)
    assert said.say("key", logging.WARNING, "board says %s", "x") is True
    assert lines() == ["board says x"]
    for second in range(1, 60):
        clock.now = 1000.0 + second
        assert said.say("key", logging.WARNING, "board says %s", second) is False
        said.flush()
    assert lines() == []
    clock.now = 1060.0
    said.flush()
    assert lines() == ["board says 59 (again 59 times in the last 60 s)"]  # the latest, and the count
    clock.now = 1061.0
    assert said.say("key", logging.WARNING, "board says %s", "y") is False  # still coming: counted
    said.flush(everything=True)
    assert lines() == ["board says y (again once in the last 1 s)"]


def test_a_condition_quiet_for_an_interval_is_news_again(lines):
    clock = Clock()
    said = repeats(clock)
    said.say("key", logging.WARNING, "board says x")
    clock.now += INTERVAL_S - 1
    assert said.say("key", logging.WARNING, "board says x") is False
    clock.now += 1
    said.flush()
    assert lines() == ["board says x", "board says x (again once in the last 60 s)"]
    clock.now += INTERVAL_S
    said.flush()  # nothing came: nothing to say, and the condition is forgotten
    assert lines() == []
    clock.now += 1000
    assert said.say("key", logging.WARNING, "board says x") is True
    assert lines() == ["board says x"]


def test_other_conditions_are_said_at_once_up_to_a_bound(lines):
    clock = Clock()
    said = repeats(clock)
    assert said.say("a", logging.WARNING, "a") and said.say("b", logging.INFO, "b")
    assert lines() == ["a", "b"]
    # A board making up a new condition with every line: MOST_KINDS of them, then one for all the rest.
    news = [said.say(n, logging.WARNING, "made up %d", n) for n in range(1000)]
    assert news.count(True) == MOST_KINDS - 2 + 1
    said.flush(everything=True)
    counted = 1000 - (MOST_KINDS - 1)
    assert lines() == [
        *(f"made up {n}" for n in range(MOST_KINDS - 1)),
        f"made up 999 (this and other conditions {counted} times in the last 1 s)",
    ]


def test_ten_thousand_errors_over_150_seconds_are_four_lines_with_the_right_counts(lines):
    clock = Clock(0.0)
    events = []
    board = SerialTileBoard(port="/nonexistent", on_event=events.append, clock=clock)
    line = message("ERROR", "syntax", "FRAME")
    for n in range(10_000):
        clock.now = n * 15 / 1000  # one every 15 ms
        for words in board.link.reader.feed(line):
            board.session.dispatch(words)
    board.reports.said.flush(everything=True)  # as the reader thread does when the session ends
    said = lines()
    assert said == [
        "tile board reports syntax FRAME",
        "tile board reports syntax FRAME (again 4,000 times in the last 60 s)",
        "tile board reports syntax FRAME (again 4,000 times in the last 60 s)",
        "tile board reports syntax FRAME (again 1,999 times in the last 30 s)",
    ]
    assert events == [BoardProblem("syntax", "FRAME")]  # the table is told once, not 10,000 times


def test_the_driver_tells_the_table_each_condition_once(lines):
    clock = Clock()
    events = []
    board = SerialTileBoard(port="/nonexistent", on_event=events.append, clock=clock)
    stream = message("ERROR", "noisy", 7) * 3 + message("ERROR", "noisy", 9) + message("ERROR", "pads", "-") * 2
    for words in board.link.reader.feed(stream):
        board.session.dispatch(words)
    assert events == [BoardProblem("noisy", "7"), BoardProblem("noisy", "9"), BoardProblem("pads", "-")]
    for _ in range(2):  # the reader thread flushes at least every heartbeat: the counts, then the forgetting
        clock.now += INTERVAL_S
        board.reports.said.flush()
    for words in board.link.reader.feed(message("ERROR", "noisy", 7)):
        board.session.dispatch(words)
    assert events[-1] == BoardProblem("noisy", "7")  # quiet for long enough: news again
    assert lines() == [
        "tile board reports noisy 7",
        "tile board reports noisy 9",
        "tile board reports pads -",
        "tile board reports noisy 7 (again 2 times in the last 60 s)",
        "tile board reports pads - (again once in the last 60 s)",
        "tile board reports noisy 7",
    ]


def test_a_condition_that_comes_back_after_another_is_told_again_at_once(lines):
    """A tile noisy, quiet, noisy again within the minute: the table hears all three."""
    clock = Clock()
    events = []
    board = SerialTileBoard(port="/nonexistent", on_event=events.append, clock=clock)
    for detail in ("1", "-", "1"):
        clock.now += 2
        for words in board.link.reader.feed(message("ERROR", "pads", detail)):
            board.session.dispatch(words)
    assert events == [BoardProblem("pads", "1"), BoardProblem("pads", "-"), BoardProblem("pads", "1")]


def test_a_board_alternating_two_reports_reaches_the_table_four_times_a_second_at_most(lines):
    clock = Clock()
    events = []
    board = SerialTileBoard(port="/nonexistent", on_event=events.append, clock=clock)
    for n in range(10_000):  # 10 s of 1,000 reports a second, each one another detail than the last
        clock.now = n / 1000
        for words in board.link.reader.feed(message("ERROR", "noisy", n % 2)):
            board.session.dispatch(words)
    assert 4 * 10 <= len(events) <= 4 * 11
    assert len(lines()) == 2  # the log: each condition once (their counts follow a minute later)
