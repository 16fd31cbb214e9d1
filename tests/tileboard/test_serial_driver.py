"""The serial driver against a scripted board on a real pty: garbage, wrong versions, no board."""

import logging
import os
import threading
import tty

import pytest

from codenames_board.tileboard import BoardConnected, BoardDisconnected, BoardProblem, TileTouched
from codenames_board.tileboard.serial_board import SerialTileBoard, find_board
from codenames_firmware.tileproto import PROTOCOL, LineReader, message
from patience import PATIENCE_S


class ScriptedBoard:
    """The board's end of a pty, answering the way a test tells it to."""

    def __init__(self, tmp_path, board_line=None):
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.slave = slave
        self.path = tmp_path / "tiles"
        self.path.symlink_to(os.ttyname(slave))
        self.board_line = board_line if board_line is not None else message("BOARD", PROTOCOL, "9.9.9", 25, 12, "0000000")
        self.received: list[list[bytes]] = []
        self.reader = LineReader()
        self.got_hello = threading.Event()
        self.got_frame = threading.Event()
        self._stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self._stop:
            try:
                data = os.read(self.master, 4096)
            except (OSError, TypeError):  # closed
                return
            for words in self.reader.feed(data):
                self.received.append(words)
                if words[0] == b"HELLO":
                    try:
                        self.write(self.board_line)
                    except (OSError, TypeError):  # closed by the test meanwhile
                        return
                    self.got_hello.set()
                elif words[0] == b"FRAME":
                    self.got_frame.set()

    def write(self, data: bytes):
        os.write(self.master, data)

    def close(self):
        self._stop = True
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None


@pytest.fixture
def scripted(tmp_path):
    boards = []

    def make(**options):
        board = ScriptedBoard(tmp_path, **options)
        boards.append(board)
        return board

    yield make
    for board in boards:
        board.close()


@pytest.fixture
def driver(events):
    drivers = []

    def make(path):
        board = SerialTileBoard(port=str(path), on_event=events).start()
        drivers.append(board)
        return board

    yield make
    for board in drivers:
        board.close()


def is_touch(event):
    return isinstance(event, TileTouched)


def test_garbage_on_the_line_is_dropped_counted_and_never_a_touch(scripted, driver, events):
    board = scripted()
    host = driver(board.path)
    events.wait_for(lambda event: isinstance(event, BoardConnected))
    good = message("TOUCH", 1, 5, 1)
    board.write(b"\x00\xff\x03noise\n" + good[:-3] + b"zz\n" + b"TOUCH 2 6 1*00000000\n" + b"x" * 900 + b"\n")
    board.write(message("TOUCH", 3, 99, 1) + message("TOUCH", 4, 6, 2) + message("TOUCH", 5, 6, "one"))
    board.write(message("WHAT", 1) + good)
    assert events.wait_for(is_touch) == TileTouched(5, True)
    assert host.damaged == 4  # noise, bad checksum, wrong checksum, too long
    assert host.malformed == 4  # tile 99, state 2, state "one", unknown type
    assert host.connected
    assert not [event for event in events.seen if is_touch(event)]


def test_numbers_that_are_not_decimal_give_no_touch(scripted, driver, events):
    # The audit's lines, with good checksums: int() reads tiles 12, 7 and 3 in them, PROTOCOL.md no number.
    board = scripted()
    host = driver(board.path)
    events.wait_for(lambda event: isinstance(event, BoardConnected))
    board.write(message("TOUCH", 1, "1_2", 1) + message("TOUCH", 2, "+7", 1) + message("TOUCH", 3, "0_3", 1))
    board.write(message("TOUCH", "+4", 9, 1) + message("TOUCH", 5, 9, "0x1") + message("TOUCH", 6, "00000000009", 1))
    board.write(message("ACK", "+0") + message("BEAT", 1, "0000000", "1_0", 0, 0))
    board.write(message("TOUCH", 7, 5, 1))
    assert events.wait_for(is_touch) == TileTouched(5, True)
    assert not [event for event in events.seen if is_touch(event)]
    assert host.malformed == 8 and host.damaged == 0
    assert (host.acked_frame, host.board_counters, host.lost_touches) == (None, (0, 0, 0), 0)


