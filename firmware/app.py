# The tile board's main loop: scan the pads, speak the tile protocol, drive
# the LEDs. A dumb I/O device: the host owns the game and re-sends the whole
# LED frame after every handshake. Portable: hardware and clock passed in.
# FRAME and SET both end in frame(seq, colours): the one place a frame from
# the host is shown and acknowledged. MAINT hands the link to maint.py,
# imported only then (new firmware files: PROTOCOL.md, "Maintenance").
# TUNE, TUNEPAD and PADS (the touch thresholds, the pads' signals) are
# tuning.py's. ORDER says the LED strip's colour order.
# While a host listens the shown frame goes to the LEDs again every
# REFRESH_MS: LEDs whose supply came on after the Pico's (or dipped) catch up.

from pads import PadWatch
from tileproto import MAX_SET, PROTOCOL, message, number, unhex_into
from tuning import PadTuning

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

SCAN_MS = const(2)
BEAT_MS = const(250)  # heartbeat to the host while it listens
SILENT_MS = const(1000)  # host silent this long: the link is dead
IDLE_STEP_MS = const(50)
MAX_BRIGHTNESS = const(255)
MAX_CURRENT_MA = const(10000)
REFRESH_MS = const(1000)  # the shown frame written to the LEDs again: a LED powered late has forgotten it


