"""The host's serial driver and the real firmware (MicroPython unix port) over a real pty."""

import importlib.util
from pathlib import Path

import pytest

from codenames_board.tileboard import BoardConnected, BoardDisconnected, BoardProblem, TileTouched
from codenames_board.tileboard.firmware_files import shipped_identity
from codenames_board.tileboard.serial_board import SerialTileBoard
from codenames_firmware.tileproto import PROTOCOL

_spec = importlib.util.spec_from_file_location("firmware_board", Path(__file__).parents[2] / "firmware" / "board.py")
PIN_TABLE = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(PIN_TABLE)


@pytest.fixture
def host(firmware, events):
    board = SerialTileBoard(port=str(firmware.link), on_event=events).start()
    yield board
    board.close()


def connected(event):
    return isinstance(event, BoardConnected)


def disconnected(event):
    return isinstance(event, BoardDisconnected)


def chain_order(frame: bytes) -> bytes:
    """A logical frame as the LED chain receives it (serpentine rows, then the status LEDs)."""
    physical = bytearray(len(frame))
    for logical, position in enumerate(PIN_TABLE.CHAIN):
        physical[3 * position : 3 * position + 3] = frame[3 * logical : 3 * logical + 3]
    return bytes(physical)


def test_handshake_reports_the_firmware_and_its_layout(host, events):
    event = events.wait_for(connected)
    # the version, then the identity of the files the flash holds (the shipped ones: conftest.PtyFirmware)
    firmware = f"{PIN_TABLE.FIRMWARE_VERSION}+{shipped_identity()}"
    assert (event.protocol, event.firmware, event.tiles, event.status_leds) == (PROTOCOL, firmware, 25, 12)
    assert not event.other_firmware
    assert host.connected


def test_touches_arrive_as_tile_events(host, firmware, events):
    events.wait_for(connected)
    for tile in (0, 12, 24):
        firmware.touch(tile, True)
        assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(tile, True)
        firmware.touch(tile, False)
        assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(tile, False)
    assert host.lost_touches == 0 and host.malformed == 0 and host.damaged == 0


def test_a_frame_arrives_as_the_led_buffer_in_chain_order(host, firmware, events, wait_until):
    events.wait_for(connected)
    host.limit(255, 10000)
    frame = bytes(range(3 * 37))  # every LED a different colour
    host.show(frame)
    wait_until(lambda: chain_order(frame) in firmware.led_writes(), what="the frame on the LEDs")


def test_brightness_and_current_cap_scale_the_frame(host, firmware, events, wait_until):
    events.wait_for(connected)
    host.limit(128, 10000)
    host.show(bytes([200, 100, 50]) * 37)
    wait_until(lambda: chain_order(bytes([100, 50, 25]) * 37) in firmware.led_writes(), what="half brightness")
    host.limit(255, 300)  # 37 LEDs: 37 mA idle, and full white would draw 37 * 60 mA
    host.show(bytes([255, 255, 255]) * 37)

    def capped():
        last = firmware.last_led_write()
        drawn = 37 + sum(last) * 20 / 255
        return last[0] > 0 and drawn <= 300 and len(set(last)) == 1

    wait_until(capped, what="the current cap")


def test_unplug_and_replug_reconnects_and_sends_the_whole_frame_again(host, firmware, events, wait_until):
    events.wait_for(connected)
    host.limit(255, 10000)
    frame = bytes([9, 8, 7]) * 25 + bytes([1, 2, 3]) * 12
    host.show(frame)
    wait_until(lambda: chain_order(frame) in firmware.led_writes(), what="the first frame")
    firmware.unplug()
    assert events.wait_for(disconnected).reason == "unplugged"
    assert not host.connected
    firmware.plug()
    events.wait_for(connected)
    wait_until(lambda: chain_order(frame) in firmware.led_writes(), what="the frame re-sent to the new board")
    firmware.touch(7)
    assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(7, True)


def test_a_hung_board_is_noticed_as_silent(host, firmware, events):
    events.wait_for(connected)
    firmware.command("stall")
    assert events.wait_for(disconnected).reason == "silent"


