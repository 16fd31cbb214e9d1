"""The serial driver's choice between SET and FRAME, and its repair of lost lines (firmware/PROTOCOL.md,
"Partial frames and repair"), without a port: the lines it would write are kept, ACKs are handed to its
reader's dispatch, and the clock is the test's."""

import pytest

from codenames_board.tileboard.serial_board import REPAIR_S, SET_MOST, SerialTileBoard
from codenames_firmware.tileproto import MAX_SET, PROTOCOL, decode

LEDS = 37


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def board():
    """A driver after its handshake, its lines kept in ``board.lines`` as word lists."""
    clock = Clock()
    host = SerialTileBoard(port="/nonexistent", clock=clock)
    host.lines = []
    host.link.write = lambda line: host.lines.append(decode(line[:-1]))  # the port is the test's
    host.test_clock = clock
    host.session.board_line([b"BOARD", b"%d" % PROTOCOL, b"0.1.0", b"25", b"12", b"0000000"])
    assert [words[0] for words in host.lines] == [b"LIMIT"]
    host.lines.clear()
    return host


def frame_with(changes=(), base=bytes(3 * LEDS)):
    frame = bytearray(base)
    for led, colour in changes:
        frame[3 * led : 3 * led + 3] = colour
    return bytes(frame)


def sent(board):
    lines, board.lines[:] = list(board.lines), []
    return lines


def ack(board, seq):
    board.session.dispatch([b"ACK", b"%d" % seq])


def test_the_first_frame_after_a_handshake_is_whole(board):
    board.show(frame_with([(3, b"\x01\x02\x03")]))
    (line,) = sent(board)
    assert line[:2] == [b"FRAME", b"1"] and line[2] == frame_with([(3, b"\x01\x02\x03")]).hex().encode()


def test_a_touch_goes_as_a_set_of_the_one_changed_led(board):
    board.show(frame_with())
    sent(board)
    board.show(frame_with([(12, b"\xe0\xc8\xa0")]))
    assert sent(board) == [[b"SET", b"2", b"12", b"e0c8a0"]]
    board.show(frame_with([(12, b"\xe0\xc8\xa0"), (0, b"\x00\x00\x01"), (36, b"\xff\x00\x00")]))
    assert sent(board) == [[b"SET", b"3", b"0", b"000001", b"36", b"ff0000"]]  # only what changed, in LED order


def test_a_frame_that_did_not_change_sends_nothing(board):
    board.show(frame_with([(1, b"\x05\x05\x05")]))
    board.show(frame_with([(1, b"\x05\x05\x05")]))
    assert [words[0] for words in sent(board)] == [b"FRAME"]


def test_up_to_set_most_leds_go_as_a_set_more_as_a_frame(board):
    assert 1 <= SET_MOST <= MAX_SET
    board.show(frame_with())
    sent(board)
    most = frame_with([(led, b"\x10\x20\x30") for led in range(0, 2 * SET_MOST, 2)])
    board.show(most)
    (line,) = sent(board)
    assert line[0] == b"SET" and len(line) == 2 + 2 * SET_MOST
    one_more = frame_with([(led, b"\x40\x50\x60") for led in range(SET_MOST + 1)], base=most)
    board.show(one_more)
    assert sent(board) == [[b"FRAME", b"3", one_more.hex().encode()]]
    # a change in one channel of an LED is a change of that LED
    board.show(frame_with([(36, b"\x00\x00\x01")], base=one_more))
    assert sent(board) == [[b"SET", b"4", b"36", b"000001"]]


def test_sets_in_order_with_every_ack_need_no_repair(board):
    frame = frame_with()
    board.show(frame)  # FRAME 1
    acked = 0
    for step in range(1, 200):
        frame = frame_with([(25 + step % 10, bytes([step, 0, 0]))], base=frame)
        board.show(frame)  # SET step + 1
        if step % 3 == 0:  # ACKs come in bursts, always in order
            while acked < step + 1:
                acked += 1
                ack(board, acked)
    while acked < 200:
        acked += 1
        ack(board, acked)
    board.frames.check_acknowledged(board.test_clock.now + 10 * REPAIR_S)
    assert board.repairs == 0
    assert [words[0] for words in sent(board)].count(b"FRAME") == 1


