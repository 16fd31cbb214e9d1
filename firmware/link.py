# The USB serial link, never blocking the scan loop: reads only what has
# arrived, writes only when the port can take it, and keeps at most
# MAX_QUEUED outgoing lines (a host that stops reading loses the oldest
# heartbeats, not the scan).
#
# Reading is the one part that differs between ports, so it is a function
# passed in: read(view) fills a memoryview with bytes that have arrived and
# returns their count (0: none now, -1: the other end is gone).
# - byte_reader: the Pico. Its sys.stdin.buffer.readinto(buf) waits until
#   len(buf) bytes came (one blocking mp_hal_stdin_rx_chr() per byte, still so
#   in MicroPython 1.29-preview's shared/runtime/sys_stdio_mphal.c; readinto1
#   too, as the loop is in that read function) and nothing says how many are waiting
#   (micropython issue #8772, open), so it takes one byte per poll that says
#   one is there, up to the end of a line. README.md, "How input is read".
# - bulk_reader: a non-blocking file descriptor (the unix port on a pty):
#   one readinto takes everything that has arrived.

import select

from tileproto import LineReader

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

MAX_QUEUED = const(24)
_GONE = select.POLLHUP | select.POLLERR


def _ipoll(poller):
    # ipoll reuses one tuple (poll allocates a list of tuples); CPython has only poll.
    return getattr(poller, "ipoll", poller.poll)


def byte_reader(stream):
    """read(view) for a stream whose readinto blocks until the buffer is full: a byte per ready poll."""
    poller = select.poll()
    poller.register(stream, select.POLLIN)
    ready = _ipoll(poller)
    readinto = stream.readinto  # looked up once, not per byte
    one = bytearray(1)

    def read(view):
        count, size = 0, len(view)
        while count < size:
            flags = 0
            for _, flags in ready(0):
                break
            if not flags & select.POLLIN:
                return -1 if flags & _GONE and not count else count
            got = readinto(one)
            if not got:  # None: a non-blocking stream had nothing after all; 0: end of file
                return count if got is None else count or -1
            view[count] = one[0]
            count += 1
            if one[0] == 0x0A:
                break  # a whole line: the loop takes it before reading on (a scan may be due)
        return count

    return read


def bulk_reader(stream):
    """read(view) for a non-blocking stream: readinto returns what is there (None: nothing)."""

    def read(view):
        try:
            count = stream.readinto(view)
        except OSError:  # EIO: a pty whose other side closed
            return -1
        if count is None:
            return 0
        return count or -1  # 0 bytes: end of file

    return read


class Link:
    def __init__(self, rx, tx, read=None):
        self._rx = getattr(rx, "buffer", rx)
        self._tx = getattr(tx, "buffer", tx)
        self._read = read or byte_reader(self._rx)
        rx_poll = select.poll()
        rx_poll.register(rx, select.POLLIN)
        self._rx_ready = _ipoll(rx_poll)
        tx_poll = select.poll()
        tx_poll.register(tx, select.POLLOUT)
        self._tx_ready = _ipoll(tx_poll)
        self.reader = LineReader()
        self._queue = []
        self._partial = False  # the first queued line is a remainder: part of it went out
        self.dropped = 0  # outgoing lines dropped because the host did not read
        self.closed = False  # the other end went away (only happens off the Pico)

    def receive(self):
        """The messages that have arrived (lists of words); never waits."""
        reader = self.reader
        count = self._read(reader.space())
        if count > 0:
            return reader.received(count)
        if count < 0:
            self.closed = True
        return ()

    def wait(self, timeout_ms):
        """Sleep until input arrives or timeout_ms passed (select.poll: both ports wake on input)."""
        for _ in self._rx_ready(timeout_ms):
            break

    def send(self, line):
        """Queue a line; drops the oldest whole queued line when the host is not reading."""
        queue = self._queue
        if len(queue) >= MAX_QUEUED:
            queue.pop(1 if self._partial else 0)  # never the rest of a line half sent
            self.dropped += 1
        queue.append(line)

    def flush(self):
        """Write queued lines while the port takes them; a line it takes in part stays queued."""
        queue = self._queue
        while queue:
            for _ in self._tx_ready(0):
                break
            else:
                return
            line = queue[0]
            written = self._tx.write(line)
            if written is None:  # a non-blocking port that is full after all
                return
            if written < len(line):
                queue[0] = line[written:]
                self._partial = True
                return
            queue.pop(0)
            self._partial = False

    @property
    def queued(self):
        """Lines waiting to be sent (a line sent in part counts until its rest is out)."""
        return len(self._queue)

    def clear(self):
        self._queue = []
        self._partial = False