@pytest.mark.parametrize("fields", [("+2", 25, 12), (2, "2_5", 12), (2, 25, "1_2")], ids=["protocol", "tiles", "status"])
def test_a_board_line_with_a_number_that_is_not_decimal_is_no_board(scripted, driver, events, fields):
    protocol, tiles, status_leds = fields
    board = scripted(board_line=message("BOARD", protocol, "0.1.0", tiles, status_leds, "0000000"))
    host = driver(board.path)
    assert events.wait_for(lambda event: isinstance(event, BoardDisconnected)).reason == "malformed BOARD"
    assert not host.connected and host.malformed >= 1


def test_a_board_repeating_itself_is_logged_once_then_counted(scripted, events, caplog):
    # A misbehaving board: 10,000 times the same ERROR, BEAT counters that change every time, the
    # same TUNED. Each was a log line (10k-34k lines/s); now each is one line, then its count.
    caplog.set_level(logging.INFO, logger="codenames_board.tileboard.serial_board")
    board = scripted()
    host = SerialTileBoard(port=str(board.path), on_event=events, clock=lambda: 100.0)  # no interval ends
    host.start()
    try:
        events.wait_for(lambda event: isinstance(event, BoardConnected))
        caplog.clear()
        flood = b"".join(
            message("ERROR", "syntax", "FRAME") + message("BEAT", n, "0000000", n + 1, 0, 0) + message("TUNED", 12, 6, 1)
            for n in range(10_000)
        )
        for at in range(0, len(flood), 4096):
            board.write(flood[at : at + 4096])
        board.write(message("TOUCH", 1, 5, 1))
        assert events.wait_for(is_touch) == TileTouched(5, True)  # every line before it is handled
        assert [record.getMessage() for record in caplog.records] == [
            "tile board reports syntax FRAME",
            "tile board counts: damaged 1, too long 0, not sent 0",
            "tile board: touch threshold 12, release 6, debounce 1",
        ]
        assert [event for event in events.seen if isinstance(event, BoardProblem)] == [BoardProblem("syntax", "FRAME")]
        assert host.board_counters == (10_000, 0, 0) and host.tuned == (12, 6, 1)
    finally:
        host.close()
    # The session's end says the counts so far.
    assert sorted(record.getMessage() for record in caplog.records[3:]) == [
        "tile board counts: damaged 10000, too long 0, not sent 0 (again 9,999 times in the last 1 s)",
        "tile board reports syntax FRAME (again 9,999 times in the last 1 s)",
        "tile board: touch threshold 12, release 6, debounce 1 (again 9,999 times in the last 1 s)",
    ]


def test_touch_numbering_drops_repeats_and_counts_gaps(scripted, driver, events):
    board = scripted()
    host = driver(board.path)
    events.wait_for(lambda event: isinstance(event, BoardConnected))
    board.write(message("TOUCH", 10, 1, 1) + message("TOUCH", 10, 1, 1) + message("TOUCH", 13, 2, 1))
    assert events.wait_for(is_touch) == TileTouched(1, True)
    assert events.wait_for(is_touch) == TileTouched(2, True)
    assert host.lost_touches == 2


@pytest.mark.parametrize(
    "answer",
    [
        message("ERROR", "protocol", PROTOCOL - 1),  # an older firmware refuses our HELLO
        message("BOARD", PROTOCOL - 1, "0.0.9", 25, 12, "0000000"),  # or claims another version
    ],
    ids=["refused", "other version"],
)
def test_a_board_speaking_another_protocol_is_refused_with_the_fix(scripted, driver, events, answer):
    board = scripted(board_line=answer)
    host = driver(board.path)
    problem = events.wait_for(lambda event: isinstance(event, BoardProblem))
    assert (problem.code, problem.detail) == ("protocol", str(PROTOCOL - 1))
    event = events.wait_for(lambda event: isinstance(event, BoardDisconnected))
    assert event.reason == f"the board speaks protocol {PROTOCOL - 1}, this program {PROTOCOL}: update the firmware"
    assert not host.connected
    assert not [words for words in board.received if words[0] in (b"FRAME", b"SET")]


