# A stand-in for neopixel.NeoPixel that appends every write() to a log file:
# one line per write, the chain's colours as hex (red, green, blue per LED).
# Like NeoPixel it has buf, ORDER and bpp, which firmware/leds.py writes
# through; unlike the WS2812's green-first ORDER, ours keeps buf in RGB.
# Runs under MicroPython's unix port and CPython.

import os
import time
from binascii import hexlify


class VirtualStrip:
    ORDER = (0, 1, 2)  # where red, green and blue go in an LED's bytes
    bpp = 3

    def __init__(self, count, path=None):
        self.n = count
        self.buf = bytearray(3 * count)
        self.writes = 0
        self._log = open(path, "ab") if path else None
        times = os.getenv("TILES_LED_TIMES")  # debugging: the time of every write beside it
        self._times = open(times, "ab") if times else None

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        at = 3 * index
        self.buf[at] = colour[0]
        self.buf[at + 1] = colour[1]
        self.buf[at + 2] = colour[2]

    def __getitem__(self, index):
        at = 3 * index
        return (self.buf[at], self.buf[at + 1], self.buf[at + 2])

    def fill(self, colour):
        for index in range(self.n):
            self[index] = colour

    def write(self):
        self.writes += 1
        if self._log is not None:
            self._log.write(hexlify(self.buf) + b"\n")
            self._log.flush()
        if self._times is not None:
            self._times.write(b"%d %s\n" % (time.ticks_ms(), hexlify(self.buf[:6])))
            self._times.flush()
