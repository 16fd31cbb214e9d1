# The firmware's frame path, timed on MicroPython's unix port: N real FRAME
# lines, then N one-LED SET lines, go through the real Link, LineReader,
# TileApp and Leds, one at a time, from bytes waiting on a non-blocking
# socket (as on the tests' pty) to strip.write() done and the ACK written. The strip is a stand-in with
# neopixel.NeoPixel's buffer and byte order that logs nothing; the pads are
# the emulated MPR121s, untouched.
#
#     MICROPYPATH=firmware:host/codenames_board/unixboard \
#         micropython host/codenames_board/unixboard/bench_frames.py [N] [--bytewise] [--memory]
#
# prints four lines, key=value, times in microseconds:
#
#     frame_us p50=.. p99=.. max=.. mean=.. n=N fps=.. read=bulk|bytewise leds=37
#     set_us p50=.. p99=.. max=.. mean=.. n=N fps=.. read=bulk|bytewise leds=1
#     scan_us p50=.. p99=.. max=.. mean=.. n=N
#     scan_poll_us p50=.. p99=.. max=.. mean=.. n=N
#
# frame_us: one loop step that takes in one FRAME (app.step(); no scan or
# heartbeat falls due in it); set_us: the same for a SET changing one LED (a
# touch: some 30 bytes against the FRAME's 244). fps: 10**6 / mean, the
# frames a second the firmware could take back to back. read=bytewise reads as the Pico must (a
# byte per ready poll, link.byte_reader): the unix port's cost of that
# strategy, not the Pico's. --memory puts an in-memory stream where the socket was: no system
# call per byte (the Pico makes none either), but a Python-level stream's calls instead of C's, so
# the unix port's system calls cost about the difference (read=bytewise-memory). scan_us: one scan of the 25 pads (app.scan()),
# nobody touching, reading a board only when its IRQ line is low (and at the
# safety poll); scan_poll_us: the same reading every board on every scan, as
# without IRQ lines. Leaves out: the host, the USB or pty transfer, the LEDs'
# own 30 us each. Run from a bench: it fails (exit 1) rather than print a
# number for frames that were not all shown and acknowledged.

import gc
import io
import os
import select
import socket
import struct
import sys
import time

import board
from link import Link, bulk_reader, byte_reader
from tileproto import PROTOCOL, LineReader, message
from unix_parts import build

WARM_UP = 20  # frames before the timing starts
_STREAM_POLL = 3  # MP_STREAM_POLL: the ioctl select.poll asks a Python stream


class QuietStrip:
    """neopixel.NeoPixel as Leds uses it (buf, ORDER, bpp, write), without a pin."""

    ORDER = (1, 0, 2, 3)
    bpp = 3

    def __init__(self, count):
        self.n = count
        self.buf = bytearray(3 * count)
        self.writes = 0

    def write(self):
        self.writes += 1


def socket_pair():
    """Two connected sockets (no socketpair() on the unix port): the host's end and the board's."""
    path = "%s/codenames-bench-%s.sock" % (os.getenv("TMPDIR") or "/tmp", "".join("%02x" % b for b in os.urandom(6)))
    address = struct.pack("H", socket.AF_UNIX) + path.encode() + b"\0"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(address)
        server.listen(1)
        host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        host.connect(address)
        board_end, _ = server.accept()
    finally:
        server.close()
        os.remove(path)
    board_end.setblocking(False)
    return host, board_end


class Pipe(io.IOBase):
    """One direction of an in-memory link, pollable as a stream (no system calls): what the board reads from
    or writes to with ``--memory``, so the timing is the interpreter's alone, as on a Pico (whose USB buffer
    is memory too), not the unix port's system call per byte."""

    def __init__(self):
        self.data = bytearray()

    def write(self, data):
        self.data += data
        return len(data)

    def readinto(self, buf):
        count = min(len(buf), len(self.data))
        buf[:count] = self.data[:count]
        self.data = self.data[count:]
        return count

    def close(self):
        pass

    def ioctl(self, request, arg):
        if request != _STREAM_POLL:
            return 0
        return (arg & select.POLLIN if self.data else 0) | (arg & select.POLLOUT)


class MemoryHost:
    """The host's end of two Pipes, with the socket calls run() makes."""

    def __init__(self, to_board, to_host):
        self.to_board, self.to_host = to_board, to_host

    def write(self, data):
        return self.to_board.write(data)

    def recv(self, size):
        got = bytes(self.to_host.data[:size])
        self.to_host.data = self.to_host.data[size:]
        return got

    def setblocking(self, flag):
        pass

    def close(self):
        pass


def memory_pair():
    to_board, to_host = Pipe(), Pipe()
    return MemoryHost(to_board, to_host), to_board, to_host