def test_a_board_with_another_layout_is_refused(scripted, driver, events):
    board = scripted(board_line=message("BOARD", PROTOCOL, "0.1.0", 16, 0, "0000000"))
    driver(board.path)
    problem = events.wait_for(lambda event: isinstance(event, BoardProblem))
    assert (problem.code, problem.detail) == ("layout", "16 0")
    assert "16 tiles" in events.wait_for(lambda event: isinstance(event, BoardDisconnected)).reason


def test_a_silent_port_is_no_board(scripted, driver, events):
    board = scripted(board_line=b"")  # something that never answers HELLO
    host = driver(board.path)
    event = events.wait_for(lambda event: isinstance(event, BoardDisconnected))
    assert event.reason == "no answer to HELLO"
    assert not host.connected


def test_no_board_plugged_in_is_reported_once_and_retried(tmp_path, driver, events):
    host = driver(tmp_path / "not-there")
    event = events.wait_for(lambda event: isinstance(event, BoardDisconnected))
    assert event.reason == "no board found"
    board = ScriptedBoard(tmp_path.parent / tmp_path.name)  # the board turns up at that path
    try:
        board.path.rename(tmp_path / "not-there")
        events.wait_for(lambda event: isinstance(event, BoardConnected))
        assert host.connected
        assert [event for event in events.seen if isinstance(event, BoardDisconnected)] == []
    finally:
        board.close()


def test_after_the_handshake_the_limit_and_the_whole_frame_are_sent(scripted, events):
    board = scripted()
    host = SerialTileBoard(port=str(board.path), on_event=events)
    host.limit(40, 900)  # set before the board is there: sent with the handshake
    host.show(bytes([1, 2, 3]) * 37)
    host.start()
    events.wait_for(lambda event: isinstance(event, BoardConnected))
    assert board.got_frame.wait(PATIENCE_S)
    kinds = [words[0] for words in board.received]
    assert kinds[:3] == [b"HELLO", b"LIMIT", b"FRAME"]
    assert board.received[1] == [b"LIMIT", b"40", b"900"]
    assert board.received[2][2] == (bytes([1, 2, 3]) * 37).hex().encode()
    host.close()


def test_a_frame_of_the_wrong_size_is_refused_before_it_reaches_the_wire(scripted, driver):
    host = driver(scripted().path)
    with pytest.raises(ValueError, match="111 bytes"):
        host.show(bytes(10))
    with pytest.raises(ValueError):
        host.limit(300, 100)


def test_find_board_prefers_the_configured_path(tmp_path):
    configured = tmp_path / "tiles"
    assert find_board(str(configured)) is None
    configured.write_text("")
    assert find_board(str(configured)) == str(configured)


def test_the_parts_counters_and_answers_read_and_write_on_the_driver():
    host = SerialTileBoard(port="/nonexistent")
    assert (host.port_setting, host.port, host.info, host.acked_frame, host.tuned) == ("/nonexistent", None, None, None, None)
    assert (host.reconnects, host.damaged, host.malformed, host.lost_touches, host.repairs) == (0, 0, 0, 0, 0)
    assert (host.board_counters, host.tuned_pads, host.tunable, host.pads_tunable) == ((0, 0, 0), {}, True, True)
    assert host.find is find_board
    host.malformed += 2
    assert host.session.malformed == host.malformed == 2


def test_close_is_safe_twice_and_repr_says_closed(tmp_path):
    host = SerialTileBoard(port=str(tmp_path / "none")).start()
    host.close()
    host.close()
    assert "closed" in repr(host)


