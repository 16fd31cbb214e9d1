"""The firmware's serial link (firmware/link.py) on real pipes, under CPython.

The Pico's reader (a byte per ready poll) and the unix port's (everything
that has arrived, from a non-blocking descriptor) must both hand over whole
lines and never wait; a line the port takes only in part must still go out
whole. unixboard/unix_stdin.py picks the reader under the real MicroPython.
"""

import fcntl
import os
import subprocess
import sys
import tty
from pathlib import Path

import pytest

from needs import micropython

FIRMWARE = Path(__file__).resolve().parent.parent.parent / "firmware"
UNIXBOARD = FIRMWARE.parent / "host" / "codenames_board" / "unixboard"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

import link as fw_link  # noqa: E402  (firmware/link.py, imported as the Pico does)
from tileproto import decode, message  # noqa: E402

FRAME = message("FRAME", 7, "12ab34" * 37)
F_SETPIPE_SZ = 1031  # Linux


@pytest.fixture
def pipe():
    """pipe(blocking) -> (reading file, writing fd): the reading end as the firmware's stdin."""
    opened = []

    def make(blocking=True):
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, blocking)
        rx = open(read_fd, "rb", buffering=0)
        opened.append((rx, write_fd))
        return rx, write_fd

    yield make
    for rx, write_fd in opened:
        rx.close()
        try:
            os.close(write_fd)
        except OSError:  # the test closed it
            pass


@pytest.fixture
def sink():
    read_fd, write_fd = os.pipe()
    tx = open(write_fd, "wb", buffering=0)
    yield tx
    tx.close()
    os.close(read_fd)


def counted(read, calls):
    def wrapper(view):
        count = read(view)
        calls.append(count)
        return count

    return wrapper


def test_bulk_reader_takes_all_that_arrived_in_one_read(pipe, sink):
    rx, feed = pipe(blocking=False)
    calls = []
    link = fw_link.Link(rx, sink, counted(fw_link.bulk_reader(rx), calls))
    os.write(feed, FRAME * 3)
    assert link.receive() == [decode(FRAME[:-1])] * 3
    assert calls == [3 * len(FRAME)]


def test_byte_reader_hands_over_a_line_per_call_so_the_scan_goes_on(pipe, sink):
    rx, feed = pipe()
    link = fw_link.Link(rx, sink, fw_link.byte_reader(rx))
    os.write(feed, FRAME * 2)
    assert link.receive() == [decode(FRAME[:-1])]
    assert link.receive() == [decode(FRAME[:-1])]
    assert link.receive() == ()


@pytest.mark.parametrize("reader", ["bulk", "byte"])
def test_receive_never_waits_and_keeps_a_partial_line(reader, pipe, sink):
    rx, feed = pipe(blocking=reader == "byte")  # the byte reader works on a blocking stream, as the Pico's
    read = fw_link.bulk_reader(rx) if reader == "bulk" else fw_link.byte_reader(rx)
    link = fw_link.Link(rx, sink, read)
    assert link.receive() == ()
    os.write(feed, FRAME[:100])
    assert link.receive() == []
    assert link.receive() == ()
    os.write(feed, FRAME[100:] + FRAME[:5])
    assert link.receive() == [decode(FRAME[:-1])]
    assert not link.closed


@pytest.mark.parametrize("reader", ["bulk", "byte"])
def test_link_notices_the_other_end_going_away(reader, pipe, sink):
    rx, feed = pipe(blocking=reader == "byte")
    read = fw_link.bulk_reader(rx) if reader == "bulk" else fw_link.byte_reader(rx)
    link = fw_link.Link(rx, sink, read)
    os.write(feed, FRAME)
    os.close(feed)
    messages = list(link.receive())
    while not link.closed:
        messages += link.receive()
    assert messages == [decode(FRAME[:-1])]


def test_wait_returns_at_once_when_input_is_there(pipe, sink):
    rx, feed = pipe()
    link = fw_link.Link(rx, sink)
    link.wait(0)  # nothing there, no time to wait: returns
    os.write(feed, b"x")
    link.wait(600_000)  # would hang the test if it waited for the timeout


def test_a_line_the_port_takes_in_part_goes_out_whole(pipe):
    read_fd, write_fd = os.pipe()
    fcntl.fcntl(write_fd, F_SETPIPE_SZ, 4096)  # a port with little room
    os.set_blocking(write_fd, False)
    tx = open(write_fd, "wb", buffering=0)
    rx, _ = pipe()
    link = fw_link.Link(rx, tx)
    # Longer than the pipe's atomic size (PIPE_BUF, 4096): the pipe takes them in part.
    lines = [message("BEAT", n, "f" * 6000) for n in range(fw_link.MAX_QUEUED + 6)]
    out = b""
    parts = 0
    for line in lines:
        link.send(line)
        link.flush()
        parts += link.queued and link._partial
    assert link.dropped > 0  # the host did not read: the oldest whole lines went
    os.set_blocking(read_fd, False)
    while True:  # the host reads again
        try:
            out += os.read(read_fd, 65536)
        except BlockingIOError:
            if not link.queued:
                break
        link.flush()
        parts += link.queued and link._partial
    assert parts > 0
    received = out.split(b"\n")
    assert received[-1] == b""
    # Every line arrived whole and in order; only whole lines were dropped.
    numbers = [int(decode(line)[1]) for line in received[:-1]]
    assert numbers == sorted(numbers) and len(numbers) + link.dropped == len(lines)
    tx.close()
    os.close(read_fd)


@pytest.mark.parametrize("nonblocking", [True, False])
def test_unix_board_reads_in_bulk_only_from_a_non_blocking_pty(nonblocking):
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, not nonblocking)
    script = "from unix_stdin import nonblocking; print(nonblocking(0))"
    environment = {**os.environ, "MICROPYPATH": f"{FIRMWARE}:{UNIXBOARD}"}
    try:
        result = subprocess.run(
            [micropython(), "-c", script], stdin=master, capture_output=True, text=True, env=environment, timeout=60
        )
    finally:
        os.close(master)
        os.close(slave)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(nonblocking)]
