# The firmware on MicroPython's unix port: the real main loop, link, pads
# and LED code, with emulated MPR121 boards (I2C and IRQ) and a logging LED strip
# in place of the Pico's hardware. The host talks to it on stdin/stdout (a
# pseudo-terminal in the tests). A test drives the pads by appending lines
# to the file named by TILES_CONTROL:
#     touch TILE 1|0 [DROP] a finger on / off a tile's pad; DROP: the counts it
#                           takes off the pad's signal (virtual_i2c.DROP: 40)
#     unplug-pads N         controller N stops answering (replug-pads N)
#     unplug-irq N          controller N's IRQ wire comes off (its pin reads high)
#     stall                 the loop hangs, as a crashed board would
# and reads every LED write from the file named by TILES_LEDS. Whoever
# starts it should open the pty non-blocking (O_NONBLOCK): then a frame is
# read in one go, as unix_stdin.py explains.
#
# The current directory is the board's flash: new firmware over the protocol
# (MAINT, firmware/maint.py) is written there, and where a Pico would reset
# after COMMIT this process exits with status RESET_EXIT (75); whoever runs
# it starts it again in the same directory (the tests "plug it in again").

import os
import sys
import time

import board
from link import Link
from unix_parts import build
from unix_stdin import stdin_reader
from virtual_i2c import DROP
from virtual_strip import VirtualStrip

try:
    import micropython

    micropython.kbd_intr(-1)
except (ImportError, AttributeError):
    pass


class Control:
    def __init__(self, path, boards):
        self.file = open(path, "rb") if path else None
        self.boards = boards
        self.partial = b""
        self.stalled = False

    def poll(self):
        if self.file is None:
            return
        data = self.file.read()
        if not data:
            return
        data = self.partial + data
        lines = data.split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            words = line.split()
            if not words:
                continue
            if words[0] == b"touch":
                controller, electrode = board.PADS[int(words[1])]
                drop = int(words[3]) if len(words) > 3 else DROP
                self.boards.touch(controller, electrode, words[2] == b"1", drop)
            elif words[0] == b"unplug-pads":
                self.boards.unplug(int(words[1]))
            elif words[0] == b"replug-pads":
                self.boards.replug(int(words[1]))
            elif words[0] == b"unplug-irq":
                self.boards.irqs[int(words[1])].wired = False
            elif words[0] == b"stall":
                self.stalled = True


RESET_EXIT = 75


def reset():
    time.sleep_ms(50)  # let the last line leave, as firmware/main.py does before machine.reset()
    sys.exit(RESET_EXIT)


try:
    os.stat("fwcommit.txt")  # a COMMIT cut short: finish it and start afresh, as firmware/main.py does
except OSError:
    pass
else:
    import maint

    maint.finish()
    reset()

link = Link(sys.stdin, sys.stdout, stdin_reader())
boards, app = build(link, VirtualStrip(board.LEDS, os.getenv("TILES_LEDS")), reset)
control = Control(os.getenv("TILES_CONTROL"), boards)
while not (app.link.closed or app.stopped):
    control.poll()
    if control.stalled:
        time.sleep_ms(10)  # no steps: no heartbeats, no LEDs (the watchdog would reset a real board)
        continue
    app.step()
    app.link.wait(app.until_scan())  # a frame is handled as soon as it is in
