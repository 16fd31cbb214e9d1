# Scenarios for the firmware's portable core, run under MicroPython's unix
# port and under CPython by tests/firmware/test_core.py; each prints what
# the code did, one line per thing, so both interpreters can be compared.
# Usage: micropython mp_core_scenarios.py SCENARIO  (MICROPYPATH=firmware)

import sys
from binascii import hexlify

from app import TileApp
from leds import Leds
from pads import PadWatch
from tileproto import PROTOCOL, decode, message

SCAN = 2  # ms between scans, as on the board (app.SCAN_MS)


def diff(a, b):
    return a - b


def run_pads(script):
    """script: list of (scans, raw bitmap); prints edges and problems with their time."""
    watch = PadWatch(25, diff)
    now = 0
    edges, problems = [], []
    for scans, raw in script:
        for _ in range(scans):
            now += SCAN
            watch.update(raw, now, edges, problems)
            for tile, down in edges:
                print("edge", now, tile, down)
            for kind, tile in problems:
                print("problem", now, kind, tile)
            del edges[:]
            del problems[:]


def clean_press():
    run_pads([(1, 0), (5, 1 << 12), (5, 0)])


def bounce():
    # a status that flips at every scan (faster than an MPR121 reports), then settles pressed
    run_pads([(1, 1 << 3), (1, 0), (1, 1 << 3), (1, 0), (1, 1 << 3), (1, 0), (6, 1 << 3)])


def noisy():
    # a pad that keeps flipping, every 8 ms
    script = []
    for _ in range(8):
        script += [(4, 1 << 7), (4, 0)]
    script += [(3000, 1 << 7)]  # then still (held) for 6 s
    run_pads(script)


def chip_status(detections, debounce):
    """An MPR121's touch status per 4 ms detection period (datasheet 5.7): it changes once
    debounce + 1 detections in a row disagree with it (DT = 0: the first one)."""
    status, against, statuses = 0, 0, []
    for over in detections:
        against = against + 1 if over != status else 0
        if against > debounce:
            status, against = over, 0
        statuses.append(status)
    return statuses


def blip():
    # One 4 ms detection over the threshold (a disturbance no longer than the chip's own
    # averaging of 4 x 6 samples), then a real touch of 40 ms, read by the 2 ms scans.
    detections = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0] + [1] * 10 + [0] * 5
    for debounce in (0, 1):
        print("debounce", debounce)
        run_pads([(2, status << 9) for status in chip_status(detections, debounce)])


def stuck():
    run_pads([(30010, 1 << 20), (4, 0)])


def chord():
    run_pads([(4, (1 << 0) | (1 << 24)), (4, 1 << 24), (4, 0)])


class Strip:
    # neopixel.NeoPixel as Leds uses it: buf, ORDER (green first, as the WS2812), bpp, write().
    ORDER = (1, 0, 2, 3)
    bpp = 3

    def __init__(self, count):
        self.buf = bytearray(3 * count)
        self.writes = 0

    def __getitem__(self, index):
        at = 3 * index
        return tuple(self.buf[at + self.ORDER[colour]] for colour in range(3))

    def write(self):
        self.writes += 1


def show(leds, frame):
    leds.show(frame)
    print("show", leds.estimate_ma, leds.strip[0], leds.strip[1], leds.strip[2])


def led_scaling():
    leds = Leds(Strip(3), (2, 0, 1), 20, 1)  # logical 0 -> chain 2, 1 -> 0, 2 -> 1
    frame = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255])
    show(leds, frame)  # default brightness 64
    leds.limit(255, 10000)
    show(leds, frame)
    leds.limit(255, 33)  # 3 mA idle + 60 mA wanted: capped to 30 mA for colour
    show(leds, frame)
    leds.limit(255, 2)  # less than the idle draw: all dark
    show(leds, frame)
    leds.limit(255, 10000)
    leds.idle(1000, 1)
    print("idle", [leds.strip[led] for led in range(3)], leds.brightness)


class RgbStrip(Strip):
    ORDER = (0, 1, 2)


LEVELS = (1, 2, 64, 127, 128, 200, 254, 255)


def led_levels():
    # every byte value at several brightnesses: the strip gets value * brightness // 255
    leds = Leds(RgbStrip(86), tuple(range(86)), 20, 1)
    frame = bytes(range(256)) + bytes(2)
    for brightness in LEVELS:
        leds.limit(brightness, 1000000)
        leds.show(frame)
        print("levels", brightness, hexlify(leds.strip.buf).decode())


class Link:
    # link.Link as TileApp uses it: the lines it sends are printed.
    reader = None
    dropped = 0
    closed = False

    def send(self, line):
        print("sent", line[: line.index(b"*")].decode())

    def flush(self):
        pass

    def clear(self):
        pass


