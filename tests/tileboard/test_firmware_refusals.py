"""What the real firmware (MicroPython's unix port, on a pty) refuses on lines with good checksums:
numbers that are not ASCII decimal digits, and maintenance files past the total MAINT announced.
Each refusal is answered and changes nothing: no LED, no file, no progress."""

import base64
import binascii

import pytest

from boardline import Session
from codenames_firmware.tileproto import PROTOCOL

LEDS = 37
FRAME = "123456" * LEDS
STATUS = 12
AMBER = bytes([64, 32, 0])  # maintenance's progress at the default brightness (64 of 255)
NEXT = bytes([16, 8, 0])  # the dim LED after the lit ones


@pytest.fixture
def session(firmware):
    talk = Session(firmware.link)
    assert talk.ask("HELLO", PROTOCOL)[0] == b"BOARD"
    yield talk
    talk.close()


# --- numbers: ASCII decimal digits only (PROTOCOL.md)

NOT_DECIMAL = [
    ("HELLO", "+2"),
    ("FRAME", "+1", FRAME),
    ("FRAME", "0_1", FRAME),
    ("FRAME", "00000000001", FRAME),  # decimal digits, one more than any number may have
    ("SET", "1_0", 0, "ff0000"),
    ("SET", 11, "+0", "ff0000"),
    ("SET", 12, "1_2", "ff0000"),
    ("SET", 13, 0, "ff0000", "-0", "00ff00"),
    ("LIMIT", "+255", 10000),
    ("LIMIT", 255, "10_000"),
    ("TUNE", "+12", 6, 1),
    ("TUNE", 12, 6, "0_1"),
    ("TUNEPAD", "1_2", 8, 4),
    ("MAINT", "+100"),
]


def test_numbers_that_are_not_decimal_are_refused_as_syntax_and_change_nothing(firmware, session, wait_until):
    session.send("LIMIT", 255, 10000)  # no answer
    assert session.ask("TUNE", 12, 6, 1) == [b"TUNED", b"12", b"6", b"1"]
    assert session.ask("FRAME", 1, FRAME) == [b"ACK", b"1"]
    shown = wait_until(lambda: firmware.last_led_write() if firmware.last_led_write() != bytes(3 * LEDS) else None)
    writes = len(firmware.led_writes())
    for fields in NOT_DECIMAL:
        assert session.ask(*fields) == [b"ERROR", b"syntax", fields[0].encode()], fields
    # Still the same session, thresholds and LEDs (a write since is the periodic refresh of the same frame).
    assert session.ask("TUNE", 12, 6) == [b"TUNED", b"12", b"6", b"1"]
    assert set(firmware.led_writes()[writes:]) <= {shown}
    assert session.ask("SET", 2, 0, "ff0000") == [b"ACK", b"2"]
    wait_until(lambda: firmware.last_led_write()[:3] == b"\xff\x00\x00" or None, what="the good SET shown")


def test_maintenance_numbers_and_crc_that_are_not_decimal_or_hex_are_refused(firmware, session):
    assert session.ask("MAINT", 100) == [b"MAINT", b"1", b"256"]
    crc = "%08x" % binascii.crc32(b"abc")
    for size, file_crc in (("+3", crc), ("3_0", crc), ("3", "0x" + crc[2:]), ("3", "+" + crc[1:]), ("3", crc.upper())):
        assert session.ask("PUT", "x.py", size, file_crc) == [b"ERROR", b"maint", b"syntax", b"PUT"], (size, file_crc)
    assert not list(firmware.flash.glob("x.py*"))
    assert session.ask("PUT", "x.py", 3, crc) == [b"GOT", b"x.py", b"0"]
    assert session.ask("DATA", "+0", base64.b64encode(b"abc")) == [b"ERROR", b"maint", b"syntax", b"DATA"]
    assert session.ask("DATA", "0_0", base64.b64encode(b"abc")) == [b"ERROR", b"maint", b"syntax", b"DATA"]
    assert (firmware.flash / "x.py.new").read_bytes() == b""
    assert session.ask("DATA", 0, base64.b64encode(b"abc")) == [b"GOT", b"x.py", b"3"]


# --- maintenance: MAINT's total bounds what may come


def progress(firmware) -> tuple[int, bytes]:
    """The status LEDs lit amber, and the write they are in (the tiles dark)."""
    last = firmware.last_led_write()
    assert len(last) == 3 * LEDS and last[: 3 * 25] == bytes(75)
    status = [last[at : at + 3] for at in range(3 * 25, 3 * LEDS, 3)]
    lit = status.count(AMBER)
    assert status == [AMBER] * lit + ([NEXT] if lit < STATUS else []) + [bytes(3)] * (STATUS - lit - 1)
    return lit, last