def test_the_board_goes_dark_and_breathes_when_the_host_stops(host, firmware, events, wait_until):
    events.wait_for(connected)
    host.limit(255, 10000)
    host.show(bytes([255, 0, 0]) * 37)
    wait_until(lambda: chain_order(bytes([255, 0, 0]) * 37) in firmware.led_writes(), what="the red frame")
    host.close()

    def idle_pattern():
        last = firmware.last_led_write()
        tiles, status = last[: 3 * 25], last[3 * 25 :]
        return not any(tiles) and 0 < max(status) <= 25

    wait_until(idle_pattern, what="tiles dark and the status LEDs breathing")


def test_a_touch_controller_that_stops_answering_is_reported(host, firmware, events):
    events.wait_for(connected)
    firmware.command("unplug-pads 2")
    problem = events.wait_for(lambda event: isinstance(event, BoardProblem))
    assert (problem.code, problem.detail) == ("pads", "2")
    firmware.command("replug-pads 2")
    problem = events.wait_for(lambda event: isinstance(event, BoardProblem))
    assert (problem.code, problem.detail) == ("pads", "-")
    firmware.touch(24)
    assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(24, True)


def test_the_first_board_unplugged_on_the_shared_bus_is_reported_and_the_others_go_on(host, firmware, events):
    # Boards 1 and 2 share I2C0; board 3 has I2C1 (firmware/board.py, MPR121S).
    events.wait_for(connected)
    firmware.command("unplug-pads 0")
    problem = events.wait_for(lambda event: isinstance(event, BoardProblem))
    assert (problem.code, problem.detail) == ("pads", "0")
    for tile in (12, 24):
        firmware.touch(tile)
        assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(tile, True)


def test_a_touch_still_arrives_with_a_board_irq_wire_off(host, firmware, events):
    events.wait_for(connected)
    firmware.command("unplug-irq 0")  # its pin reads high for ever: the firmware's safety poll finds the touch
    for down in (True, False, True):
        firmware.touch(3, down)
        assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(3, down)


