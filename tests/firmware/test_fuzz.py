"""Fuzzing both ends of the tile protocol with random and damaged byte streams.

The firmware's side: a real TileApp (firmware/app.py) with its real
tileproto.LineReader and leds.Leds, and small doubles for the USB link, the
pads, the LED strip and the clock. The host's side: SerialTileBoard's parser
(its LineReader and _dispatch), without a port.

The damaged streams are a valid session with one byte replaced, deleted or
inserted. Why no damaged line can pass for a good one:
- a replaced byte inside a line is an error burst of at most 8 bits, and
  CRC-32 detects every burst of up to 32 bits: for certain;
- a replaced or deleted newline merges two lines, whose payload then holds
  the first line's '*': rejected for certain;
- a byte replaced, deleted or inserted in the '*CRC' tail breaks its fixed
  shape ('*' then exactly 8 lower-case hex digits): rejected for certain,
  and for a replaced hex digit the burst argument above holds too;
- a byte inserted into or deleted from the payload shifts the rest of it:
  CRC-32 catches that unless the new payload's CRC happens to equal the old
  one (a chance of 2**-32 per line, not a guarantee), so a pass here would
  be a real finding, never noise.
The only harmless changes are a blank line (a newline inserted next to a
newline) and a '\\r' inserted just before a newline, which PROTOCOL.md allows.
"""

import re
import sys
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st

FIRMWARE = Path(__file__).resolve().parent.parent.parent / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

import app as fw_app  # noqa: E402  (firmware/app.py, imported as the Pico does)
import leds as fw_leds  # noqa: E402
import tileproto as fw_proto  # noqa: E402

from codenames_board.tileboard.base import BoardProblem, TileTouched  # noqa: E402
from codenames_board.tileboard.repeats import MOST_KINDS, OTHERS  # noqa: E402
from codenames_board.tileboard.serial_board import PROBLEMS_PER_S, SerialTileBoard  # noqa: E402
from codenames_firmware import board as fw_board  # noqa: E402  (the pin table: constants only)
from codenames_firmware import tileproto as host_proto  # noqa: E402

TILES, STATUS_LEDS, LEDS = fw_board.TILES, fw_board.STATUS_LEDS, fw_board.LEDS
PROTOCOL = host_proto.PROTOCOL
HELLO = host_proto.message("HELLO", PROTOCOL)
VERSION = fw_board.FIRMWARE_VERSION
LINE = re.compile(rb"[\x20-\x29\x2b-\x7e]+\*[0-9a-f]{8}\n")
# What the board may send; BYE is only ever the answer to the host's STOP.
BOARD_TYPES = {b"ERROR", b"ACK", b"BOARD", b"BEAT", b"TOUCH", b"BYE"}
BOARD_ERROR_CODES = {b"protocol", b"length", b"limit", b"syntax", b"unknown", b"noisy", b"quiet", b"stuck", b"pads"}
FUZZ = settings(max_examples=300, deadline=None)
DECIMAL = re.compile(rb"[0-9]{1,10}")


def decimal(word):
    """A number as PROTOCOL.md says it (1 to 10 ASCII digits), read without tileproto.number."""
    if not DECIMAL.fullmatch(word):
        raise ValueError(f"not a decimal number: {word!r}")
    return int(word)


def non_decimal(value):
    """Spellings of a number that int() takes (or that look like one) and PROTOCOL.md does not."""
    digits = str(value)
    spellings = [
        f"+{digits}",
        f"-{digits}",
        f"{digits[:1]}_{digits[1:]}" if len(digits) > 1 else f"0_{digits}",
        f"0x{value:x}",
        f"{value}.0",
        digits.rjust(11, "0"),  # decimal digits, one too many
        "".join(chr(0xFF10 + int(digit)) for digit in digits),  # full-width digits: int() takes them
        "".join(chr(0x0660 + int(digit)) for digit in digits),  # Arabic-Indic digits
        f" {digits}",  # an extra space: two spaces between words
        f"{digits}\t",
    ]
    return st.sampled_from(spellings)


def test_firmware_modules_are_the_firmware_files():
    for module in (fw_app, fw_leds, fw_proto):
        assert Path(module.__file__).resolve().parent == FIRMWARE


# --- doubles for the firmware

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here


def ticks_diff(end, start):
    half = TICKS_PERIOD // 2
    return ((end - start + half) & (TICKS_PERIOD - 1)) - half


class Clock:
    def __init__(self, start=0):
        self.now = start

    def ticks_ms(self):
        return self.now & (TICKS_PERIOD - 1)

    def advance(self, ms):
        self.now += ms


class FakeLink:
    """link.Link without the port: bytes come in through a real LineReader, lines sent are kept."""

    def __init__(self):
        self.reader = fw_proto.LineReader()
        self.incoming = []  # chunks of bytes, one per step
        self.injected = []  # messages handed over as they are (the reference runs)
        self.delivered = []  # every message receive() returned
        self.sent = []
        self.dropped = 0
        self.closed = False
        self.flushes = 0
        self.clears = 0

    def receive(self):
        messages = []
        if self.incoming:
            messages.extend(self.reader.feed(self.incoming.pop(0)))
        if self.injected:
            messages.extend(self.injected)
            self.injected = []
        self.delivered.extend(messages)
        return messages

    def send(self, line):
        assert isinstance(line, bytes)
        self.sent.append(line)

    def flush(self):
        self.flushes += 1

    def clear(self):
        self.clears += 1


class FakePads:
    def __init__(self, bitmaps=()):
        self.bitmaps = list(bitmaps)
        self.missing = ()

    def read(self):
        return self.bitmaps.pop(0) if self.bitmaps else 0


class FakeStrip:
    """neopixel.NeoPixel's buffer (RGB order); records every write as the chain's colours (a tuple of (r, g, b))."""

    def __init__(self, count):
        self.buf = bytearray(3 * count)
        self.writes = []

    def write(self):
        buf = self.buf
        self.writes.append(tuple(tuple(buf[at : at + 3]) for at in range(0, len(buf), 3)))


