# The tile protocol's framing, shared by the firmware (MicroPython) and the
# host (CPython): one message per line, "PAYLOAD*CRC\n", where PAYLOAD is
# printable ASCII words separated by single spaces and CRC is the CRC-32
# (as zlib.crc32) of PAYLOAD in 8 lower-case hex digits. See PROTOCOL.md.
# A line that is too long, has a bad checksum or bad characters is dropped
# whole; the next newline starts afresh, so the link resynchronises itself.
#
# No allocation per byte: LineReader keeps one buffer for its whole life,
# the link reads straight into it (space()/received()), lines are found with
# find() and checked in place; only a good line's words become new bytes.
# number() reads a numeric field: ASCII digits only (int() takes more).

try:
    from binascii import crc32
except ImportError:  # a MicroPython build without binascii.crc32
    crc32 = None

try:
    import micropython
except ImportError:  # CPython (the host, the tests): the same functions, interpreted

    class micropython:
        @staticmethod
        def viper(function):
            return function

    ptr8 = None  # viper's pointer type, named in annotations

PROTOCOL = 2
MAX_LINE = 512  # bytes, newline excluded: fits a frame of 80 LEDs
MAX_SET = 16  # LEDs one SET may change; more go as a FRAME (about as short by then)
MAX_DIGITS = 10  # the longest number a field may spell (no field needs more)

_table = None


def _crc32_table(data):
    global _table
    if _table is None:
        _table = []
        for byte in range(256):
            crc = byte
            for _ in range(8):
                crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
            _table.append(crc)
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def checksum(payload):
    if crc32 is None:
        return _crc32_table(payload)
    return crc32(payload) & 0xFFFFFFFF


def encode(payload):
    """The line for a payload (bytes, no '*' or newline)."""
    return b"%s*%08x\n" % (payload, checksum(payload))


def message(*fields):
    """The line for a message given as words: message("TOUCH", 7, 12, 1)."""
    return encode(b" ".join(field if isinstance(field, bytes) else str(field).encode() for field in fields))


@micropython.viper
def _printable(text: ptr8, end: int) -> bool:
    # Every byte of text[:end] in 0x20-0x7E and none a '*'. Machine code on
    # the Pico: a FRAME's 240 bytes cost about as much as one Python step.
    for i in range(end):
        byte = text[i]
        if byte < 0x20 or byte > 0x7E or byte == 0x2A:
            return False
    return True


def number(word):
    """The value of a numeric field (bytes): 1 to MAX_DIGITS ASCII digits 0-9, nothing else.

    Raises ValueError for anything more that int() would take: a sign, '_',
    spaces, '0x', another script's digits (PROTOCOL.md: numbers are decimal).
    """
    if not 0 < len(word) <= MAX_DIGITS or not word.isdigit():  # bytes.isdigit: b"0"-b"9" only, here and there
        raise ValueError
    return int(word)


@micropython.viper
def unhex_into(out: ptr8, at: int, text: ptr8, size: int) -> bool:
    # text[:size], hex digits of either case (as binascii.unhexlify takes
    # them), as bytes into out[at:]: no object made per byte. False at the
    # first byte that is no hex digit, with out written up to there.
    high = 0
    for i in range(size):
        byte = text[i]
        if byte >= 0x30 and byte <= 0x39:
            value = byte - 0x30
        elif byte >= 0x61 and byte <= 0x66:
            value = byte - 0x57
        elif byte >= 0x41 and byte <= 0x46:
            value = byte - 0x37
        else:
            return False
        if i & 1:
            out[at + (i >> 1)] = (high << 4) | value
        else:
            high = value
    return True


def decode(line):
    """The payload's words (list of bytes) of one line without its newline, or None if it is damaged.

    ``line`` is any bytes-like object (bytes, bytearray, memoryview): the
    firmware passes a view into its receive buffer.
    """
    end = len(line)
    if end and line[end - 1] == 0x0D:  # '\r'
        end -= 1
    star = end - 9
    if star < 1 or line[star] != 0x2A:  # '*'
        return None
    # The only spelling of the CRC that counts: 8 lower-case hex digits.
    if line[star + 1 : end] != b"%08x" % checksum(line[:star]):
        return None
    if not _printable(line, star):
        return None
    words = bytes(line[:star]).split(b" ")
    if b"" in words:  # leading, trailing or double spaces
        return None
    return words


class LineReader:
    """Cuts a byte stream into messages; counts what it drops.

    feed() takes whatever bytes arrived and returns the decoded messages
    (lists of words) completed by them. The firmware avoids the copy: it
    reads into space() and calls received(count). ``damaged`` counts lines
    dropped for a bad checksum or bad characters, ``overflows`` lines longer
    than MAX_LINE.
    """

    def __init__(self, max_line=MAX_LINE):
        self.max_line = max_line
        # Room for a held partial line (at most max_line) and as much again to read into.
        self.buffer = bytearray(2 * (max_line + 1))
        self._view = memoryview(self.buffer)
        self._held = 0  # bytes of an unfinished line at the buffer's start (never a newline)
        self._skipping = False  # inside an over-long line: drop up to its newline
        self.damaged = 0
        self.overflows = 0

    def space(self):
        """The free part of the buffer, as a memoryview to read into; then call received()."""
        return self._view[self._held :]

    def received(self, count):
        """Take ``count`` bytes just read into space(); the messages they complete."""
        buffer, view, max_line = self.buffer, self._view, self.max_line
        end = self._held + count
        start = 0
        scan = self._held
        messages = []
        while True:
            newline = buffer.find(b"\n", scan, end)
            if newline < 0:
                break
            if self._skipping:
                self._skipping = False
            elif newline - start > max_line:
                self.overflows += 1
            elif newline > start and not (newline == start + 1 and buffer[start] == 0x0D):
                words = decode(view[start:newline])
                if words is None:
                    self.damaged += 1
                else:
                    messages.append(words)
            start = scan = newline + 1
        rest = end - start
        if self._skipping:
            rest = 0
        elif rest > max_line:
            self.overflows += 1
            self._skipping = True
            rest = 0
        elif rest and start:
            view[:rest] = view[start:end]  # memoryview copies overlapping ranges safely
        self._held = rest
        return messages

    def feed(self, data):
        """The messages completed by ``data`` (any bytes-like object)."""
        messages = []
        at, size = 0, len(data)
        while at < size:
            space = self.space()
            count = min(size - at, len(space))
            space[:count] = data[at : at + count]
            at += count
            messages.extend(self.received(count))
        return messages
