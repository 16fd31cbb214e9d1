"""The tile protocol's codec (firmware/tileproto.py), on CPython and on MicroPython.

The host imports the codec as codenames_firmware.tileproto; the Pico runs
the same file. PROTOCOL.md is the contract: lines are "PAYLOAD*CRC\\n", CRC
the CRC-32 of PAYLOAD as 8 lower-case hex digits; anything else is dropped
and counted.
"""

import json
import random
import re
import subprocess
import zlib
from pathlib import Path

import pytest

from needs import micropython as micropython_command
from hypothesis import given, settings
from hypothesis import strategies as st

from codenames_firmware import tileproto
from codenames_firmware.tileproto import MAX_DIGITS, MAX_LINE, LineReader, decode, encode, message, number

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIRMWARE = ROOT / "firmware"
PROTOCOL_MD = FIRMWARE / "PROTOCOL.md"
MP_SCRIPT = HERE / "mp_parse_stream.py"

LEDS = 37  # 25 tiles and 12 status LEDs, as firmware/board.py says


def crc_hex(payload: bytes) -> bytes:
    return b"%08x" % zlib.crc32(payload)


def line_of(payload: bytes) -> bytes:
    """A correct line (no newline) built without the codec."""
    return payload + b"*" + crc_hex(payload)


def payload_with_crc(predicate, prefix=b"BEAT "):
    """The first payload PREFIX+n whose CRC-32 satisfies predicate."""
    for n in range(10**6):
        payload = prefix + str(n).encode()
        if predicate(zlib.crc32(payload)):
            return payload
    raise AssertionError("no such payload")


# Every message type of PROTOCOL.md, built with message(); the round trip
# covers them all (and the doc test below checks the tables name no others).
ROUND_TRIP = [
    # host to board
    ("HELLO", 1),
    ("LIMIT", 96, 2000),
    ("FRAME", 65535, "ff0000" + "00" * 3 * (LEDS - 1)),
    ("SET", 7, 12, "e0c8a0"),
    ("SET", 65535, 0, "ff0000", 36, "0000ff", *(field for led in range(20, 34) for field in (led, "000000"))),
    ("BEAT", 0),
    ("STOP",),
    ("MAINT", 52851),  # the maintenance messages that follow it: tests/tileboard/test_firmware_install.py
    ("TUNE", 10, 5, 1),
    ("TUNE", 20, 10),  # debounce left as it is
    ("TUNEPAD", 12, 8, 4),
    ("TUNEPAD", 12, 8, 4, 24, 0, 0),  # tile 24 back to TUNE's thresholds
    ("ORDER", "RGB"),
    ("PADS",),
    ("ERROR", "display", "slow"),
    # board to host
    ("BOARD", 1, "0.1.0", 25, 12, "%07x" % (1 << 24)),
    ("BOARD", 2, "0.1.0+3f2a9c1b7e01", 25, 12, "0000000"),  # the firmware's identity after its version
    ("TOUCH", 0, 24, 1),
    ("TOUCH", 65535, 0, 0),
    ("ACK", 12),
    ("BYE",),
    ("BEAT", 17, "0001000", 3, 1, 0),
    ("TUNED", 12, 6, 1),
    ("TUNED", 12, 6, 1, "12,8,4", "24,20,10"),  # tiles with thresholds of their own
    ("PADS", 12, 6, 1, *(["600,600"] * 24), "-"),
    ("ERROR", "protocol", 1),
    ("ERROR", "tune", 4, 6, 1),
    ("ERROR", "tunepad", 3, 4, 4),
    ("ERROR", "order", "RGBW"),
    ("ERROR", "length", 3, 111),
    ("ERROR", "limit", 300, 2000),
    ("ERROR", "syntax", "FRAME"),
    ("ERROR", "syntax", "SET"),
    ("ERROR", "unknown", "HULLO"),
    ("ERROR", "noisy", 7),
    ("ERROR", "quiet", 7),
    ("ERROR", "stuck", 12),
    ("ERROR", "pads", "0,2"),
    ("ERROR", "pads", "-"),
]


def words_of(fields):
    return [field if isinstance(field, bytes) else str(field).encode() for field in fields]


# --- encoding


def test_codec_the_host_imports_is_the_firmware_file():
    assert Path(tileproto.__file__).resolve() == FIRMWARE / "tileproto.py"