def frames(count, leds):
    """count FRAME lines of a moving rainbow, made before the clock starts."""
    lines = []
    for seq in range(count):
        colours = bytearray(3 * leds)
        for led in range(leds):
            phase = (seq * 7 + led * 13) % 256
            colours[3 * led] = phase
            colours[3 * led + 1] = (phase + 85) % 256
            colours[3 * led + 2] = 255 - phase
        lines.append(message("FRAME", seq, "".join("%02x" % value for value in colours)))
    return lines


def sets(count, leds, first_seq):
    """count SET lines, each changing one LED (the next one round), made before the clock starts."""
    return [
        message("SET", (first_seq + seq) & 0xFFFF, seq % leds, "%02x%02x%02x" % (seq % 256, 255 - seq % 256, 7))
        for seq in range(count)
    ]


def summary(name, costs, extra=""):
    costs = sorted(costs)
    count = len(costs)
    mean = sum(costs) // count
    return "%s p50=%d p99=%d max=%d mean=%d n=%d%s" % (
        name, costs[count // 2], costs[min(count - 1, count * 99 // 100)], costs[-1], mean, count, extra
    )


def run(count=1000, bytewise=False, memory=False):
    """Time count FRAMEs, count one-LED SETs and count scans twice; returns the four output lines."""
    if memory:
        host, board_in, board_out = memory_pair()
        board_end = board_in
    else:
        host, board_end = socket_pair()
        board_in = board_out = board_end
    strip = QuietStrip(board.LEDS)
    read = byte_reader(board_in) if bytewise else bulk_reader(board_in)
    _, app = build(Link(board_in, board_out, read), strip)
    answers = LineReader()
    host.write(message("HELLO", PROTOCOL))
    app.step()
    if answers.feed(host.recv(512))[0][0] != b"BOARD":
        raise AssertionError("no BOARD after HELLO")
    host.write(message("LIMIT", 255, 1500))  # bright enough for the cap to bind on some frames
    app.step()

    def timed(lines):
        costs = []
        acks = 0
        writes = strip.writes
        gc.collect()
        for index in range(WARM_UP + count):
            host.write(lines[index % len(lines)])
            # Keep the scan (timed below), the heartbeat and the LED refresh out of this step, however
            # long the run takes: on a loaded machine a second passes and the refresh would write
            # the strip once more than the frames sent.
            now = app.ticks_ms()
            app.last_scan = app.last_beat = app.last_refresh = now
            started = time.ticks_us()
            app.step()
            took = time.ticks_diff(time.ticks_us(), started)
            if index >= WARM_UP:
                costs.append(took)
            if index % 16 == 15:
                acks += sum(1 for words in answers.feed(host.recv(4096)) if words[0] == b"ACK")
        app.link.flush()
        host.setblocking(False)
        while True:
            try:
                tail = host.recv(4096)
            except OSError:  # nothing more waiting
                break
            if not tail:
                break
            acks += sum(1 for words in answers.feed(tail) if words[0] == b"ACK")
        host.setblocking(True)
        if strip.writes - writes != WARM_UP + count or acks != WARM_UP + count:
            raise AssertionError("%d sent, %d shown, %d acknowledged" % (WARM_UP + count, strip.writes - writes, acks))
        return costs

    def stats(name, costs, leds):
        mean = sum(costs) / len(costs)
        extra = " fps=%d read=%s%s leds=%d" % (
            1000000 / mean if mean else 0, "bytewise" if bytewise else "bulk", "-memory" if memory else "", leds
        )
        return summary(name, costs, extra)

    frame_costs = timed(frames(64, board.LEDS))
    set_lines = sets(2 * board.LEDS, board.LEDS, 64)
    leds = app.leds
    expected = bytearray(leds.frame)  # the last FRAME, then every SET sent applied to it
    for index in range(WARM_UP + count):
        words = LineReader().feed(set_lines[index % len(set_lines)])[0]
        at = 3 * int(words[2])
        expected[at : at + 3] = bytes.fromhex(words[3].decode())
    set_costs = timed(set_lines)
    if leds.frame != expected:
        raise AssertionError("the SETs did not leave the LEDs they named as they said")

    def scans():
        costs = []
        gc.collect()
        for _ in range(count):
            started = time.ticks_us()
            app.scan(app.ticks_ms())
            costs.append(time.ticks_diff(time.ticks_us(), started))
        return costs

    on_irq = scans()
    app.pads.without_irq()
    polled = scans()
    host.close()
    board_end.close()
    return (
        stats("frame_us", frame_costs, board.LEDS), stats("set_us", set_costs, 1), summary("scan_us", on_irq),
        summary("scan_poll_us", polled),
    )


def main(argv):
    count = 1000
    for argument in argv:
        if argument not in ("--bytewise", "--memory"):
            count = int(argument)
    for line in run(count, "--bytewise" in argv, "--memory" in argv):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
