# How the firmware reads its input on MicroPython's unix port. On a pty,
# sys.stdin.buffer.readinto(buf) keeps reading until buf is full, like the
# Pico's USB (the stream layer loops until it has every byte asked for), but
# on a descriptor opened non-blocking (O_NONBLOCK) it stops at what has
# arrived: one read per frame instead of one per byte. Who starts the board
# sets that flag on the pty (the tests and benchmarks do); on anything else
# (a terminal you type into) the firmware reads a byte per ready poll, as on
# the Pico.

import sys

from link import bulk_reader, byte_reader

_O_NONBLOCK = 0o4000  # Linux


def nonblocking(fd):
    """True if the descriptor is non-blocking (Linux: /proc/self/fdinfo); False when unknown."""
    try:
        with open("/proc/self/fdinfo/%d" % fd) as info:
            for line in info.read().split("\n"):
                if line.startswith("flags:"):
                    return bool(int(line[6:].strip(), 8) & _O_NONBLOCK)
    except (OSError, ValueError):
        pass
    return False


def stdin_reader():
    """The read function for Link on stdin: bulk if stdin is non-blocking, else a byte per poll."""
    stream = sys.stdin.buffer
    return bulk_reader(stream) if nonblocking(0) else byte_reader(stream)