class NoPads:
    missing = ()

    def read(self):
        return 0


def partial_frames():
    # 3 tiles and 2 status LEDs, chained in reverse; full brightness, no cap:
    # the strip shows the logical frame as it is.
    strip = RgbStrip(5)
    leds = Leds(strip, (4, 3, 2, 1, 0), 20, 1)
    app = TileApp(Link(), NoPads(), leds, 3, 2, "test", lambda: 0, diff)

    def host(*fields):
        words = decode(message(*fields)[:-1])
        app.handle(words)
        shown = "".join("%02x%02x%02x" % strip[4 - led] for led in range(5))
        print(" ".join(str(field) for field in fields)[:40], "->", strip.writes, shown)

    host("SET", 1, 0, "ffffff")  # before HELLO: nothing
    host("HELLO", PROTOCOL)
    host("LIMIT", 255, 10000)
    host("FRAME", 1, "010101020202030303040404050505")
    host("SET", 2, 0, "ff0000")
    host("SET", 3, 4, "00ff00", 1, "0000ff")
    host("SET", 4, 2, "ABCDEF")  # either case, as in FRAME
    host("SET", 5, 3, "111111", 3, "222222")  # named twice: the last colour
    for bad in (
        (6, 5, "ffffff"),  # no LED 5
        (7, -1, "ffffff"),
        (8, 0, "fffff"),  # 5 digits
        (9, 0, "fffffff"),  # 7 digits
        (10, 0, "gggggg"),
        (11, 0, "ffffff", 1),  # a pair cut short
        (12,),  # no pair
        (65536, 0, "ffffff"),
        (13, 0, "ffffff", 9, "000000"),  # one bad pair: nothing changes
        (14,) + (0, "ffffff") * 17,  # 17 pairs
        ("x", 0, "ffffff"),
        (15, "one", "ffffff"),
    ):
        host("SET", *bad)
    host("SET", 16, *((0, "ffffff") * 15 + (4, "123456")))  # 16 pairs: the most
    host("FRAME", 17, "00" * 15)
    host("FRAME", 18, "zz" * 15)  # not hex: nothing changes
    host("FRAME", 19, "ff" * 14)


def led_order():
    # One red, one green, one blue LED; the bytes each LED takes, in the order named.
    strip = Strip(3)
    leds = Leds(strip, (0, 1, 2), 20, 1)
    leds.limit(255, 10000)
    frame = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255])
    for order in ("GRB", "RGB", b"BRG"):
        leds.set_order(order)
        leds.show(frame)
        print("order", order if isinstance(order, str) else order.decode(), hexlify(strip.buf).decode())
    try:
        leds.set_order("RGBW")
        print("refused no")
    except ValueError:
        leds.show(frame)
        print("refused", hexlify(strip.buf).decode())


class Reader:
    damaged = 0
    overflows = 0


class BeatingLink(Link):
    # The host's lines arrive through receive(): queued by the scenario, taken at the next step.
    reader = Reader()

    def __init__(self):
        self.queued = []

    def send(self, line):
        pass

    def receive(self):
        lines, self.queued = self.queued, []
        return lines


def refresh():
    # While a host listens, the shown frame goes to the strip again every second (LEDs powered
    # after the Pico catch up); with the host gone, no more rewrites of its frame.
    strip = RgbStrip(5)
    leds = Leds(strip, (0, 1, 2, 3, 4), 20, 1)
    clock = [0]
    link = BeatingLink()
    app = TileApp(link, NoPads(), leds, 3, 2, "test", lambda: clock[0], diff)

    def host(*fields):
        link.queued.append(decode(message(*fields)[:-1]))

    host("HELLO", PROTOCOL)
    app.step()
    host("LIMIT", 255, 10000)
    host("FRAME", 1, "ff0000" * 5)
    app.step()
    print("shown", strip.writes, hexlify(strip.buf).decode())
    for ms in range(1, 3501):
        clock[0] = ms
        if ms % 200 == 0 and ms < 2500:
            host("BEAT", ms // 200)  # the host listens until 2.4 s, then falls silent
        before = strip.writes
        app.step()
        if strip.writes != before:
            print("write", ms, app.connected, hexlify(strip.buf).decode()[:12])


SCENARIOS = {
    "refresh": refresh,
    "led_order": led_order,
    "clean_press": clean_press,
    "bounce": bounce,
    "noisy": noisy,
    "blip": blip,
    "stuck": stuck,
    "chord": chord,
    "led_scaling": led_scaling,
    "led_levels": led_levels,
    "partial_frames": partial_frames,
}

if __name__ == "__main__":
    SCENARIOS[sys.argv[1]]()