def test_stop_hands_the_board_over_for_maintenance(firmware, wait_until):
    import os

    from codenames_firmware.tileproto import PROTOCOL, LineReader, message

    # Speak to the firmware directly: STOP, then it says BYE, blanks its LEDs and its loop ends.
    fd = os.open(str(firmware.link), os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(fd, message("HELLO", PROTOCOL))
        reader, seen = LineReader(), []
        while not any(words[0] == b"BOARD" for words in seen):
            seen += reader.feed(os.read(fd, 4096))
        os.write(fd, message("STOP"))
        while not any(words[0] == b"BYE" for words in seen):
            seen += reader.feed(os.read(fd, 4096))
    finally:
        os.close(fd)
    assert firmware.process.wait(timeout=10) == 0
    assert not any(firmware.led_writes()[-1])


def test_firmware_stop_command_hands_the_board_over(firmware, run_cli):
    result = run_cli("firmware", "stop", "--port", firmware.link)
    assert result.returncode == 0, result.stderr
    assert f"The tile board on {firmware.link} restarts in maintenance mode" in result.stdout
    assert firmware.process.wait(timeout=10) == 0


def test_firmware_stop_without_a_board_is_one_line_and_exit_1(tmp_path, run_cli):
    result = run_cli("firmware", "stop", "--port", tmp_path / "nothing")
    assert result.returncode == 1  # no tile board is a failure, not a usage error (cli.py)
    assert result.stderr.splitlines() == [
        f"no tile board found ({tmp_path / 'nothing'}): plug the Pico in, or name its port with --port"
    ]


def test_firmware_path_shows_the_files_to_copy(run_cli):
    from pathlib import Path

    folder = Path(run_cli("firmware", "path").stdout.strip())
    assert {"main.py", "tileproto.py", "app.py"} <= {path.name for path in folder.glob("*.py")}


class LineTap:
    """Wraps the host's port writes: keeps every line, and spoils the SETs a test picks (their
    checksum then fails at the board, which drops them as damaged) or never sends them."""

    def __init__(self, host, spoil=(), lose=()) -> None:
        self.lines: list[bytes] = []
        self.spoil, self.lose = set(spoil), set(lose)
        self._write = host.link.write
        host.link.write = self

    def __call__(self, line: bytes) -> None:
        self.lines.append(line)
        if line.startswith(b"SET "):
            count = sum(1 for sent in self.lines if sent.startswith(b"SET "))
            if count in self.lose:
                return
            if count in self.spoil:
                line = line[:-4] + bytes([line[-4] ^ 0x01]) + line[-3:]  # one bit of the checksum
        self._write(line)

    def kinds(self) -> list[bytes]:
        return [line.split(b" ", 1)[0].split(b"*")[0] for line in self.lines]


def test_a_touch_sized_change_goes_as_a_set_and_the_leds_show_the_hosts_frame(host, firmware, events, wait_until):
    events.wait_for(connected)
    host.limit(255, 10000)
    tap = LineTap(host)
    frame = bytes([1, 2, 3]) * 25 + bytes([0, 0, 40]) * 12
    host.show(frame)
    wait_until(lambda: firmware.last_led_write() == chain_order(frame), what="the first frame")
    touched = frame[:36] + bytes([224, 200, 160]) + frame[39:]  # tile 12 lit, as after a touch
    host.show(touched)
    wait_until(lambda: firmware.last_led_write() == chain_order(touched), what="the touched tile")
    timer = touched[:75] + bytes(6) + touched[81:]  # then the sand timer's first two LEDs go dark
    host.show(timer)
    wait_until(lambda: firmware.last_led_write() == chain_order(timer), what="the timer step")
    assert [kind for kind in tap.kinds() if kind != b"BEAT"] == [b"FRAME", b"SET", b"SET"]
    assert len(tap.lines[1]) < 30 and len(tap.lines[2]) < 40
    wait_until(lambda: host.acked_frame == int(tap.lines[2].split()[1]), what="the last SET acknowledged")
    assert host.repairs == 0


@pytest.mark.parametrize(
    "fault",
    ["damaged in the middle", "lost in the middle", "damaged last", "lost last"],
)
def test_a_set_that_never_arrives_is_repaired_by_a_whole_frame(host, firmware, events, wait_until, fault):
    events.wait_for(connected)
    host.limit(255, 10000)
    steps = 40
    spoilt = 20 if "middle" in fault else steps
    tap = LineTap(host, **{"spoil" if "damaged" in fault else "lose": [spoilt]})
    frame = bytearray(3 * 37)
    host.show(bytes(frame))
    wait_until(lambda: firmware.last_led_write() == chain_order(bytes(frame)), what="the first frame")
    for step in range(1, steps + 1):
        if step == spoilt:
            frame[3 * 24 : 3 * 24 + 3] = bytes([0, 0, 255])  # tile 24: no later SET touches it again
        else:
            led = 25 + step % 10  # an animation on the sand-timer bar
            frame[3 * led : 3 * led + 3] = bytes([step, 255 - step, 0])
        host.show(bytes(frame))
        if step != spoilt:  # at the board's pace, as an animation goes
            seq = int(tap.lines[-1].split()[1])
            wait_until(lambda: (host.acked_frame or 0) >= seq, what=f"the ACK of step {step}")  # or a later one
    wait_until(lambda: firmware.last_led_write() == chain_order(bytes(frame)), what="the repaired LEDs")
    kinds = [kind for kind in tap.kinds() if kind != b"BEAT"]
    # one repair mends it; on a loaded machine the repair's own ACK can be later than the quarter second, and the
    # host sends the whole frame again: that is the design, so each repair is one more FRAME, and nothing else
    repairs = host.repairs
    assert kinds.count(b"SET") == steps and repairs >= 1 and kinds.count(b"FRAME") == 1 + repairs
    if "middle" in fault:  # the next ACK skipped one: the FRAME went out before the next SET
        assert kinds[1 + spoilt : 3 + spoilt] == [b"SET", b"FRAME"]
    else:  # no ACK for a quarter of a second
        assert kinds[1 + steps :] == [b"FRAME"] * repairs
    if "damaged" in fault:
        wait_until(lambda: host.board_counters[0] == 1, what="the board counting the damaged line")
