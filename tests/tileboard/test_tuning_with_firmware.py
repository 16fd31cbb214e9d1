"""Touch tuning and the LED colour order between the host's serial driver and the real firmware
(MicroPython unix port, emulated MPR121s that keep or lose their baselines as the datasheet says)
over a real pty: TUNE with a finger resting on a tile, per tile thresholds (TUNEPAD) and their
compatibility with older firmware, ORDER."""

import pytest

from codenames_board.tileboard import BoardConnected, BoardProblem, PadSignals, TileTouched
from codenames_board.tileboard.firmware_files import firmware_files
from codenames_board.tileboard.serial_board import SerialTileBoard
from codenames_firmware.tileproto import LineReader


def connected(event):
    return isinstance(event, BoardConnected)


class Sent:
    """Every line a SerialTileBoard writes, decoded (it wraps the driver's one writer)."""

    def __init__(self, board: SerialTileBoard) -> None:
        self.lines: list[list[bytes]] = []
        self._reader = LineReader()
        write = board.link.write

        def spy(line: bytes) -> None:
            self.lines.extend(self._reader.feed(line))
            write(line)

        board.link.write = spy

    def kinds(self) -> list[bytes]:
        return [words[0] for words in self.lines]


def open_host(firmware, events, setup=None):
    board = SerialTileBoard(port=str(firmware.link), on_event=events)
    sent = Sent(board)
    if setup is not None:
        setup(board)
    board.start()
    events.wait_for(connected)
    return board, sent


def pads_of(host, events):
    host.request_pads()
    return events.wait_for(lambda event: isinstance(event, PadSignals))


def test_a_tune_mid_game_keeps_a_resting_finger_and_every_baseline(firmware, events, wait_until):
    host, _ = open_host(firmware, events, lambda board: board.tune(12, 6, 1))
    try:
        wait_until(lambda: host.tuned == (12, 6, 1), what="TUNED")
        firmware.touch(7, True)  # a finger rests on B3
        assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(7, True)
        before = pads_of(host, events)
        host.tune(20, 10, 3)
        wait_until(lambda: host.tuned == (20, 10, 3), what="TUNED 20 10 3")
        after = pads_of(host, events)
        # The chips kept what they had learnt: the same baselines, the finger still 40 counts under its own.
        assert [pad[1] for pad in after.pads] == [pad[1] for pad in before.pads]
        assert after.signal(7) == 40 and (after.touch, after.release, after.debounce) == (20, 10, 3)
        firmware.touch(7, False)
        # The first touch event since: the finger leaving. It was never let go or touched anew.
        assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(7, False)
    finally:
        host.close()


def test_per_tile_thresholds_reach_the_board_and_a_weak_pad_counts(firmware, events, wait_until):
    def setup(board):
        board.tune(12, 6, 1)
        board.tune_pads({12: (8, 4)})

    host, sent = open_host(firmware, events, setup)
    try:
        wait_until(lambda: host.tuned_pads == {12: (8, 4)}, what="TUNED with tile 12's own")
        assert sent.kinds().count(b"TUNEPAD") == 1
        firmware.command("touch 13 1 10")  # 10 counts on C4: under the global 12
        firmware.command("touch 12 1 10")  # 10 counts on C3: over its own 8
        assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(12, True)
        signals = pads_of(host, events)
        assert signals.thresholds(12) == (8, 4) and signals.thresholds(13) == (12, 6)
        assert not any(isinstance(event, TileTouched) and event.tile == 13 for event in events.seen)
    finally:
        host.close()