def test_message_builds_payload_star_crc32_newline():
    assert message("TOUCH", 7, 12, 1) == b"TOUCH 7 12 1*" + crc_hex(b"TOUCH 7 12 1") + b"\n"
    assert message("HELLO", 1) == b"HELLO 1*4640c317\n"


def test_message_takes_bytes_str_and_int_fields_alike():
    assert message(b"ERROR", "pads", 2) == message("ERROR", b"pads", b"2") == encode(b"ERROR pads 2")


def test_crc_is_zero_padded_to_8_digits():
    payload = payload_with_crc(lambda crc: crc < 0x00100000)
    line = encode(payload)
    assert line == payload + b"*" + b"%08x" % zlib.crc32(payload) + b"\n"
    assert line[-9:-6] == b"000"
    assert decode(line[:-1]) == payload.split(b" ")


@given(st.binary(max_size=600).map(lambda data: bytes(b for b in data if 0x20 <= b <= 0x7E and b != 0x2A)))
@settings(max_examples=300, deadline=None)
def test_encode_appends_crc32_of_payload_as_8_lower_case_hex_digits(payload):
    line = encode(payload)
    assert line == payload + b"*" + crc_hex(payload) + b"\n"
    assert re.fullmatch(rb"[0-9a-f]{8}", line[-9:-1])
    assert line.count(b"\n") == 1


@pytest.mark.parametrize("fields", ROUND_TRIP, ids=lambda fields: " ".join(map(str, fields))[:40])
def test_every_message_type_round_trips(fields):
    line = message(*fields)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode(line[:-1]) == words_of(fields)
    assert decode(line[:-1] + b"\r") == words_of(fields)
    reader = LineReader()
    assert reader.feed(line) == [words_of(fields)]
    assert (reader.damaged, reader.overflows) == (0, 0)


WORD = st.binary(min_size=1, max_size=20).map(lambda data: bytes(b for b in data if 0x21 <= b <= 0x7E and b != 0x2A)).filter(bool)


@given(st.lists(WORD, min_size=1, max_size=12))
@settings(max_examples=300, deadline=None)
def test_any_printable_words_round_trip(words):
    line = message(*words)
    assert decode(line[:-1]) == words
    assert LineReader().feed(line) == [words]


# --- the CRC without binascii


def test_table_crc_matches_the_standard_check_values():
    assert tileproto._crc32_table(b"") == 0
    assert tileproto._crc32_table(b"123456789") == 0xCBF43926  # CRC-32's check value
    assert tileproto._crc32_table(b"HELLO 1") == 0x4640C317


@given(st.binary(max_size=1024))
@settings(max_examples=400, deadline=None)
def test_table_crc_equals_zlib_crc32(data):
    assert tileproto._crc32_table(data) == zlib.crc32(data)
    assert tileproto._crc32_table(bytearray(data)) == zlib.crc32(data)


@given(st.lists(WORD, min_size=1, max_size=8))
@settings(max_examples=200, deadline=None)
def test_codec_without_binascii_crc32_gives_the_same_lines(words):
    with_binascii = message(*words)
    saved = tileproto.crc32
    tileproto.crc32 = None  # as on a MicroPython build without binascii.crc32
    try:
        assert message(*words) == with_binascii
        assert decode(with_binascii[:-1]) == words
        assert decode(line_of(b"BEAT 1")[:-1] + b"0") is None
    finally:
        tileproto.crc32 = saved


# --- decoding: what is dropped


GOOD = line_of(b"HELLO 1")  # b"HELLO 1*4640c317": its CRC has letters


def _bad_crc(line):
    digit = line[-1:]
    return line[:-1] + (b"0" if digit != b"0" else b"1")