def test_an_ack_that_skips_a_set_brings_the_whole_frame_at_once(board):
    board.show(frame_with())
    board.show(frame_with([(24, b"\x00\x00\xff")]))  # SET 2: the board drops it (damaged)
    last = frame_with([(24, b"\x00\x00\xff"), (30, b"\x08\x08\x08")])
    board.show(last)  # SET 3
    sent(board)
    ack(board, 1)
    assert sent(board) == [] and board.repairs == 0
    ack(board, 3)  # no ACK 2
    assert sent(board) == [[b"FRAME", b"4", last.hex().encode()]]
    assert board.repairs == 1
    ack(board, 4)
    board.frames.check_acknowledged(board.test_clock.now + 10 * REPAIR_S)
    assert sent(board) == [] and board.repairs == 1


def test_a_lost_frame_followed_by_acknowledged_sets_is_repaired(board):
    board.show(frame_with([(0, b"\x01\x01\x01")]))  # FRAME 1: lost
    board.show(frame_with([(0, b"\x01\x01\x01"), (1, b"\x02\x02\x02")]))  # SET 2
    sent(board)
    ack(board, 2)
    assert [words[:2] for words in sent(board)] == [[b"FRAME", b"3"]]


def test_no_ack_for_repair_s_brings_the_whole_frame(board):
    clock = board.test_clock
    board.show(frame_with())
    ack(board, 1)
    last = frame_with([(7, b"\x09\x09\x09")])
    board.show(last)  # SET 2, then nothing: it was the last line, and it was lost
    sent(board)
    board.frames.check_acknowledged(clock.now + REPAIR_S / 2)
    assert sent(board) == []
    clock.now += REPAIR_S
    board.frames.check_acknowledged(clock.now)
    assert sent(board) == [[b"FRAME", b"3", last.hex().encode()]]
    # the repair itself is watched the same way
    clock.now += REPAIR_S
    board.frames.check_acknowledged(clock.now)
    assert [words[:2] for words in sent(board)] == [[b"FRAME", b"4"]]
    ack(board, 4)
    clock.now += 10 * REPAIR_S
    board.frames.check_acknowledged(clock.now)
    assert sent(board) == [] and board.repairs == 2


def test_acks_from_before_a_frame_or_repeated_are_ignored(board):
    board.show(frame_with())
    board.show(frame_with([(2, b"\x02\x00\x00")]))  # SET 2
    board.show(frame_with([(led, b"\x03\x00\x00") for led in range(20)]))  # FRAME 3: 2 no longer matters
    sent(board)
    for seq in (1, 2, 3, 3, 2, 60000):
        ack(board, seq)
    assert sent(board) == [] and board.repairs == 0
    assert board.acked_frame == 60000 and board.malformed == 0


def test_seq_wraps_from_65535_to_0_without_a_repair(board):
    board.frames.frame_seq = board.frames.acked_seq = 65534
    board.show(frame_with())  # FRAME 65535
    board.show(frame_with([(1, b"\x01\x00\x00")]))  # SET 0
    board.show(frame_with([(1, b"\x02\x00\x00")]))  # SET 1
    assert [words[1] for words in sent(board)] == [b"65535", b"0", b"1"]
    for seq in (65535, 0, 1):
        ack(board, seq)
    board.frames.check_acknowledged(board.test_clock.now + 10 * REPAIR_S)
    assert sent(board) == [] and board.repairs == 0


def test_after_a_handshake_the_whole_frame_goes_out_again(board):
    frame = frame_with([(5, b"\x05\x06\x07")])
    board.show(frame_with())
    board.show(frame)
    sent(board)
    board.session.board_line([b"BOARD", b"%d" % PROTOCOL, b"0.1.0", b"25", b"12", b"0000000"])  # a reconnect
    assert sent(board) == [[b"LIMIT", b"64", b"500"], [b"FRAME", b"3", frame.hex().encode()]]
    ack(board, 2)  # from before the reconnect
    assert sent(board) == [] and board.repairs == 0
    board.show(frame_with([(6, b"\x01\x01\x01")], base=frame))
    assert sent(board) == [[b"SET", b"4", b"6", b"010101"]]


def test_no_repair_before_anything_was_drawn_or_while_disconnected(board):
    board.frames.check_acknowledged(board.test_clock.now + 10 * REPAIR_S)
    ack(board, 5)
    assert sent(board) == []
    board.connected = False
    board.show(frame_with([(1, b"\x01\x01\x01")]))
    assert sent(board) == []