class Firmware:
    def __init__(self, clock_start=0, pad_bitmaps=()):
        self.clock = Clock(clock_start)
        self.link = FakeLink()
        self.pads = FakePads(pad_bitmaps)
        self.strip = FakeStrip(LEDS)
        self.leds = fw_leds.Leds(self.strip, fw_board.CHAIN, fw_board.LED_MA_PER_CHANNEL, fw_board.LED_MA_IDLE)
        self.app = fw_app.TileApp(
            self.link, self.pads, self.leds, TILES, STATUS_LEDS, VERSION, self.clock.ticks_ms, ticks_diff
        )

    def step(self, data=b"", advance=0):
        if self.app.stopped:
            return  # after STOP, TileApp.run() has returned: nothing reads the port any more
        if data:
            self.link.incoming.append(bytes(data))
        self.app.step()
        self.clock.advance(advance)

    def feed(self, stream, sizes, advance=0):
        at, turn = 0, 0
        while at < len(stream):
            size = sizes[turn % len(sizes)]
            turn += 1
            self.step(stream[at : at + size], advance)
            at += size

    def sent_words(self):
        return [fw_proto.decode(line[:-1]) for line in self.link.sent]


def logical(write):
    """A strip write back in logical order (tiles row-major, then the status LEDs), as bytes."""
    return bytes(value for index in range(LEDS) for value in write[fw_board.CHAIN[index]])


