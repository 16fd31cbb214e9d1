# A stand-in for neopixel.NeoPixel that appends every write() to a log file:
# one line per write, the chain's colours as hex (red, green, blue per LED)
# as the LEDs show them. Like NeoPixel it has buf, ORDER and bpp, which
# firmware/leds.py writes through, and ORDER is NeoPixel's (green first).
# The LEDs themselves take their bytes in the strip's own colour order,
# "GRB" (a WS2812B) unless TILES_STRIP_ORDER names another ("RGB": a WS2811
# 12 mm strand): the log shows what such a strip would light, so firmware
# told the wrong order (ORDER, PROTOCOL.md) logs the wrong colours, as the
# real strip would show them. Runs under MicroPython's unix port and CPython.

import os
import time
from binascii import hexlify


class VirtualStrip:
    ORDER = (1, 0, 2, 3)  # neopixel.NeoPixel's: where red, green and blue go in an LED's bytes
    bpp = 3

    def __init__(self, count, path=None, order=None):
        self.n = count
        self.buf = bytearray(3 * count)
        self.writes = 0
        self._log = open(path, "ab") if path else None
        times = os.getenv("TILES_LED_TIMES")  # debugging: the time of every write beside it
        self._times = open(times, "ab") if times else None
        order = order or os.getenv("TILES_STRIP_ORDER") or "GRB"
        self.physical = tuple(order.find(colour) for colour in "RGB")  # where each colour's byte lands
        self._shown = bytearray(3 * count)  # what the LEDs light, red green blue

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        at = 3 * index
        for channel in range(3):
            self.buf[at + self.ORDER[channel]] = colour[channel]

    def __getitem__(self, index):
        at = 3 * index
        return tuple(self.buf[at + self.ORDER[channel]] for channel in range(3))

    def fill(self, colour):
        for index in range(self.n):
            self[index] = colour

    def shown(self):
        """The colours the LEDs light (red, green, blue each), from the bytes sent in their own order."""
        buf, shown, physical = self.buf, self._shown, self.physical
        for at in range(0, 3 * self.n, 3):
            shown[at] = buf[at + physical[0]]
            shown[at + 1] = buf[at + physical[1]]
            shown[at + 2] = buf[at + physical[2]]
        return shown

    def write(self):
        self.writes += 1
        if self._log is not None:
            self._log.write(hexlify(self.shown()) + b"\n")
            self._log.flush()
        if self._times is not None:
            self._times.write(b"%d %s\n" % (time.ticks_ms(), hexlify(self.shown()[:6])))
            self._times.flush()