REJECTED = {
    "wrong crc": _bad_crc(GOOD),
    "crc of another payload": b"HELLO 2*" + crc_hex(b"HELLO 1"),
    "upper-case hex crc": b"HELLO 1*" + crc_hex(b"HELLO 1").upper(),
    "missing star": b"HELLO 1 " + crc_hex(b"HELLO 1"),
    "missing star and crc": b"HELLO 1",
    "crc of 7 digits": b"HELLO 1*" + crc_hex(b"HELLO 1")[1:],
    "crc of 9 digits": b"HELLO 1*0" + crc_hex(b"HELLO 1"),
    "crc of 0 digits": b"HELLO 1*",
    "crc not hex": b"HELLO 1*4640c31g",
    "nul in payload": line_of(b"HELLO\x001"),
    "tab in payload": line_of(b"HELLO\t1"),
    "cr in payload": line_of(b"HELLO 1\r"),
    "del in payload": line_of(b"HELLO 1\x7f"),
    "high byte in payload": line_of(b"HELLO 1\xc3\xa9"),
    "star in payload": line_of(b"HELLO*1"),
    "star at payload end": line_of(b"HELLO 1*"),
    "double space": line_of(b"HELLO  1"),
    "leading space": line_of(b" HELLO 1"),
    "trailing space": line_of(b"HELLO 1 "),
    "payload only a space": line_of(b" "),
    "empty payload": line_of(b""),
    "nothing": b"",
    "only cr": b"\r",
    "two crs": GOOD + b"\r\r",
    "cr before crc": b"HELLO 1*\r" + crc_hex(b"HELLO 1")[:7],
    "space after crc": GOOD + b" ",
    "two lines in one": GOOD + GOOD,
}


@pytest.mark.parametrize("line", REJECTED.values(), ids=REJECTED.keys())
def test_decode_rejects(line):
    assert decode(line) is None
    reader = LineReader()
    assert reader.feed(line + b"\n") == []
    assert reader.damaged == (1 if line not in (b"", b"\r") else 0)


@pytest.mark.parametrize(
    "spelling",
    [
        # int(..., 16) would read each of these as the right number: only the
        # "exactly 8 lower-case hex digits" rule rejects them.
        lambda crc: b"+%07x" % crc,
        lambda crc: b" %07x" % crc,
        lambda crc: b"%07x " % crc,
        lambda crc: b"0_%06x" % crc,
        lambda crc: b"%08X" % crc,
    ],
    ids=["plus sign", "leading space", "trailing space", "underscore", "upper case"],
)
def test_decode_rejects_crc_spellings_int_would_accept(spelling):
    payload = payload_with_crc(lambda crc: crc < 0x00100000 and any(c in b"abcdef" for c in b"%06x" % crc))
    crc = zlib.crc32(payload)
    text = spelling(crc)
    assert len(text) == 8
    assert decode(payload + b"*" + text) is None
    assert decode(payload + b"*" + b"%08x" % crc) == payload.split(b" ")


def test_decode_accepts_one_trailing_cr():
    assert decode(GOOD + b"\r") == [b"HELLO", b"1"]
    assert LineReader().feed(GOOD + b"\r\n") == [[b"HELLO", b"1"]]


def test_decode_returns_the_payload_words():
    assert decode(line_of(b"BEAT 17 0001000 0 0 0")) == [b"BEAT", b"17", b"0001000", b"0", b"0", b"0"]
    assert decode(bytearray(GOOD)) == [b"HELLO", b"1"]


# --- numbers: ASCII decimal digits, nothing else (PROTOCOL.md: "Numbers are decimal")

DECIMAL = re.compile(rb"[0-9]{1,%d}" % MAX_DIGITS)
# What int() takes (in bytes or, once decoded, in str) and the protocol does not: the words of the
# issue ("TOUCH 1 1_2 1" revealed tile 12), signs, spaces, other bases and scripts, too many digits.
NOT_NUMBERS = [
    b"", b"1_2", b"+7", b"0_3", b"-1", b"-0", b"+0", b" 1", b"1 ", b"\t1", b"1\n", b"0x1", b"0b1", b"0o7",
    b"1.0", b"1e3", b"12345678901", b"00000000001", "\u0661\u0662".encode(), "\uff11".encode(), b"x", b"-",
]


@pytest.mark.parametrize("word", [b"0", b"7", b"24", b"65535", b"007", b"0000000000", b"9999999999"])
def test_number_reads_ascii_decimal_digits(word):
    assert number(word) == int(word)


@pytest.mark.parametrize("word", NOT_NUMBERS, ids=repr)
def test_number_refuses_what_int_would_take(word):
    with pytest.raises(ValueError):
        number(word)


