# The firmware on MicroPython's unix port, timed for `codenames-board bench
# touch`: the real main loop, link, pads and LED code with the emulated
# MPR121 boards and a strip that logs nothing. The host talks to it on
# stdin/stdout (a pseudo-terminal). The benchmark appends commands to the
# file named by TILES_CONTROL:
#     touch TILE 1|0     a finger on / off a tile's pad
# and reads one line per finished touch from the file named by TILES_RESULTS:
#     touch TILE PAD SENT FRAME SHOWN
# with the times (time.ticks_us(): CLOCK_MONOTONIC in µs on Linux, the same
# clock as the host's time.monotonic()) when the pad changed, the TOUCH line
# was queued, the read that brought in the first FRAME changing the tile's
# LED began, and the strip was written with it. Besides:
#     first SHOWN        the first frame the host sent, shown
#     frames N P50 P99 MAX   per frame: read, parse, scale, write (µs), on "report"

import os
import sys
import time

import board
from link import Link
from unix_parts import build
from unix_stdin import stdin_reader
from virtual_strip import VirtualStrip

try:
    import micropython

    micropython.kbd_intr(-1)
except (ImportError, AttributeError):
    pass


ticks = time.ticks_us
strip = VirtualStrip(board.LEDS)  # no log file: writes are only counted
boards, app = build(Link(sys.stdin, sys.stdout, stdin_reader()), strip)
control = open(os.getenv("TILES_CONTROL"), "rb")
results = open(os.getenv("TILES_RESULTS"), "ab")

pending = None  # [tile, pad time, sent time, the tile's bytes before]
frame_costs = []
first_shown = [0]


def write_result(line):
    results.write(line)
    results.flush()


send = app.link.send


def timed_send(line):
    if pending is not None and pending[2] == 0 and line.startswith(b"TOUCH "):
        pending[2] = ticks()
    send(line)


app.link.send = timed_send
receive = app.link.receive
read_started = [0]


def timed_receive():
    # A frame's cost counts from the read that brings it in: reading, parsing, scaling, writing.
    started = ticks()
    messages = receive()
    if messages:
        read_started[0] = started
    return messages


app.link.receive = timed_receive
frame = app.frame


def timed_frame(seq, colours):
    global pending
    arrived = read_started[0]
    frame(seq, colours)
    shown = ticks()
    frame_costs.append(shown - arrived)
    if not first_shown[0]:
        first_shown[0] = shown
        write_result(b"first %d\n" % shown)
    if pending is not None and pending[2]:
        at = 3 * board.CHAIN[pending[0]]
        if strip.buf[at : at + 3] != pending[3]:
            write_result(b"touch %d %d %d %d %d\n" % (pending[0], pending[1], pending[2], arrived, shown))
            pending = None


app.frame = timed_frame


def report():
    costs = sorted(frame_costs)
    count = len(costs)
    if count:
        write_result(b"frames %d %d %d %d\n" % (count, costs[count // 2], costs[min(count - 1, count * 99 // 100)], costs[-1]))
    else:
        write_result(b"frames 0 0 0 0\n")


partial = b""


def poll_control():
    global partial, pending
    data = control.read()
    if not data:
        return
    lines = (partial + data).split(b"\n")
    partial = lines.pop()
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == b"touch":
            tile, down = int(words[1]), words[2] == b"1"
            controller, electrode = board.PADS[tile]
            if down:
                at = 3 * board.CHAIN[tile]
                pending = [tile, ticks(), 0, bytes(strip.buf[at : at + 3])]
            boards.touch(controller, electrode, down)
        elif words[0] == b"report":
            report()


while not (app.link.closed or app.stopped):
    poll_control()
    app.step()
    app.link.wait(app.until_scan())  # as TileApp.run; the control file is read once a step
