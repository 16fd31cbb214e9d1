# The LED chain: frames in logical order (25 tiles row-major, then the status
# LEDs) go out in chain order, scaled by the host's brightness and capped to
# the host's current limit. Portable: the strip (a neopixel.NeoPixel or a
# test double with __setitem__ and write) is passed in.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

DEFAULT_BRIGHTNESS = const(64)  # until the host says otherwise: a safe quarter
DEFAULT_MAX_MA = const(500)  # what a USB 2.0 port gives


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
        self.estimate_ma = 0  # current drawn by what is shown, after the cap

    def limit(self, brightness, max_ma):
        self.brightness = brightness
        self.max_ma = max_ma

    def scale(self, frame):
        """The factor (0-255) applied to a frame: brightness, then the current cap."""
        total = 0
        for value in frame:
            total += value
        base = self.count * self.ma_idle
        # mA at this brightness: total/255 full channels, each ma_per_channel.
        drawn = total * self.brightness * self.ma_per_channel // (255 * 255)
        factor = self.brightness
        budget = self.max_ma - base
        if drawn > budget:
            factor = max(0, budget) * self.brightness // drawn if drawn else 0
        self.estimate_ma = base + total * factor * self.ma_per_channel // (255 * 255)
        return factor

    def show(self, frame):
        """Show a logical frame (3 bytes per LED, red green blue)."""
        self.frame[:] = frame
        factor = self.scale(frame)
        strip, chain = self.strip, self.chain
        for index in range(self.count):
            at = 3 * index
            strip[chain[index]] = (
                frame[at] * factor // 255,
                frame[at + 1] * factor // 255,
                frame[at + 2] * factor // 255,
            )
        strip.write()

    def dark(self):
        self.show(bytes(3 * self.count))

    def idle(self, phase_ms, first_status):
        """A calm pattern while no host is listening: the status LEDs breathe a dim white."""
        frame = bytearray(3 * self.count)
        step = phase_ms % 4000
        level = (step if step < 2000 else 4000 - step) * 24 // 2000 + 1
        for index in range(first_status, self.count):
            frame[3 * index] = frame[3 * index + 1] = frame[3 * index + 2] = level
        brightness = self.brightness
        self.brightness = 255  # the pattern is dim by itself
        self.show(frame)
        self.brightness = brightness