@given(st.one_of(st.binary(max_size=12), st.text(max_size=12).map(str.encode), st.integers(-10, 10**11).map(lambda n: b"%d" % n)))
@settings(max_examples=500, deadline=None)
def test_number_takes_exactly_one_to_ten_ascii_digits(word):
    if DECIMAL.fullmatch(word):
        assert number(word) == int(word)
    else:
        with pytest.raises(ValueError):
            number(word)


# --- LineReader


def reference_cut(stream: bytes, max_line: int = MAX_LINE):
    """What PROTOCOL.md says a receiver makes of a whole stream: (messages, damaged, overflows)."""
    pieces = stream.split(b"\n")
    complete, tail = pieces[:-1], pieces[-1]
    messages, damaged, overflows = [], 0, 0
    for piece in complete:
        if len(piece) > max_line:
            overflows += 1
        elif piece in (b"", b"\r"):
            continue
        elif (words := decode(piece)) is None:
            damaged += 1
        else:
            messages.append(words)
    if len(tail) > max_line:  # already known to be too long, though not yet ended
        overflows += 1
    return messages, damaged, overflows


def feed_in_chunks(stream: bytes, sizes, max_line: int = MAX_LINE):
    reader = LineReader(max_line)
    messages = []
    at, turn = 0, 0
    while at < len(stream):
        size = sizes[turn % len(sizes)]
        turn += 1
        messages.extend(reader.feed(stream[at : at + size]))
        at += size
    return messages, reader.damaged, reader.overflows


def valid_line_of_length(length: int) -> bytes:
    """A correct line of exactly LENGTH bytes before its newline."""
    line = encode(b"FRAME 1 " + b"a" * (length - 17))
    assert len(line) == length + 1
    return line


SESSION = b"".join(
    [
        message("HELLO", 1),
        message("LIMIT", 96, 2000),
        message("FRAME", 1, "ff0000" + "00" * 3 * (LEDS - 1)),
        message("BEAT", 0),
        message("TOUCH", 1, 12, 1),
        message("ERROR", "pads", "-"),
    ]
)


def test_reader_gives_every_message_of_a_session_in_order():
    reader = LineReader()
    assert reader.feed(SESSION) == [decode(line) for line in SESSION.split(b"\n")[:-1]]
    assert (reader.damaged, reader.overflows) == (0, 0)


def test_reader_fed_byte_by_byte_gives_the_same_messages():
    whole = feed_in_chunks(SESSION, [len(SESSION)])
    assert feed_in_chunks(SESSION, [1]) == whole
    assert len(whole[0]) == 6


def test_reader_keeps_a_partial_line_until_its_newline():
    reader = LineReader()
    line = message("TOUCH", 3, 4, 1)
    assert reader.feed(line[:5]) == []
    assert reader.feed(line[5:-1]) == []
    assert reader.feed(b"\n") == [[b"TOUCH", b"3", b"4", b"1"]]


@given(
    st.lists(
        st.one_of(
            st.sampled_from(SESSION.split(b"\n")[:-1]).map(lambda line: line + b"\n"),
            st.binary(max_size=40),
            st.just(b"\n"),
            st.just(b"\r\n"),
            st.integers(MAX_LINE - 2, MAX_LINE + 2).map(lambda n: b"x" * n + b"\n"),
            st.integers(MAX_LINE - 1, MAX_LINE + 1).map(valid_line_of_length),
        ),
        max_size=12,
    ),
    st.lists(st.integers(1, 700), min_size=1, max_size=10),
)
@settings(max_examples=400, deadline=None)
def test_reader_result_does_not_depend_on_how_the_stream_is_split(parts, sizes):
    stream = b"".join(parts)
    expected = reference_cut(stream)
    assert feed_in_chunks(stream, sizes) == expected
    assert feed_in_chunks(stream, [1]) == expected
    assert feed_in_chunks(stream, [max(1, len(stream))]) == expected


def test_reader_accepts_a_line_of_max_line_bytes():
    line = valid_line_of_length(MAX_LINE)
    for sizes in ([len(line)], [1], [MAX_LINE], [MAX_LINE + 1]):
        assert feed_in_chunks(line, sizes) == ([decode(line[:-1])], 0, 0)