def test_a_file_past_maints_total_is_refused_before_anything_is_written(firmware, session):
    assert session.ask("MAINT", 10) == [b"MAINT", b"1", b"256"]
    assert session.ask("PUT", "a.py", 6, "%08x" % binascii.crc32(b"abcdef")) == [b"GOT", b"a.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(b"abcdef")) == [b"GOT", b"a.py", b"6"]
    lit, shown = progress(firmware)
    assert lit == 12 * 6 // 10
    writes = len(firmware.led_writes())

    # 6 more bytes would make 12 of the 10 announced: refused at PUT, so no DATA is ever written.
    big = b"ghijkl"
    assert session.ask("PUT", "b.py", 6, "%08x" % binascii.crc32(big)) == [b"ERROR", b"maint", b"size", b"b.py", b"6"]
    assert session.ask("DATA", 0, base64.b64encode(big)) == [b"ERROR", b"maint", b"state", b"DATA"]
    assert not list(firmware.flash.glob("b.py*"))
    assert len(firmware.led_writes()) == writes and firmware.last_led_write() == shown

    # What is left fits, to the byte; the LEDs are full then.
    assert session.ask("PUT", "c.py", 4, "%08x" % binascii.crc32(b"wxyz")) == [b"GOT", b"c.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(b"wxyz")) == [b"GOT", b"c.py", b"4"]
    assert progress(firmware)[0] == STATUS
    assert (firmware.flash / "a.py.new").read_bytes() == b"abcdef"
    assert (firmware.flash / "c.py.new").read_bytes() == b"wxyz"


def test_a_file_announced_past_the_total_gets_no_byte_written(firmware, session):
    # The audit's case: MAINT 16, then a file of 600 bytes; its first DATA was written, then
    # answered "ERROR maint syntax DATA" as the progress grew the LED frame past its length.
    content = bytes(range(256)) * 2 + b"x" * 88
    assert session.ask("MAINT", 16) == [b"MAINT", b"1", b"256"]
    crc = "%08x" % binascii.crc32(content)
    assert session.ask("PUT", "big.py", 600, crc) == [b"ERROR", b"maint", b"size", b"big.py", b"600"]
    assert session.ask("DATA", 0, base64.b64encode(content[:256])) == [b"ERROR", b"maint", b"state", b"DATA"]
    assert not list(firmware.flash.glob("big.py*"))
    assert progress(firmware)[0] == 0


def test_a_file_sent_again_after_a_crc_failure_counts_once_toward_the_total(firmware, session):
    assert session.ask("MAINT", 6) == [b"MAINT", b"1", b"256"]
    crc = "%08x" % binascii.crc32(b"abcdef")
    assert session.ask("PUT", "x.py", 6, crc) == [b"GOT", b"x.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(b"abcxyz")) == [b"ERROR", b"maint", b"crc", b"x.py"]
    assert progress(firmware)[0] == 0  # the bytes thrown away are no progress
    assert session.ask("PUT", "x.py", 6, crc) == [b"GOT", b"x.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(b"abcdef")) == [b"GOT", b"x.py", b"6"]
    assert progress(firmware)[0] == STATUS
    # and a complete file sent again replaces its first copy
    assert session.ask("PUT", "x.py", 6, crc) == [b"GOT", b"x.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(b"abcdef")) == [b"GOT", b"x.py", b"6"]
    assert (firmware.flash / "x.py.new").read_bytes() == b"abcdef"


def test_the_last_data_of_a_file_sent_again_is_answered_again_not_refused(firmware, session):
    """The GOT for a file's last DATA lost on the way: the host sends that DATA again (PROTOCOL.md)."""
    content = b"x" * 300
    assert session.ask("MAINT", len(content)) == [b"MAINT", b"1", b"256"]
    assert session.ask("PUT", "a.py", len(content), "%08x" % binascii.crc32(content)) == [b"GOT", b"a.py", b"0"]
    assert session.ask("DATA", 0, base64.b64encode(content[:256])) == [b"GOT", b"a.py", b"256"]
    last = ("DATA", 256, base64.b64encode(content[256:]))
    assert session.ask(*last) == [b"GOT", b"a.py", b"300"]
    assert session.ask(*last) == [b"GOT", b"a.py", b"300"]  # the repeat: answered again ...
    assert (firmware.flash / "a.py.new").read_bytes() == content  # ... and not written twice
    lit, _ = progress(firmware)
    assert lit == 12  # counted once
    assert session.ask("DATA", 0, base64.b64encode(content[:256]))[:3] == [b"ERROR", b"maint", b"state"]