class TileApp:
    def __init__(self, link, pads, leds, tiles, status_leds, version, ticks_ms, ticks_diff, feed=None, reset=None):
        self.link = link
        self.pads = pads
        self.leds = leds
        self.tiles = tiles
        self.status_leds = status_leds
        self.version = version
        self.ticks_ms = ticks_ms
        self.diff = ticks_diff
        self.feed = feed  # the watchdog's feed, if any
        self.reset = reset  # restarts the board after new firmware (None: run() ends instead)
        self.pad_watch = PadWatch(tiles, ticks_diff)
        self.connected = False  # a host said HELLO and has not gone silent
        self.stopped = False  # the host sent STOP: run() returns, the REPL gets the port back
        now = ticks_ms()
        self.last_heard = now
        self.last_beat = now
        self.last_scan = now
        self.last_idle = now
        self.last_refresh = now
        self.touch_seq = 0
        self.tuning = PadTuning(pads, tiles, self.send, now)
        self.beats = 0
        self.errors_received = 0
        self.unknown = 0
        self._missing = ()
        self._edges = []
        self._problems = []
        self._colours = bytearray(3 * leds.count)  # a FRAME decoded here: shown whole or not at all
        self._check = bytearray(3)  # a SET's colours decoded here first: all of them good, or no LED changes
        leds.dark()

    def step(self):
        """One pass of the loop; returns quickly whatever the host does."""
        now = self.ticks_ms()
        for words in self.link.receive():
            self.last_heard = now
            self.handle(words)
        if self.tuning.wanted and self.tuning.due(now, self.diff):  # an attribute first: the loop's usual pass
            self.tuning.report(now)
        if self.diff(now, self.last_scan) >= SCAN_MS:
            self.last_scan = now
            self.scan(now)
        if self.connected:
            if self.diff(now, self.last_heard) >= SILENT_MS:
                self.disconnect(now)
            elif self.diff(now, self.last_beat) >= BEAT_MS:
                self.beat(now)
            elif self.diff(now, self.last_refresh) >= REFRESH_MS:
                self.last_refresh = now
                self.leds.rewrite()
        elif self.diff(now, self.last_idle) >= IDLE_STEP_MS:
            self.last_idle = now
            self.leds.idle(now, self.tiles)
        self.link.flush()
        if self.feed is not None:
            self.feed()

    def scan(self, now):
        edges, problems = self._edges, self._problems
        self.pad_watch.update(self.pads.read(), now, edges, problems)
        missing = self.pads.missing
        if missing != self._missing:
            self._missing = missing
            self.send("ERROR", "pads", ",".join(str(index) for index in missing) or "-")
        for tile, down in edges:
            self.touch_seq = (self.touch_seq + 1) & 0xFFFF
            self.send("TOUCH", self.touch_seq, tile, down)
        for kind, tile in problems:
            self.send("ERROR", kind, tile)
        if edges:
            del edges[:]
        if problems:
            del problems[:]

    def send(self, *fields):
        # Nothing is queued for a host that is not there: a closed or silent
        # port must not fill the queue (the state goes out with the next BOARD).
        if self.connected:
            self.link.send(message(*fields))

    def beat(self, now):
        self.last_beat = now
        self.beats = (self.beats + 1) & 0xFFFF
        reader = self.link.reader
        self.send("BEAT", self.beats, "%07x" % self.pad_watch.reported, reader.damaged, reader.overflows, self.link.dropped)

    def disconnect(self, now):
        self.connected = False
        self.link.clear()
        self.last_idle = now - IDLE_STEP_MS
        self.leds.dark()

    def handle(self, words):
        kind = words[0]
        try:
            if kind == b"HELLO":
                self.hello(number(words[1]))
            elif kind == b"FRAME":
                self.frame(number(words[1]), words[2])
            elif kind == b"SET":
                self.set_leds(number(words[1]), words)
            elif kind == b"LIMIT":
                self.limit(number(words[1]), number(words[2]))
            elif kind == b"BEAT":
                pass  # hearing it is the point
            elif kind == b"STOP":
                self.stop()
            elif kind == b"MAINT":
                self.maintain(number(words[1]))
            elif kind == b"TUNE":
                if self.connected:
                    self.tuning.tune(words)
            elif kind == b"TUNEPAD":
                if self.connected:
                    self.tuning.tune_pads(words)
            elif kind == b"ORDER":
                self.order(words[1])
            elif kind == b"PADS":
                self.tuning.wanted = self.connected
            elif kind == b"ERROR":
                self.errors_received += 1
            else:
                self.unknown += 1
                self.send("ERROR", "unknown", kind)
        except (IndexError, ValueError):
            self.send("ERROR", "syntax", kind)

    def hello(self, protocol):
        if protocol != PROTOCOL:
            self.connected = True  # long enough to say why not
            self.send("ERROR", "protocol", PROTOCOL)
            self.link.flush()
            self.connected = False
            return
        self.connected = True
        self.pad_watch.reported = self.pad_watch.stable
        self.send("BOARD", PROTOCOL, self.version, self.tiles, self.status_leds, "%07x" % self.pad_watch.reported)

    def stop(self):
        self.connected = True  # long enough to say goodbye
        self.send("BYE")
        self.link.flush()
        self.connected = False
        self.leds.dark()
        self.stopped = True

    def maintain(self, total):
        """MAINT total: take new firmware files until COMMIT (which resets), HELLO or silence."""
        if not self.connected:
            return
        if total <= 0:
            raise ValueError  # ERROR syntax
        from maint import Maintenance  # only now: start-up and the loop's memory stay as they were

        hello = Maintenance(self, total).run()
        self.disconnect(self.ticks_ms())
        if hello is not None:
            self.handle(hello)

    def frame(self, seq, colours):
        """Show a frame and acknowledge it. colours: a FRAME's hex digits, the
        whole logical frame; None: the logical frame as set_leds() left it."""
        if not self.connected:
            return
        if not 0 <= seq <= 0xFFFF:
            raise ValueError  # ERROR syntax
        leds = self.leds
        if colours is not None:
            size = len(colours)
            if size != 6 * leds.count:
                self.send("ERROR", "length", size // 2, leds.count * 3)
                return
            if not unhex_into(self._colours, 0, colours, size):
                raise ValueError
            leds.frame[:] = self._colours
        leds.show(leds.frame)
        self.send("ACK", seq)

    def set_leds(self, seq, words):
        """SET seq led colour [led colour ...]: those LEDs of the logical frame
        change, then it is shown; one bad pair and nothing changes."""
        if not self.connected:
            return
        size, count, check = len(words), self.leds.count, self._check
        if size & 1 or not 4 <= size <= 2 + 2 * MAX_SET or not 0 <= seq <= 0xFFFF:
            raise ValueError  # ERROR syntax
        for at in range(2, size, 2):
            colour = words[at + 1]
            if not 0 <= number(words[at]) < count or len(colour) != 6 or not unhex_into(check, 0, colour, 6):
                raise ValueError
        frame = self.leds.frame
        for at in range(2, size, 2):
            unhex_into(frame, 3 * number(words[at]), words[at + 1], 6)
        self.frame(seq, None)  # positional: a benchmark may wrap frame(seq, colours)

    def limit(self, brightness, max_ma):
        if not (0 <= brightness <= MAX_BRIGHTNESS and 0 <= max_ma <= MAX_CURRENT_MA):
            self.send("ERROR", "limit", brightness, max_ma)
            return
        self.leds.limit(brightness, max_ma)
        if self.connected:
            self.leds.show(self.leds.frame)

    def order(self, name):
        """ORDER RGB|GRB|...: the strip's colour order; the frame shown again in it."""
        try:
            self.leds.set_order(name)
        except ValueError:
            self.send("ERROR", "order", name)
            return
        if self.connected:
            self.leds.show(self.leds.frame)

    def until_scan(self):
        """Milliseconds until the next scan is due (0: now)."""
        return max(0, SCAN_MS - self.diff(self.ticks_ms(), self.last_scan))

    def run(self):
        """Step until STOP (or the port closes, off the Pico); between steps,
        sleep until input arrives or the next scan is due: a frame is shown as
        soon as it is in, and the scans stay periodic."""
        while not (self.link.closed or self.stopped):
            self.step()
            self.link.wait(self.until_scan())