def test_reader_drops_an_over_long_line_counts_it_and_parses_the_next():
    too_long = valid_line_of_length(MAX_LINE + 1)  # a good checksum, one byte too many
    after = message("BEAT", 5)
    for sizes in ([10**6], [1], [7, 300], [MAX_LINE], [MAX_LINE + 1]):
        assert feed_in_chunks(too_long + after, sizes) == ([[b"BEAT", b"5"]], 0, 1), sizes


def test_reader_counts_a_very_long_line_once():
    stream = b"z" * (5 * MAX_LINE) + b"\n" + message("ACK", 9)
    for sizes in ([len(stream)], [1], [100], [MAX_LINE + 3]):
        assert feed_in_chunks(stream, sizes) == ([[b"ACK", b"9"]], 0, 1), sizes


def test_reader_counts_an_over_long_line_before_its_newline_arrives():
    reader = LineReader()
    assert reader.feed(b"y" * (MAX_LINE + 1)) == []
    assert reader.overflows == 1
    assert reader.feed(b"y" * 1000) == []
    assert reader.overflows == 1
    assert reader.feed(b"\n" + message("BEAT", 1)) == [[b"BEAT", b"1"]]
    assert (reader.damaged, reader.overflows) == (0, 1)


def test_reader_counts_damaged_lines_and_goes_on():
    bad = _bad_crc(message("TOUCH", 1, 2, 1)[:-1]) + b"\n"
    stream = bad + b"garbage\n" + message("TOUCH", 2, 2, 0) + b"\x00\xff\n"
    reader = LineReader()
    assert reader.feed(stream) == [[b"TOUCH", b"2", b"2", b"0"]]
    assert (reader.damaged, reader.overflows) == (3, 0)


def test_reader_ignores_blank_lines():
    reader = LineReader()
    assert reader.feed(b"\n\r\n\n" + message("BEAT", 1) + b"\n\n") == [[b"BEAT", b"1"]]
    assert (reader.damaged, reader.overflows) == (0, 0)


def test_reader_resynchronises_after_a_line_cut_short():
    # The host opened the port halfway through a line: the tail is damaged, the next line parses.
    tail = message("FRAME", 1, "00" * 3 * LEDS)[100:]
    reader = LineReader()
    assert reader.feed(tail + message("ACK", 1)) == [[b"ACK", b"1"]]
    assert reader.damaged == 1


# --- PROTOCOL.md's examples and tables


def protocol_text():
    return PROTOCOL_MD.read_text(encoding="utf-8")


def example_lines():
    text = protocol_text()
    section = text.split("## Example session", 1)[1]
    block = section.split("```", 2)[1]
    lines = [line for line in block.splitlines() if line[:2] in ("> ", "< ")]
    assert len(lines) >= 5, "the example session block has lost its lines"
    return lines


def table_signatures(heading):
    """{type: [field names]} from the table under HEADING; optional fields in brackets are left out
    and mark the list as open-ended (its last name then ends in "...")."""
    text = protocol_text()
    section = text.split(heading, 1)[1]
    section = re.split(r"\n#{2,3} ", section, maxsplit=1)[0]
    signatures = {}
    for row in section.splitlines():
        match = re.match(r"\| `([^`]+)` \|", row)
        if match:
            words = match.group(1).split(" [", 1)[0].split(" ")
            if "[" in match.group(1):
                words[-1] += "..."
            signatures[words[0]] = words[1:]
    assert signatures, f"no message table under {heading!r}"
    return signatures


HOST_TABLE = "## Messages from the host"
BOARD_TABLE = "## Messages from the board"


@pytest.mark.parametrize("line", example_lines(), ids=lambda line: line[:24])
def test_protocol_md_example_line_decodes(line):
    text = line[2:].encode("ascii")
    words = decode(text)
    assert words is not None, f"PROTOCOL.md's example {line!r} has a bad checksum or format"
    assert message(*words) == text + b"\n"  # and it is what message() writes


def test_protocol_md_example_lines_have_the_fields_their_table_names():
    host, board = table_signatures(HOST_TABLE), table_signatures(BOARD_TABLE)
    for line in example_lines():
        words = decode(line[2:].encode())
        table = host if line.startswith(">") else board
        kind = words[0].decode()
        assert kind in table, f"{line!r}: {kind} is not in the table for its direction"
        fields = table[kind]
        if fields and fields[-1].endswith("..."):
            assert len(words) - 1 >= len(fields), line
        else:
            assert len(words) - 1 == len(fields), f"{line!r}: the table says {kind} {' '.join(fields)}"


