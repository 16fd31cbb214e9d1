# The LED chain: frames in logical order (25 tiles row-major, then the status
# LEDs) go out in chain order, scaled by the host's brightness and capped to
# the host's current limit. Portable: the strip is passed in: a
# neopixel.NeoPixel or a stand-in with its ``buf`` (bytearray), ``write()``
# and optionally ``ORDER`` and ``bpp`` (the byte order in buf and bytes per
# LED; RGB and 3 if absent). We write scaled bytes straight into ``buf`` through a table
# made once (logical byte -> position in buf), no tuple per LED. set_order()
# overrides the strip's ORDER: the host's [leds] order ("GRB" for WS2812B
# pixels, often "RGB" for WS2811 12 mm strands), made anew only then.

from array import array

try:
    import micropython
    from micropython import const
except ImportError:  # CPython (the host, the tests): the same functions, interpreted

    class micropython:
        @staticmethod
        def viper(function):
            return function

    ptr8 = ptr16 = None  # viper's pointer types, named in annotations

    def const(value):
        return value


DEFAULT_BRIGHTNESS = const(64)  # until the host says otherwise: a safe quarter
DEFAULT_MAX_MA = const(500)  # what a USB 2.0 port gives
_RGB = (0, 1, 2)
ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")  # the colours in the order the LED takes its bytes
_FULL = const(255 * 255)  # a channel at 255 and brightness 255: ma_per_channel


@micropython.viper
def _scatter(out: ptr8, places: ptr16, frame: ptr8, size: int, factor: int):
    # out[places[i]] = frame[i] * factor // 255 for 0 <= factor <= 255,
    # without a division (the Pico's M0+ has none): (n + 1 + (n >> 8)) >> 8
    # equals n // 255 for every n up to 255 * 255.
    for i in range(size):
        level = frame[i] * factor
        out[places[i]] = (level + 1 + (level >> 8)) >> 8


class Leds:
    def __init__(self, strip, chain, ma_per_channel, ma_idle):
        self.strip = strip
        self.chain = chain
        self.count = len(chain)
        self.ma_per_channel = ma_per_channel
        self.ma_idle = ma_idle
        self.brightness = DEFAULT_BRIGHTNESS
        self.max_ma = DEFAULT_MAX_MA
        self.frame = bytearray(3 * self.count)  # last logical frame from the host
        self._dark = bytes(3 * self.count)
        self._idle = bytearray(3 * self.count)
        self._total = 0  # sum of the shown frame's bytes; -1: not summed yet (the cap could not bind)
        self._factor = 0  # the factor the shown frame got
        self._places = None  # logical byte -> index in strip.buf
        self._bpp = 3
        if strip is not None:
            self._bpp = getattr(strip, "bpp", 3)
            self._place(getattr(strip, "ORDER", _RGB))

    def _place(self, order):
        # order[colour]: where red (0), green (1) and blue (2) go among an LED's bytes.
        bpp, chain = self._bpp, self.chain
        self._places = array("H", (chain[led] * bpp + order[colour] for led in range(self.count) for colour in range(3)))
        if max(self._places) >= len(self.strip.buf):
            raise ValueError("the strip has fewer LEDs than the chain names")

    def set_order(self, name):
        """The strip's colour order by name (one of ORDERS, str or bytes); ValueError for another.
        Takes effect with the next show()."""
        if isinstance(name, bytes):
            name = name.decode()
        if name not in ORDERS:
            raise ValueError("no colour order " + name)
        if self.strip is not None:
            self._place(tuple(name.find(colour) for colour in "RGB"))

    @property
    def estimate_ma(self):
        """Current (mA) drawn by what is shown, after the cap."""
        if self._total < 0:
            self._total = sum(self.frame)
        return self.count * self.ma_idle + self._total * self._factor * self.ma_per_channel // _FULL

    def limit(self, brightness, max_ma):
        self.brightness = brightness
        self.max_ma = max_ma

    def scale(self, frame):
        """The factor (0-255) applied to a frame: brightness, then the current cap."""
        total = sum(frame)
        base = self.count * self.ma_idle
        # mA at this brightness: total/255 full channels, each ma_per_channel.
        drawn = total * self.brightness * self.ma_per_channel // _FULL
        factor = self.brightness
        budget = self.max_ma - base
        if drawn > budget:
            factor = max(0, budget) * self.brightness // drawn if drawn else 0
        self._total = total
        self._factor = factor
        return factor

    def show(self, frame):
        """Show a logical frame (3 bytes per LED, red green blue)."""
        size = 3 * self.count
        if len(frame) != size:
            raise ValueError("a frame has 3 bytes per LED")
        if frame is not self.frame:
            self.frame[:] = frame
        brightness = self.brightness
        # Even an all-white frame stays under the cap: no need to add up this one.
        if self.count * self.ma_idle + 765 * self.count * brightness * self.ma_per_channel // _FULL <= self.max_ma:
            self._total = -1
            self._factor = factor = brightness
        else:
            factor = self.scale(frame)
        _scatter(self.strip.buf, self._places, frame, size, factor)
        self.strip.write()

    def rewrite(self):
        """The shown frame to the strip again, as it is: a LED that lost its power has forgotten it."""
        self.strip.write()

    def dark(self):
        self.show(self._dark)

    def idle(self, phase_ms, first_status):
        """A calm pattern while no host is listening: the status LEDs breathe a dim white."""
        frame = self._idle
        step = phase_ms % 4000
        level = (step if step < 2000 else 4000 - step) * 24 // 2000 + 1
        for at in range(3 * first_status, 3 * self.count):
            frame[at] = level
        brightness = self.brightness
        self.brightness = 255  # the pattern is dim by itself
        self.show(frame)
        self.brightness = brightness
