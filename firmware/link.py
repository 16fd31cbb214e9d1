# The USB serial link, never blocking the scan loop: reads only what has
# arrived, writes only when the port can take it, and keeps at most
# MAX_QUEUED outgoing lines (a host that stops reading loses the oldest
# heartbeats, not the scan).

import select

from tileproto import LineReader

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

MAX_QUEUED = const(24)
READ_BUDGET = const(600)  # bytes per call: a full frame line, and the scan goes on


class Link:
    def __init__(self, rx, tx):
        self._rx = getattr(rx, "buffer", rx)
        self._tx = getattr(tx, "buffer", tx)
        self._rx_poll = select.poll()
        self._rx_poll.register(rx, select.POLLIN)
        self._tx_poll = select.poll()
        self._tx_poll.register(tx, select.POLLOUT)
        self.reader = LineReader()
        self._queue = []
        self._byte = bytearray(1)
        self._chunk = bytearray(READ_BUDGET)
        self.dropped = 0  # outgoing lines dropped because the host did not read
        self.closed = False  # the other end went away (only happens off the Pico)

    def receive(self):
        """The messages that have arrived (lists of words); never waits."""
        count = 0
        chunk, byte = self._chunk, self._byte
        while count < READ_BUDGET:
            ready = self._rx_poll.poll(0)
            if not ready:
                break
            if ready[0][1] & (select.POLLHUP | select.POLLERR) and not ready[0][1] & select.POLLIN:
                self.closed = True
                break
            if not self._rx.readinto(byte):
                self.closed = True
                break
            chunk[count] = byte[0]
            count += 1
        if not count:
            return ()
        return self.reader.feed(bytes(chunk[:count]))

    def send(self, line):
        """Queue a line; drops the oldest queued line when the host is not reading."""
        if len(self._queue) >= MAX_QUEUED:
            self._queue.pop(0)
            self.dropped += 1
        self._queue.append(line)

    def flush(self):
        """Write queued lines while the port takes them."""
        while self._queue and self._tx_poll.poll(0):
            self._tx.write(self._queue.pop(0))

    def clear(self):
        self._queue = []