def test_tile_thresholds_the_board_has_already_are_not_sent_again(firmware, events, wait_until):
    def setup(board):
        board.tune(12, 6, 1)
        board.tune_pads({12: (8, 4), 24: (20, 10)})

    first, _ = open_host(firmware, events, setup)
    wait_until(lambda: first.tuned_pads == {12: (8, 4), 24: (20, 10)}, what="the first host's TUNED")
    first.close()
    # The same board (not reset) and a host that wants the same: TUNE, TUNED, and nothing more.
    second, sent = open_host(firmware, events, setup)
    try:
        wait_until(lambda: second.tuned_pads == {12: (8, 4), 24: (20, 10)}, what="the second host's TUNED")
        assert b"TUNEPAD" not in sent.kinds()
        # A host whose configuration dropped tile 24's: one TUNEPAD gives it the global ones again.
        second.tune_pads({12: (8, 4)})
        wait_until(lambda: second.tuned_pads == {12: (8, 4)}, what="tile 24 back to the global thresholds")
        assert [words for words in sent.lines if words[0] == b"TUNEPAD"] == [[b"TUNEPAD", b"12", b"8", b"4", b"24", b"0", b"0"]]
    finally:
        second.close()


def older_firmware(*kinds: bytes) -> dict[str, bytes]:
    """The shipped firmware as one that predates these message types: it answers them ERROR unknown."""
    files = firmware_files()
    app = files["app.py"]
    for kind in kinds:
        assert b'elif kind == b"%s":' % kind in app
        app = app.replace(b'elif kind == b"%s":' % kind, b'elif kind == b"%s-not-yet":' % kind)
    files["app.py"] = app
    return files


def test_older_firmware_without_tunepad_says_firmware_install(flashed_firmware, events, wait_until):
    board = flashed_firmware(older_firmware(b"TUNEPAD", b"ORDER"))
    board.plug()

    def setup(host):
        host.tune(12, 6, 1)
        host.tune_pads({12: (8, 4)})
        host.order("GRB")  # what an older board does anyway: nothing to say

    host, sent = open_host(board, events, setup)
    try:
        problem = events.wait_for(lambda event: isinstance(event, BoardProblem))
        assert problem == BoardProblem("firmware_tunepad", "TUNEPAD")
        assert not host.pads_tunable
        host.tune_pads({12: (9, 4)})  # said once: nothing more goes out
        host.order("RGB")  # a colour order the older board cannot take
        problem = events.wait_for(lambda event: isinstance(event, BoardProblem))
        assert problem == BoardProblem("firmware_order", "ORDER")
        assert sent.kinds().count(b"TUNEPAD") == 1
    finally:
        host.close()


@pytest.mark.parametrize("strip, configured, lit", [
    ("GRB", "GRB", "ff0000"),  # a WS2812B told its own order: red is red
    ("RGB", "RGB", "ff0000"),  # a WS2811 strand told its own
    ("RGB", "GRB", "00ff00"),  # a WS2811 strand driven as a WS2812B: red agents light green
])
def test_the_led_colour_order_decides_what_the_strip_lights(flashed_firmware, events, wait_until, strip, configured, lit):
    board = flashed_firmware()
    board.strip_order = strip
    board.plug()
    host, sent = open_host(board, events, lambda host: (host.limit(255, 10000), host.order(configured)))
    try:
        assert [words for words in sent.lines if words[0] == b"ORDER"] == [[b"ORDER", configured.encode()]]
        frame = bytearray(3 * 37)
        frame[0:3] = b"\xff\x00\x00"  # tile A1 red
        host.show(bytes(frame))
        wait_until(lambda: any(write[:3].hex() == lit for write in board.led_writes()), what=f"A1 lit {lit}")
    finally:
        host.close()


def test_a_bad_order_is_refused_and_the_board_keeps_its_own(firmware, events):
    host, _ = open_host(firmware, events)
    try:
        with host._lock:
            host.link.write(b"ORDER RGBW*c86df826\n")
        problem = events.wait_for(lambda event: isinstance(event, BoardProblem))
        assert (problem.code, problem.detail) == ("order", "RGBW")
        with pytest.raises(ValueError, match="no colour order"):
            host.order("RGBW")
    finally:
        host.close()