def scaled_by_some_factor(shown, colours):
    """Is SHOWN what Leds.show makes of COLOURS at some brightness factor?"""
    for factor in range(1, 256):
        if all(s == c * factor // 255 for s, c in zip(shown, colours)):
            return True
    return False


def check_board_line(line):
    """A line the board sent: printable, '*', 8 lower-case hex digits of the right CRC; a board message type."""
    assert LINE.fullmatch(line), line
    words = fw_proto.decode(line[:-1])
    assert words is not None, line
    assert words[0] in BOARD_TYPES, line
    if words[0] == b"TOUCH":
        assert len(words) == 4 and 0 <= decimal(words[1]) <= 0xFFFF and 0 <= decimal(words[2]) < TILES, line
        assert words[3] in (b"0", b"1"), line
    elif words[0] == b"BEAT":
        assert len(words) == 6 and re.fullmatch(rb"[0-9a-f]{7}", words[2]), line
        assert all(decimal(word) >= 0 for word in words[1:2] + words[3:]), line
    elif words[0] == b"BOARD":
        assert words[:5] == [b"BOARD", b"%d" % PROTOCOL, VERSION.encode(), b"%d" % TILES, b"%d" % STATUS_LEDS], line
        assert len(words) == 6 and re.fullmatch(rb"[0-9a-f]{7}", words[5]), line
    elif words[0] == b"ACK":
        assert len(words) == 2 and decimal(words[1]) <= 0xFFFF, line
    elif words[0] == b"BYE":
        assert words == [b"BYE"], line
    else:
        assert len(words) >= 3 and words[1] in BOARD_ERROR_CODES, line
    return words


# --- the session the firmware's fuzzing starts from


@st.composite
def set_pairs(draw, most=fw_proto.MAX_SET):
    """A good SET's (led, colour) pairs: 1 to ``most`` LEDs (an LED may come twice), any colours."""
    pairs = draw(st.lists(st.tuples(st.integers(0, LEDS - 1), st.binary(min_size=3, max_size=3)), min_size=1, max_size=most))
    return [(led, colour.hex()) for led, colour in pairs]


@st.composite
def host_sessions(draw):
    """A valid host session: HELLO, LIMIT, FRAMEs of the right size, SETs after them, BEATs.

    Returns the lines and {line index: seq} of the FRAME and SET lines.
    """
    lines = [HELLO, host_proto.message("LIMIT", draw(st.integers(1, 255)), draw(st.integers(0, 10000)))]
    seq = draw(st.integers(0, 0xFFFF))
    frames = {}
    for beat in range(draw(st.integers(1, 3))):
        colours = draw(st.binary(min_size=3 * LEDS, max_size=3 * LEDS))
        lines.append(host_proto.message("FRAME", seq, colours.hex()))
        frames[len(lines) - 1] = seq
        seq = (seq + 1) & 0xFFFF
        for _ in range(draw(st.integers(0, 3))):
            pairs = draw(set_pairs(4))
            lines.append(host_proto.message("SET", seq, *(field for pair in pairs for field in pair)))
            frames[len(lines) - 1] = seq
            seq = (seq + 1) & 0xFFFF
        lines.append(host_proto.message("BEAT", beat))
        if draw(st.booleans()):
            lines.append(host_proto.message("LIMIT", draw(st.integers(0, 255)), draw(st.integers(0, 10000))))
    return lines, frames


def led_states(messages):
    """The logical frames PROTOCOL.md says good FRAMEs and SETs make, one after each (dark before any;
    nothing until a HELLO of our version)."""
    frame, states, connected = bytearray(3 * LEDS), [], False
    for words in messages:
        if words == [b"HELLO", b"%d" % PROTOCOL]:
            connected = True
        elif connected and words[0] in (b"FRAME", b"SET") and good_led_message(words):
            apply_led_message(frame, words)
            states.append(bytes(frame))
    return states


def good_led_message(words):
    """A FRAME or SET whose fields the firmware takes (PROTOCOL.md: anything else changes nothing)."""
    try:
        if not 0 <= decimal(words[1]) <= 0xFFFF:
            return False
        if words[0] == b"FRAME":
            return len(words[2]) == 6 * LEDS and hexadecimal(words[2])
        pairs = words[2:]
        return (
            len(pairs) % 2 == 0
            and 1 <= len(pairs) // 2 <= fw_proto.MAX_SET
            and all(0 <= decimal(led) < LEDS and len(colour) == 6 and hexadecimal(colour) for led, colour in zip(pairs[::2], pairs[1::2]))
        )
    except (IndexError, ValueError):
        return False


def hexadecimal(word):
    return all(byte in b"0123456789abcdefABCDEF" for byte in word)


SPECIAL_BYTES = st.sampled_from(b"\n\r* 0aF")


@st.composite
def mutations(draw, stream):
    """One byte replaced, deleted or inserted: (kind, position, byte)."""
    size = len(stream)
    interesting = [i for i, byte in enumerate(stream) if byte in b"\n*"]
    interesting += [i + 1 for i in interesting] + [i - 1 for i in interesting if i > 0]
    kind = draw(st.sampled_from(["replace", "delete", "insert"]))
    top = size if kind == "insert" else size - 1
    at = draw(st.one_of(st.integers(0, top), st.sampled_from([i for i in interesting if i <= top] or [0])))
    byte = draw(st.one_of(SPECIAL_BYTES, st.integers(0, 255)))
    if kind == "replace" and byte == stream[at]:
        byte ^= 0x01 if byte != 0x0B else 0x02  # a replacement changes the byte (never into a newline here)
    return kind, at, byte


def apply(stream, mutation):
    kind, at, byte = mutation
    if kind == "replace":
        return stream[:at] + bytes([byte]) + stream[at + 1 :]
    if kind == "delete":
        return stream[:at] + stream[at + 1 :]
    return stream[:at] + bytes([byte]) + stream[at:]


def damaged_lines(lines, mutation):
    """The indices of the lines (each ending in a newline) that a mutation damages."""
    kind, at, byte = mutation
    ends, position = [], -1
    for line in lines:
        position += len(line)
        ends.append(position)  # index of the line's newline
    if kind == "insert" and at == ends[-1] + 1:
        return set()  # a partial line after the last one
    index = next(i for i, end in enumerate(ends) if at <= end)
    start = ends[index] - len(lines[index]) + 1
    at_newline = at == ends[index]
    if kind == "insert":
        if byte == 0x0A and at in (start, ends[index]):
            return set()  # a blank line
        if byte == 0x0D and at_newline:
            return set()  # "\r\n" is allowed
        return {index}
    if at_newline:  # the newline replaced or deleted: this line and the next merge
        return {index, index + 1} & set(range(len(lines)))
    return {index}


def chunkings():
    return st.lists(st.integers(1, 80), min_size=1, max_size=6)


# --- firmware: baseline


def doc_block_lines(block):
    """(host lines, board lines) of a PROTOCOL.md example block, as bytes with their newlines."""
    host = [line[2:].encode() + b"\n" for line in block.splitlines() if line.startswith("> ")]
    board = [line[2:].encode() + b"\n" for line in block.splitlines() if line.startswith("< ")]
    return host, board


def apply_led_message(frame, words):
    """What PROTOCOL.md says a good FRAME or SET makes of the logical frame (a bytearray)."""
    if words[0] == b"FRAME":
        frame[:] = bytes.fromhex(words[2].decode())
    elif words[0] == b"SET":
        for led, colour in zip(words[2::2], words[3::2]):
            frame[3 * decimal(led) : 3 * decimal(led) + 3] = bytes.fromhex(colour.decode())


def test_firmware_answers_the_protocol_md_example_as_the_doc_shows():
    text = (FIRMWARE / "PROTOCOL.md").read_text()
    host, board = doc_block_lines(text.split("## Example session", 1)[1].split("```", 2)[1])
    firmware = Firmware()
    expected = bytearray(3 * LEDS)
    for line in host:
        firmware.step(line)
        if line.startswith((b"FRAME ", b"SET ")):
            apply_led_message(expected, fw_proto.decode(line[:-1]))
            assert scaled_by_some_factor(logical(firmware.strip.writes[-1]), expected)
            assert firmware.leds.frame == expected
    assert expected[:3] == bytes.fromhex("ff0000") and expected[36:39] == bytes.fromhex("e0c8a0")
    assert not any(expected[3:36] + expected[39:])  # tile 0 red, tile 12 lit, the rest dark
    # The answers to the host's lines (touches, beats and pad errors come from the pads and the clock).
    answers = (b"BOARD ", b"ACK ", b"BYE*")
    assert board[0].startswith(b"BOARD ")
    assert [line for line in firmware.link.sent if line.startswith(answers)] == [
        line for line in board if line.startswith(answers)
    ]


def test_firmware_follows_the_protocol_md_worked_example_of_set():
    text = (FIRMWARE / "PROTOCOL.md").read_text()
    session, _ = doc_block_lines(text.split("## Example session", 1)[1].split("```", 2)[1])
    worked = text.split("## Partial frames and repair", 1)[1].split("\n## ", 1)[0]
    blocks = worked.split("```")[1::2]
    assert len(blocks) == 2
    firmware = Firmware()
    for line in session[: next(i for i, line in enumerate(session) if line.startswith(b"FRAME ")) + 1]:
        firmware.step(line)
    expected = bytearray(firmware.leds.frame)
    for block in blocks:
        host, board = doc_block_lines(block)
        before = len(firmware.link.sent)
        for line in host:
            firmware.step(line)
            apply_led_message(expected, fw_proto.decode(line[:-1]))
        assert firmware.link.sent[before:] == board
        assert firmware.leds.frame == expected
        assert scaled_by_some_factor(logical(firmware.strip.writes[-1]), expected)
    assert expected[:3] == bytes.fromhex("ff0000") and expected[36:39] == bytes.fromhex("e0c8a0")
    assert expected[75:81] == bytes(6)


def test_firmware_does_nothing_for_a_frame_before_hello():
    firmware = Firmware()
    writes = len(firmware.strip.writes)
    firmware.step(host_proto.message("FRAME", 1, "ff" * 3 * LEDS))
    assert len(firmware.strip.writes) == writes and firmware.link.sent == []


@given(host_sessions(), chunkings())
@FUZZ
def test_firmware_valid_session_in_any_chunks_shows_every_frame(session, sizes):
    lines, frames = session
    firmware = Firmware()
    firmware.feed(b"".join(lines), sizes)
    assert firmware.link.delivered == [fw_proto.decode(line[:-1]) for line in lines]
    assert [words for words in firmware.sent_words() if words[0] == b"ACK"] == [
        [b"ACK", str(seq).encode()] for seq in frames.values()
    ]
    assert (firmware.link.reader.damaged, firmware.link.reader.overflows) == (0, 0)
    assert firmware.leds.frame == led_states(firmware.link.delivered)[-1]


# --- firmware: damaged streams


def run_reference(messages):
    """The firmware fed only these messages, as they are (no bytes, no reader)."""
    firmware = Firmware()
    firmware.link.injected = list(messages)
    firmware.step()
    return firmware


@given(st.data())
@settings(max_examples=500, deadline=None)
def test_firmware_damaged_stream_has_no_effect_beyond_its_intact_lines(data):
    lines, frames = data.draw(host_sessions())
    stream = b"".join(lines)
    mutation = data.draw(mutations(stream))
    mutated = apply(stream, mutation)
    damaged = damaged_lines(lines, mutation)
    intact = [fw_proto.decode(line[:-1]) for index, line in enumerate(lines) if index not in damaged]

    # The clock stands still while the stream arrives, so what the board does
    # depends only on the messages it took: no idle pattern, beat or timeout.
    firmware = Firmware()
    firmware.feed(mutated, data.draw(chunkings()))
    event(f"{mutation[0]} damages {len(damaged)} line(s)")

    # The link passes on exactly the intact lines ...
    assert firmware.link.delivered == intact, (mutation, damaged)
    # ... so the LEDs and the answers are exactly those of the intact lines alone.
    reference = run_reference(intact)
    assert firmware.strip.writes == reference.strip.writes
    assert firmware.link.sent == reference.link.sent

    # The same, said directly: a FRAME or SET line with a byte changed is never shown or
    # acknowledged; the LEDs only ever show what the intact ones make, in order.
    states = led_states(intact)
    for write in firmware.strip.writes:
        shown = logical(write)
        if any(shown):
            event("a frame is shown")
            assert any(scaled_by_some_factor(shown, state) for state in states), (mutation, damaged)
    acked = {decimal(words[1]) for words in firmware.sent_words() if words[0] == b"ACK"}
    assert acked <= {seq for index, seq in frames.items() if index not in damaged}
    if any(kind == b"SET" for kind, *_ in intact) and damaged & {i for i, line in enumerate(lines) if line.startswith(b"SET ")}:
        event("a SET damaged, later SETs intact")
    for line in firmware.link.sent:
        check_board_line(line)


# --- firmware: random bytes and nonsense fields


FIELD = st.one_of(
    st.integers(-3, 70000).map(str),
    st.sampled_from(["1", "0", "255", "10000", "10001", "256", "-1", "65536", "1_0", "+1", "0x1", "1.0", "a", "-"]),
    st.integers(0, 70000).flatmap(non_decimal),
    st.sampled_from(["01", "007", "0000000001", "00000000001", "-0", "+0", "0_0", "\uff11", "\u0661"]),
    st.just("ab" * 3 * LEDS),  # the right length for a FRAME
    st.just("zz" * 3 * LEDS),  # the right length, not hex
    st.just("AB" * 3 * LEDS),  # the right length, upper-case hex
    st.integers(0, 4 * LEDS).map(lambda n: "0" * n),
    st.integers(0, 8 * LEDS).map(lambda n: "f" * n),  # lit, mostly the wrong length
    st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E, blacklist_characters="*"), min_size=1, max_size=8),
)
HOST_LINES = st.one_of(
    st.builds(
        lambda kind, fields: host_proto.message(kind, *fields),
        st.sampled_from(["HELLO", "LIMIT", "FRAME", "BEAT", "ERROR", "STOP", "BOARD", "TOUCH", "HULLO", "frame", "X"]),
        st.lists(FIELD, max_size=4),
    ),
    st.builds(
        lambda seq, colours, extra: host_proto.message("FRAME", seq, colours, *extra),
        st.one_of(st.integers(0, 0xFFFF), st.sampled_from([-1, 65536, 10**6])),
        st.one_of(
            st.binary(min_size=3 * LEDS, max_size=3 * LEDS).map(bytes.hex),
            st.sampled_from([1, LEDS - 1, LEDS + 1, 2 * LEDS]).map(lambda n: "ff" * 3 * n),  # lit, the wrong size
            FIELD,
        ),
        st.lists(FIELD, max_size=1),
    ),
    st.builds(
        lambda brightness, max_ma: host_proto.message("LIMIT", brightness, max_ma),
        st.integers(-1, 256),
        st.integers(-1, 10001),
    ),
    # SETs: good ones, good ones with one field spoilt, and any pairs at all
    st.builds(
        lambda seq, pairs: host_proto.message("SET", seq, *(field for pair in pairs for field in pair)),
        st.integers(0, 0xFFFF),
        set_pairs(),
    ),
    st.builds(
        lambda seq, pairs, at, spoilt: host_proto.message(
            "SET", seq, *[field for pair in pairs for field in pair][: at % (2 * len(pairs))], spoilt,
            *[field for pair in pairs for field in pair][at % (2 * len(pairs)) + 1 :],
        ),
        st.integers(0, 0xFFFF),
        set_pairs(),
        st.integers(0, 100),
        st.sampled_from(["-1", str(LEDS), "99", "x", "abcde", "abcdef0", "gg0000", "0x1234", "1.0"]),
    ),
    st.builds(
        lambda seq, pairs, tail: host_proto.message("SET", seq, *(field for pair in pairs for field in pair), *tail),
        st.one_of(st.integers(0, 0xFFFF), st.sampled_from([-1, 65536, 10**6])),
        st.lists(
            st.tuples(
                st.one_of(st.integers(-2, LEDS + 1).map(str), FIELD),
                st.one_of(st.binary(min_size=3, max_size=3).map(bytes.hex), st.sampled_from(["ABCDEF", "abcde", "abcdef0"]), FIELD),
            ),
            max_size=fw_proto.MAX_SET + 2,
        ),
        st.lists(FIELD, max_size=1),  # an LED without its colour
    ),
)
HOST_CHUNKS = st.one_of(
    st.binary(max_size=60),
    st.binary(max_size=600),
    st.sampled_from([b"\n", b"\r\n", b"*", HELLO, host_proto.message("BEAT", 1)]),
    HOST_LINES,
    HOST_LINES,  # twice as likely: lines with good checksums get past the reader
    HOST_LINES.map(lambda line: line[: len(line) // 2]),
)


@given(
    st.booleans(),
    st.lists(st.tuples(HOST_CHUNKS, st.one_of(st.integers(0, 30), st.integers(0, 400))), max_size=25),
    st.lists(st.integers(0, (1 << TILES) - 1), max_size=40),
    st.integers(0, TICKS_PERIOD - 1),
)
@FUZZ
def test_firmware_random_input_never_raises_and_sends_only_board_messages(hello_first, chunks, pads, start):
    firmware = Firmware(clock_start=start, pad_bitmaps=[bitmap for bitmap in pads for _ in range(4)])
    if hello_first:
        firmware.step(HELLO, 5)
    for chunk, advance in chunks:
        firmware.step(chunk, advance)
    firmware.step(b"", 300)
    for line in firmware.link.sent:
        event(f"board sends {check_board_line(line)[0].decode()}")
    # A lit tile shows only a colour a well-formed FRAME or SET the board
    # received gave that tile (all at one brightness factor), and only such
    # lines are acknowledged: no LED changes because of noise or a bad line.
    given_colours = [set() for _ in range(LEDS)]
    good_seqs = set()
    for words in firmware.link.delivered:
        if words[0] in (b"FRAME", b"SET") and good_led_message(words):
            event(f"a good {words[0].decode()} arrives")
            good_seqs.add(decimal(words[1]))
            frame = bytearray(3 * LEDS) if words[0] == b"FRAME" else None
            if frame is not None:
                apply_led_message(frame, words)
                for led in range(LEDS):
                    given_colours[led].add(bytes(frame[3 * led : 3 * led + 3]))
            else:
                for led, colour in zip(words[2::2], words[3::2]):
                    given_colours[decimal(led)].add(bytes.fromhex(colour.decode()))
    for write in firmware.strip.writes:
        assert len(write) == LEDS
        lit = [tile for tile in range(TILES) if any(write[fw_board.CHAIN[tile]])]
        if lit:
            event("a tile is lit")
            assert any(
                all(
                    any(write[fw_board.CHAIN[tile]] == tuple(c * factor // 255 for c in colour) for colour in given_colours[tile])
                    for tile in lit
                )
                for factor in range(1, 256)
            ), [write[fw_board.CHAIN[tile]] for tile in lit]
    for words in firmware.sent_words():
        if words[0] == b"ACK":
            assert decimal(words[1]) in good_seqs


@given(st.lists(st.binary(max_size=300), max_size=20), st.integers(0, 300))
@FUZZ
def test_firmware_random_bytes_alone_change_nothing(chunks, advance):
    firmware = Firmware()
    for chunk in chunks:
        firmware.step(chunk, advance)
    # No HELLO, so no session: nothing sent, the LEDs only dark or the idle pattern.
    assert firmware.link.sent == []
    for write in firmware.strip.writes:
        assert all(write[fw_board.CHAIN[tile]] == (0, 0, 0) for tile in range(TILES))


def test_firmware_frame_of_the_wrong_size_is_not_shown_and_answers_length():
    for colours, sent in (
        ("ff" * 3 * (LEDS - 1), 3 * (LEDS - 1)),  # one LED short
        ("ff" * 3 * (LEDS + 1), 3 * (LEDS + 1)),  # one LED too many
        ("ff" * 3 * LEDS + "f", 3 * LEDS),  # half a byte too many
        ("ff", 1),
    ):
        firmware = Firmware()
        firmware.step(HELLO)
        writes = len(firmware.strip.writes)
        firmware.step(host_proto.message("FRAME", 3, colours))
        assert len(firmware.strip.writes) == writes, f"a FRAME of {len(colours)} hex digits was shown"
        assert firmware.sent_words()[1:] == [[b"ERROR", b"length", str(sent).encode(), str(3 * LEDS).encode()]]
        assert len(firmware.leds.frame) == 3 * LEDS


def test_firmware_frame_that_is_not_hex_is_not_shown_and_answers_syntax():
    firmware = Firmware()
    firmware.step(HELLO)
    writes = len(firmware.strip.writes)
    firmware.step(host_proto.message("FRAME", 3, "zz" * 3 * LEDS) + host_proto.message("FRAME", "x", "00" * 3 * LEDS))
    assert len(firmware.strip.writes) == writes
    assert firmware.sent_words()[1:] == [[b"ERROR", b"syntax", b"FRAME"]] * 2


def test_firmware_beat_reports_the_damaged_and_over_long_lines():
    firmware = Firmware()
    firmware.step(HELLO)
    firmware.step(b"HELLO 1*00000000\n" + b"x" * 600 + b"\n" + b"garbage\n", 0)
    firmware.clock.advance(fw_app.BEAT_MS)
    firmware.step()
    beats = [words for words in firmware.sent_words() if words[0] == b"BEAT"]
    assert beats and beats[-1][3:] == [b"2", b"1", b"0"]


def test_firmware_beats_while_the_host_talks_and_ends_a_silent_session_across_the_ticks_wrap():
    firmware = Firmware(clock_start=TICKS_PERIOD - 700)  # ticks_ms wraps to 0 during the session
    firmware.step(HELLO, 5)
    firmware.step(host_proto.message("FRAME", 1, "ff" * 3 * LEDS), 5)
    for beat in range(10):  # the host beats every 200 ms for 2 s
        for _ in range(20):
            firmware.step(b"", 10)
        firmware.step(host_proto.message("BEAT", beat), 0)
    sent = [words[0] for words in firmware.sent_words()]
    assert sent[:2] == [b"BOARD", b"ACK"] and 7 <= sent.count(b"BEAT") <= 9, sent
    assert firmware.app.connected
    before = len(firmware.link.sent)
    for _ in range(110):  # the host falls silent for 1.1 s
        firmware.step(b"", 10)
    assert not firmware.app.connected
    assert len(firmware.link.sent) - before <= 4  # the last beats before the timeout, then nothing
    quiet = len(firmware.link.sent)
    for _ in range(100):
        firmware.step(b"", 10)
    assert len(firmware.link.sent) == quiet and firmware.link.clears >= 1
    last = firmware.strip.writes[-1]
    assert all(last[fw_board.CHAIN[tile]] == (0, 0, 0) for tile in range(TILES))  # the tiles are dark
    assert any(last[fw_board.CHAIN[led]] != (0, 0, 0) for led in range(TILES, LEDS))  # the status LEDs breathe


def test_firmware_frame_with_seq_out_of_range_is_not_shown():
    # PROTOCOL.md: FRAME's seq is 0-65535, echoed in ACK; a line whose fields
    # make no sense is dropped and counted. The board shows this frame and
    # answers "ACK 70000" (and "ACK -1" for seq -1).
    for seq in (70000, -1):
        firmware = Firmware()
        firmware.step(HELLO)
        writes = len(firmware.strip.writes)
        firmware.step(host_proto.message("FRAME", seq, "ff" * 3 * LEDS))
        acks = [words for words in firmware.sent_words() if words[0] == b"ACK"]
        assert acks == [] and len(firmware.strip.writes) == writes, f"FRAME {seq}: sent {firmware.link.sent[1:]}"


# --- the host's parser


def host_board():
    events = []
    # A clock that stands still: the driver's Repeats count, and no interval ever ends.
    board = SerialTileBoard(port="/nonexistent", on_event=events.append, clock=lambda: 0.0)
    return board, events


def host_feed(board, stream, sizes=(10**6,)):
    """What the reader thread does with bytes read from the port, after the handshake."""
    at, turn = 0, 0
    while at < len(stream):
        size = sizes[turn % len(sizes)]
        turn += 1
        for words in board.link.reader.feed(stream[at : at + size]):
            board.session.dispatch(words)
        at += size


def host_model(messages, tiles=TILES):
    """PROTOCOL.md's rules for the host: (events, lost touches, acked frame, board counters, malformed)."""
    events, lost, acked, counters, malformed = [], 0, None, (0, 0, 0), 0
    last = None
    number = decimal
    said = set()  # the conditions the driver has logged (its clock stands still: no interval ends)
    told, told_count = {}, 0  # what each code last told the table, and how many were told

    def news(key):
        """A condition is logged (an ERROR posted) once; past MOST_KINDS of them, one for all the rest."""
        if key not in said and len(said) >= MOST_KINDS:
            key = OTHERS
        if key in said:
            return False
        said.add(key)
        return True

    for words in messages:
        kind = words[0]
        try:
            if kind == b"TOUCH":
                seq, tile, state = number(words[1]), number(words[2]), number(words[3])
                if not (0 <= tile < tiles and state in (0, 1) and 0 <= seq <= 0xFFFF):
                    malformed += 1
                    continue
                if last is not None:
                    gap = (seq - last) % 0x10000
                    if gap == 0 or gap > 0x8000:
                        continue  # a repeat, or older than the last
                    lost += gap - 1
                    if gap > 1:
                        news("lost")
                last = seq
                events.append(TileTouched(tile, state == 1))
            elif kind == b"BEAT":
                beat = (number(words[3]), number(words[4]), number(words[5]))
                if beat != counters:
                    counters = beat
                    news("counts")
            elif kind == b"ACK":
                acked = number(words[1])
            elif kind == b"ERROR":
                problem = BoardProblem(words[1].decode(), b" ".join(words[2:]).decode())
                news(("ERROR", problem.code, problem.detail))
                # Told to the table when its code's detail changes, PROBLEMS_PER_S within the (standing) second.
                if told.get(problem.code) != problem.detail and told_count < PROBLEMS_PER_S:
                    told[problem.code] = problem.detail
                    told_count += 1
                    events.append(problem)
            else:
                malformed += 1  # BOARD belongs to the handshake; _dispatch runs after it
        except (IndexError, ValueError):
            malformed += 1
    return events, lost, acked, counters, malformed


def check_host(board, events, messages):
    expected_events, lost, acked, counters, malformed = host_model(messages)
    assert events == expected_events
    assert board.lost_touches == lost
    assert board.acked_frame == acked
    assert board.board_counters == counters
    assert board.malformed == malformed


@st.composite
def board_sessions(draw):
    """Valid board output: BOARD, then TOUCHes with increasing seq (wrapping), BEATs, ACKs, ERRORs, repeats."""
    lines = [host_proto.message("BOARD", PROTOCOL, VERSION, TILES, STATUS_LEDS, "%07x" % draw(st.integers(0, (1 << TILES) - 1)))]
    seq = draw(st.one_of(st.integers(0, 0xFFFF), st.integers(0xFFF0, 0xFFFF)))
    last_touch = None
    for item in draw(st.lists(st.sampled_from(["touch", "touch", "touch", "repeat", "beat", "ack", "error"]), min_size=1, max_size=16)):
        if item == "touch" or (item == "repeat" and last_touch is None):
            seq = (seq + 1) & 0xFFFF
            last_touch = host_proto.message("TOUCH", seq, draw(st.integers(0, TILES - 1)), draw(st.integers(0, 1)))
            lines.append(last_touch)
        elif item == "repeat":
            lines.append(last_touch)
        elif item == "beat":
            numbers = draw(st.lists(st.integers(0, 999), min_size=4, max_size=4))
            lines.append(host_proto.message("BEAT", numbers[0], "%07x" % draw(st.integers(0, (1 << TILES) - 1)), *numbers[1:]))
        elif item == "ack":
            lines.append(host_proto.message("ACK", draw(st.integers(0, 0xFFFF))))
        else:
            code = draw(st.sampled_from(sorted(code.decode() for code in BOARD_ERROR_CODES)))
            lines.append(host_proto.message("ERROR", code, draw(st.integers(0, 24))))
    return lines


@given(board_sessions(), chunkings())
@FUZZ
def test_host_valid_board_output_gives_its_events(lines, sizes):
    board, events = host_board()
    host_feed(board, b"".join(lines), sizes)
    messages = [host_proto.decode(line[:-1]) for line in lines]
    check_host(board, events, messages)
    touches = [line for line in lines if line.startswith(b"TOUCH")]
    assert len([event for event in events if isinstance(event, TileTouched)]) == len(dict.fromkeys(touches))
    assert board.lost_touches == 0 and board.damaged == 0


@given(st.data())
@settings(max_examples=500, deadline=None)
def test_host_damaged_stream_gives_only_the_intact_lines_events(data):
    lines = data.draw(board_sessions())
    stream = b"".join(lines)
    mutation = data.draw(mutations(stream))
    damaged = damaged_lines(lines, mutation)
    intact = [host_proto.decode(line[:-1]) for index, line in enumerate(lines) if index not in damaged]
    board, events = host_board()
    host_feed(board, apply(stream, mutation), data.draw(chunkings()))
    event(f"{mutation[0]} damages {len(damaged)} line(s)")
    event(f"{sum(isinstance(e, TileTouched) for e in events)} touch events")
    check_host(board, events, intact)
    # said directly: every touch event comes from an intact TOUCH line, in order
    intact_touches = [
        TileTouched(int(words[2]), words[3] == b"1") for words in intact if words[0] == b"TOUCH"
    ]
    touches = [event for event in events if isinstance(event, TileTouched)]
    it = iter(intact_touches)
    assert all(event in it for event in touches)
    if damaged and not (mutation[0] != "insert" and mutation[1] == len(stream) - 1):
        assert board.damaged >= 1  # dropped lines are counted (an unterminated last line is not yet a line)


@given(st.lists(st.one_of(st.binary(max_size=100), HOST_LINES, st.just(b"\n")), max_size=30))
@FUZZ
def test_host_random_input_never_raises_and_follows_the_rules(chunks):
    board, events = host_board()
    stream = b"".join(chunks)
    for chunk in chunks:
        host_feed(board, chunk)
    messages = host_proto.LineReader().feed(stream)
    check_host(board, events, messages)


BOARD_FIELD = st.one_of(
    st.integers(-2, 0x10002).map(str),
    st.sampled_from(["0", "1", "2", "24", "25", "-1", "65535", "65536", "x", "1.0", "0x1", "1_2", "+7", "0_3", "012"]),
    st.integers(0, 0x10002).flatmap(non_decimal),
)
BOARD_LINES = st.one_of(
    st.builds(
        lambda kind, fields: host_proto.message(kind, *fields),
        st.sampled_from(["TOUCH", "BEAT", "ERROR", "BOARD", "BYE", "HELLO"]),
        st.lists(BOARD_FIELD, max_size=6),
    ),
    # ACK's seq stays in range here: out of range is test_host_ack_with_seq_out_of_range_counts_malformed
    st.builds(lambda fields: host_proto.message("ACK", *fields), st.lists(st.integers(0, 0xFFFF), max_size=2)),
    st.sampled_from([host_proto.message("ACK", "x"), host_proto.message("ACK", "1.0")]),
    st.builds(  # touches near the edges: repeats, gaps, the wrap, tiles and states out of range
        lambda seq, tile, state: host_proto.message("TOUCH", seq, tile, state),
        st.one_of(st.integers(0, 6), st.integers(0xFFFA, 0x10001), st.integers(0x7FFE, 0x8002), st.just(-1)),
        st.integers(-1, TILES + 1),
        st.integers(-1, 2),
    ),
)


@given(st.lists(BOARD_LINES, max_size=40), chunkings())
@FUZZ
def test_host_nonsense_fields_with_good_checksums_follow_the_rules(lines, sizes):
    board, events = host_board()
    host_feed(board, b"".join(lines), sizes)
    # A field of another script's digits is no printable ASCII: its line is dropped as damaged.
    messages = [words for words in (host_proto.decode(line[:-1]) for line in lines) if words is not None]
    check_host(board, events, messages)
    event(f"{sum(isinstance(e, TileTouched) for e in events)} touch events, {board.malformed} malformed")
    for touched in events:
        if isinstance(touched, TileTouched):
            assert 0 <= touched.tile < TILES


# --- numbers spelt otherwise (PROTOCOL.md: decimal means ASCII digits only), on lines with good checksums


@st.composite
def board_lines_spelt_otherwise(draw):
    """A TOUCH, ACK or BEAT the host would take, with one of its numbers spelt as int() takes it and
    PROTOCOL.md does not (a sign, '_', '0x', other scripts' digits, too many digits...)."""
    kind = draw(st.sampled_from(["TOUCH", "ACK", "BEAT"]))
    if kind == "TOUCH":
        fields, numbers = [draw(st.integers(0, 0xFFFF)), draw(st.integers(0, TILES - 1)), draw(st.integers(0, 1))], [0, 1, 2]
    elif kind == "ACK":
        fields, numbers = [draw(st.integers(0, 0xFFFF))], [0]
    else:
        fields = [draw(st.integers(0, 999)), "0000000", *draw(st.lists(st.integers(1, 999), min_size=3, max_size=3))]
        numbers = [2, 3, 4]  # the counters (the beat's own number is not read)
    at = draw(st.sampled_from(numbers))
    fields[at] = draw(non_decimal(fields[at]))
    return host_proto.message(kind, *fields)


@given(st.lists(board_lines_spelt_otherwise(), min_size=1, max_size=6), chunkings())
@FUZZ
def test_host_numbers_spelt_otherwise_give_no_touch_ack_or_counts(lines, sizes):
    board, events = host_board()
    host_feed(board, b"".join(lines), sizes)
    assert events == []
    assert (board.acked_frame, board.board_counters, board.lost_touches) == (None, (0, 0, 0), 0)
    assert board.malformed + board.damaged == len(lines)  # each one dropped and counted
    event(f"{board.damaged} of {len(lines)} dropped as damaged (not ASCII, or two spaces)")


@st.composite
def host_lines_spelt_otherwise(draw):
    """A HELLO, LIMIT, FRAME or SET the board would take, with one of its numbers spelt otherwise."""
    kind = draw(st.sampled_from(["HELLO", "LIMIT", "FRAME", "SET"]))
    if kind == "HELLO":
        fields, numbers = [PROTOCOL], [0]
    elif kind == "LIMIT":
        fields, numbers = [draw(st.integers(0, 255)), draw(st.integers(0, 10000))], [0, 1]
    elif kind == "FRAME":
        fields, numbers = [draw(st.integers(0, 0xFFFF)), draw(st.binary(min_size=3 * LEDS, max_size=3 * LEDS)).hex()], [0]
    else:
        pairs = draw(set_pairs())
        fields = [draw(st.integers(0, 0xFFFF)), *(field for pair in pairs for field in pair)]
        numbers = [0, *range(1, len(fields), 2)]
    at = draw(st.sampled_from(numbers))
    fields[at] = draw(non_decimal(fields[at]))
    return host_proto.message(kind, *fields)


@given(st.lists(host_lines_spelt_otherwise(), min_size=1, max_size=6), chunkings())
@FUZZ
def test_firmware_numbers_spelt_otherwise_change_no_led_and_answer_syntax(lines, sizes):
    firmware = Firmware()
    firmware.step(HELLO)
    firmware.step(host_proto.message("FRAME", 1, "123456" * LEDS))
    frame, writes, sent = bytes(firmware.leds.frame), len(firmware.strip.writes), len(firmware.link.sent)
    firmware.feed(b"".join(lines), sizes)
    assert len(firmware.strip.writes) == writes and firmware.leds.frame == frame
    answers = firmware.sent_words()[sent:]
    assert all(words[:2] == [b"ERROR", b"syntax"] for words in answers), answers
    assert len(answers) + firmware.link.reader.damaged == len(lines)  # each one refused, or dropped as damaged
    assert firmware.app.connected and firmware.leds.brightness == fw_leds.DEFAULT_BRIGHTNESS


def test_host_ack_with_seq_out_of_range_counts_malformed():
    # PROTOCOL.md: ACK echoes a FRAME's seq, 0-65535; a line whose fields make
    # no sense is dropped and counted. The host takes "ACK 70000" and "ACK -1"
    # as acknowledged frames and counts nothing.
    for seq in (70000, -1):
        board, events = host_board()
        host_feed(board, host_proto.message("ACK", 5) + host_proto.message("ACK", seq))
        assert (board.acked_frame, board.malformed) == (5, 1), f"ACK {seq}: acked_frame {board.acked_frame}"


def test_host_touch_out_of_range_yields_no_event_and_counts_malformed():
    board, events = host_board()
    bad = [
        ("TOUCH", 1, 25, 1),  # no tile 25
        ("TOUCH", 2, -1, 1),
        ("TOUCH", 3, 4, 2),  # state is 0 or 1
        ("TOUCH", 4, 4, -1),
        ("TOUCH", 65536, 4, 1),  # seq is 0-65535
        ("TOUCH", -1, 4, 1),
        ("TOUCH", 5, "x", 1),
        ("TOUCH", 6, 4),
    ]
    host_feed(board, b"".join(host_proto.message(*fields) for fields in bad))
    assert events == [] and board.malformed == len(bad)
    host_feed(board, host_proto.message("TOUCH", 7, 24, 1))
    assert events == [TileTouched(24, True)] and board.malformed == len(bad)


def test_host_repeated_or_old_touch_seq_is_ignored():
    board, events = host_board()
    host_feed(board, host_proto.message("TOUCH", 10, 3, 1) * 3)
    assert events == [TileTouched(3, True)]
    host_feed(board, host_proto.message("TOUCH", 9, 3, 0))  # older than the last
    assert events == [TileTouched(3, True)]
    host_feed(board, host_proto.message("TOUCH", 11, 3, 0))
    assert events == [TileTouched(3, True), TileTouched(3, False)]
    assert board.lost_touches == 0 and board.malformed == 0


def test_host_gap_in_touch_seq_counts_lost_touches_across_the_wrap():
    board, events = host_board()
    host_feed(board, host_proto.message("TOUCH", 65533, 1, 1) + host_proto.message("TOUCH", 65535, 1, 0))
    assert board.lost_touches == 1
    host_feed(board, host_proto.message("TOUCH", 2, 1, 1))  # 0 and 1 lost
    assert board.lost_touches == 3
    assert events == [TileTouched(1, True), TileTouched(1, False), TileTouched(1, True)]


def test_host_damaged_touch_line_yields_no_event_and_counts_damaged():
    board, events = host_board()
    line = host_proto.message("TOUCH", 1, 12, 1)
    for at in range(len(line) - 1):
        host_feed(board, line[:at] + bytes([line[at] ^ 0x01]) + line[at + 1 :])
    assert events == [] and board.damaged == len(line) - 1 and board.malformed == 0