def test_protocol_md_example_sets_name_leds_and_colours_in_pairs():
    text = protocol_text()
    blocks = [block for block in re.findall(r"```\n(.*?)```", text, flags=re.S) if "> SET " in block]
    assert len(blocks) >= 2, "the SET examples are gone"
    sets = [decode(line[2:].encode()) for block in blocks for line in block.splitlines() if line.startswith("> SET ")]
    assert len(sets) >= 3
    for words in sets:
        assert words is not None
        pairs = words[2:]
        assert pairs and len(pairs) % 2 == 0 and len(pairs) // 2 <= tileproto.MAX_SET
        for led, colour in zip(pairs[::2], pairs[1::2]):
            assert 0 <= int(led) < LEDS and re.fullmatch(rb"[0-9a-f]{6}", colour)


def test_protocol_md_says_the_version_the_code_speaks():
    text = protocol_text()
    assert text.startswith(f"# The tile protocol, version {tileproto.PROTOCOL}\n")
    assert f"sends `HELLO {tileproto.PROTOCOL}`" in text
    assert f"`HELLO {tileproto.PROTOCOL}*" in text and message("HELLO", tileproto.PROTOCOL).decode().strip() in text
    assert f"1 to {tileproto.MAX_SET} pairs" in text


def test_protocol_md_example_frame_has_one_colour_per_led():
    frames = [decode(line[2:].encode()) for line in example_lines() if line[2:].startswith("FRAME")]
    assert frames
    for words in frames:
        assert len(words[2]) == 6 * LEDS
        bytes.fromhex(words[2].decode())


def test_every_message_type_in_the_tables_is_in_the_example_or_round_trip_test():
    host, board = table_signatures(HOST_TABLE), table_signatures(BOARD_TABLE)
    in_example = {decode(line[2:].encode())[0].decode() for line in example_lines()}
    built = {fields[0] for fields in ROUND_TRIP}
    for kind in set(host) | set(board):
        assert kind in in_example or kind in built, f"{kind} is neither in the example nor built by message()"
    # and the round trip covers every type (so a new type gets a test here)
    assert set(host) | set(board) <= built, f"add {(set(host) | set(board)) - built} to ROUND_TRIP"
    assert {"HELLO", "LIMIT", "FRAME", "BEAT", "ERROR"} <= host.keys()
    assert {"BOARD", "TOUCH", "ACK", "BEAT", "ERROR"} <= board.keys()


def test_every_board_error_code_in_the_table_round_trips_and_the_firmware_sends_only_those():
    text = protocol_text().split("### Board errors", 1)[1]
    text = re.split(r"\n#{2,3} ", text, maxsplit=1)[0]
    codes = set(re.findall(r"^\| `(\w+)` \|", text, flags=re.M))
    built = {str(fields[1]) for fields in ROUND_TRIP if fields[0] == "ERROR"}
    assert codes <= built
    sent = {code for name in ("app.py", "tuning.py")
            for code in re.findall(r'send\("ERROR", "(\w+)"', (FIRMWARE / name).read_text())}
    assert {"tune", "tunepad", "syntax"} <= sent
    sent |= set(re.findall(r'^(?:NOISY|QUIET|STUCK) = "(\w+)"', (FIRMWARE / "pads.py").read_text(), flags=re.M))
    assert sent, "found no ERROR codes in the firmware"
    assert sent <= codes, f"the firmware sends error codes PROTOCOL.md does not list: {sent - codes}"


# --- the same codec under MicroPython