def test_the_udev_rule_names_the_board_the_driver_looks_for():
    from pathlib import Path

    from codenames_board.tileboard import serial_board

    rule_file = Path(__file__).parents[2] / "host" / "pi" / "99-codenames-tiles.rules"
    rules = [line for line in rule_file.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert len(rules) == 1
    fields = dict(part.strip().split("==" if "==" in part else "+=" if "+=" in part else "=", 1) for part in rules[0].split(","))
    assert fields['ATTRS{idVendor}'] == f'"{serial_board.PICO_VID:04x}"'
    assert fields['ATTRS{idProduct}'] == f'"{serial_board.MICROPYTHON_PID:04x}"'
    assert fields["SYMLINK"] == f'"{Path(serial_board.STABLE_NAME).name}"'
    assert fields["SUBSYSTEM"] == '"tty"' and fields["GROUP"] == '"dialout"'


def test_showing_frames_while_the_board_is_unplugged_never_raises(scripted, driver, events):
    board = scripted()
    host = driver(board.path)
    events.wait_for(lambda event: isinstance(event, BoardConnected))
    errors, stop = [], threading.Event()

    def animate():  # the controller keeps drawing, whatever the board does
        while not stop.is_set():
            try:
                host.show(bytes(111))
            except Exception as error:  # noqa: BLE001 - any exception is the failure
                errors.append(error)
                return

    animation = threading.Thread(target=animate)
    animation.start()
    try:
        board.close()  # pulled out mid-animation
        events.wait_for(lambda event: isinstance(event, BoardDisconnected))
    finally:
        stop.set()
        animation.join()
    assert errors == []
    assert not host.connected


def test_closing_while_another_thread_draws_never_raises(scripted, driver, events):
    board = scripted()
    host = driver(board.path)
    events.wait_for(lambda event: isinstance(event, BoardConnected))
    errors, drawing = [], threading.Event()

    def animate():
        while not host.closed:
            try:
                host.show(bytes(111))
                drawing.set()
            except Exception as error:  # noqa: BLE001 - any exception is the failure
                errors.append(error)
                return

    animation = threading.Thread(target=animate)
    animation.start()
    assert drawing.wait(PATIENCE_S)
    host.close()  # the program shutting down mid-animation
    animation.join()
    assert errors == []


def test_an_unexpected_error_in_the_reader_reconnects_instead_of_ending_the_thread(scripted, events, monkeypatch):
    board = scripted()
    host = SerialTileBoard(port=str(board.path), on_event=events)
    real_dispatch, calls = host.session.dispatch, []

    def flaky_dispatch(words):
        calls.append(words)
        if len(calls) == 1:
            raise TypeError("a bug somewhere below")
        real_dispatch(words)

    monkeypatch.setattr(host.session, "dispatch", flaky_dispatch)
    host.start()
    try:
        events.wait_for(lambda event: isinstance(event, BoardConnected))
        board.write(message("TOUCH", 1, 3, 1))
        assert events.wait_for(lambda event: isinstance(event, BoardDisconnected)).reason == "driver error"
        events.wait_for(lambda event: isinstance(event, BoardConnected))
        board.write(message("TOUCH", 2, 4, 1))
        assert events.wait_for(is_touch) == TileTouched(4, True)
    finally:
        host.close()


def test_no_dark_frame_is_sent_before_the_host_has_drawn_anything(scripted, driver, events):
    board = scripted()
    host = driver(board.path)
    events.wait_for(lambda event: isinstance(event, BoardConnected))
    board.write(message("BEAT", 1, "0000000", 0, 0, 0))
    host.show(bytes([5, 5, 5]) * 37)
    assert board.got_frame.wait(PATIENCE_S)
    frames = [words for words in board.received if words[0] == b"FRAME"]
    assert [words[2] for words in frames] == [(bytes([5, 5, 5]) * 37).hex().encode()]
