# The tile protocol's framing, shared by the firmware (MicroPython) and the
# host (CPython): one message per line, "PAYLOAD*CRC\n", where PAYLOAD is
# printable ASCII words separated by single spaces and CRC is the CRC-32
# (as zlib.crc32) of PAYLOAD in 8 lower-case hex digits. See PROTOCOL.md.
# A line that is too long, has a bad checksum or bad characters is dropped
# whole; the next newline starts afresh, so the link resynchronises itself.

try:
    from binascii import crc32
except ImportError:  # a MicroPython build without binascii.crc32
    crc32 = None

PROTOCOL = 1
MAX_LINE = 512  # bytes, newline excluded: fits a frame of 80 LEDs

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


def decode(line):
    """The payload's words (list of bytes) of one line without its newline, or None if it is damaged."""
    if line[-1:] == b"\r":
        line = line[:-1]
    star = len(line) - 9
    if star < 1 or line[star] != 0x2A:  # '*'
        return None
    payload = line[:star]
    try:
        crc = int(line[star + 1 :], 16)
    except ValueError:
        return None
    if crc != checksum(payload) or line[star + 1 :] != b"%08x" % crc:
        return None
    for byte in payload:
        if byte < 0x20 or byte > 0x7E or byte == 0x2A:
            return None
    words = payload.split(b" ")
    for word in words:
        if not word:  # leading, trailing or double spaces
            return None
    return words


class LineReader:
    """Cuts a byte stream into messages; counts what it drops.

    feed() takes whatever bytes arrived and returns the decoded messages
    (lists of words) completed by them. ``damaged`` counts lines dropped for a
    bad checksum or bad characters, ``overflows`` lines longer than MAX_LINE.
    """

    def __init__(self, max_line=MAX_LINE):
        self.max_line = max_line
        self._buffer = bytearray()
        self._skipping = False  # inside an over-long line: drop up to its newline
        self.damaged = 0
        self.overflows = 0

    def feed(self, data):
        messages = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            chunk = data[start:end]
            start = end + 1
            if self._skipping:
                self._skipping = False
                self._buffer = bytearray()
                continue
            if self._buffer:
                self._buffer.extend(chunk)
                line = bytes(self._buffer)
                self._buffer = bytearray()
            else:
                line = bytes(chunk)
            if len(line) > self.max_line:
                self.overflows += 1
                continue
            if not line or line == b"\r":
                continue
            words = decode(line)
            if words is None:
                self.damaged += 1
            else:
                messages.append(words)
        rest = data[start:]
        if rest and not self._skipping:
            if len(self._buffer) + len(rest) > self.max_line:
                self.overflows += 1
                self._skipping = True
                self._buffer = bytearray()
            else:
                self._buffer.extend(rest)
        return messages