def mutate(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    kind = rng.choice("rdi")
    byte = rng.choice([rng.randrange(256), 10, 13, 42, 32])
    if kind == "i" or at == len(data):
        return data[:at] + bytes([byte]) + data[at:]
    if kind == "d":
        return data[:at] + data[at + 1 :]
    return data[:at] + bytes([byte]) + data[at + 1 :]


def stream_corpus():
    """(chunk sizes, stream) pairs: valid, damaged, over-long, blank, random, split every way."""
    rng = random.Random(20240611)
    session = SESSION + message("ACK", 1) + message("BOARD", 1, "0.1.0", 25, 12, "0001000")
    streams = [
        session,
        b"",
        b"\n\r\n\n",
        SESSION.replace(b"\n", b"\r\n"),
        valid_line_of_length(MAX_LINE) + message("BEAT", 1),
        valid_line_of_length(MAX_LINE + 1) + message("BEAT", 2),
        b"q" * (3 * MAX_LINE) + b"\n" + message("ACK", 3),
        b"q" * (MAX_LINE + 5),
        message("HELLO", 1)[:9] + session,
        b"".join(line + b"\n" for line in REJECTED.values()) + message("BEAT", 4),
        b"".join(line + b"\n" for line in (line_of(b"HELLO 1"), line_of(b"HELLO 1") + b"\r")),
    ]
    for _ in range(60):
        streams.append(mutate(session, rng))
    for _ in range(20):
        streams.append(mutate(mutate(session, rng), rng))
    for _ in range(20):
        streams.append(bytes(rng.choice(b"\n*abcdef0123456789 HELLOBEAT\r\x00\xff") for _ in range(rng.randrange(200))))
    for _ in range(10):
        streams.append(bytes(rng.randrange(256) for _ in range(rng.randrange(700))))
    pairs = []
    for stream in streams:
        for sizes in ([0], [1], [rng.randrange(1, 40) for _ in range(5)], [MAX_LINE + 1, 3]):
            pairs.append((sizes, stream))
    return pairs


def cpython_answer(command: str):
    parts = command.split(" ")
    data = b"" if parts[-1] == "-" else bytes.fromhex(parts[-1])
    if parts[0] == "S":
        sizes = [int(size) for size in parts[1].split(",")]
        messages, damaged, overflows = feed_in_chunks(data, [len(data) or 1] if sizes == [0] else sizes)
        return {"m": [[word.decode() for word in words] for words in messages], "d": damaged, "o": overflows}
    if parts[0] == "E":
        return encode(data).hex()
    if parts[0] == "N":
        try:
            return number(data)
        except ValueError:
            return None
    words = decode(data)
    return None if words is None else [word.decode() for word in words]


def mp_commands():
    rng = random.Random(7)
    commands = [f"S {','.join(map(str, sizes))} {stream.hex() or '-'}" for sizes, stream in stream_corpus()]
    payloads = [b"HELLO 1", b"", b"123456789", *(message(*fields)[:-10] for fields in ROUND_TRIP)]
    payloads += [bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 300))).replace(b"*", b"") for _ in range(40)]
    commands += [f"E {payload.hex() or '-'}" for payload in payloads]
    lines = [*REJECTED.values(), GOOD, GOOD + b"\r", *(message(*fields)[:-1] for fields in ROUND_TRIP)]
    commands += [f"D {line.hex() or '-'}" for line in lines]
    words = [*NOT_NUMBERS, b"0", b"65535", b"007", b"9999999999", *(b"%d" % rng.randrange(10**9) for _ in range(20))]
    commands += [f"N {word.hex() or '-'}" for word in words]
    return commands


@pytest.mark.parametrize("crc", ["binascii", "table"])
def test_micropython_codec_gives_the_same_results_as_cpython(tmp_path, crc):
    commands = mp_commands()
    path = tmp_path / "commands.txt"
    path.write_text("\n".join(commands) + "\n", encoding="ascii")
    argv = [micropython_command(), str(MP_SCRIPT), str(path)] + (["table"] if crc == "table" else [])
    result = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=120,
        env={"MICROPYPATH": str(FIRMWARE), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr + result.stdout[-2000:]
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(commands)
    mismatches = [
        (command[:80], mine, theirs)
        for command, mine, theirs in zip(commands, map(cpython_answer, commands), answers)
        if mine != theirs
    ]
    assert not mismatches, f"{len(mismatches)} differences, first: {mismatches[0]}"
    # the corpus does exercise every path
    streams = [answer for command, answer in zip(commands, answers) if command.startswith("S ")]
    assert any(answer["d"] for answer in streams)
    assert any(answer["o"] for answer in streams)
    assert sum(len(answer["m"]) for answer in streams) > 100
    numbers = [answer for command, answer in zip(commands, answers) if command.startswith("N ")]
    assert numbers.count(None) == len(NOT_NUMBERS) and 9999999999 in numbers
