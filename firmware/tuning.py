# The touch thresholds over the link, for app.py: TUNE sets the global
# ones, TUNEPAD some tiles' own, both answered TUNED; PADS asks for every
# pad's signal, answered at most every PADS_MS (reading them costs I2C time
# the scan never spends). Portable: the pads and the app's send passed in.

from tileproto import number

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

PADS_MS = const(50)  # at most 20 PADS answers a second


class PadTuning:
    def __init__(self, pads, tiles, send, now):
        self.pads = pads
        self.tiles = tiles
        self.send = send  # the app's: nothing goes out while no host listens
        self.wanted = False  # a PADS came and is not answered yet
        self.last = now - PADS_MS

    def due(self, now, diff):
        """Whether a wanted PADS answer may go out now (PADS_MS since the last)."""
        return diff(now, self.last) >= PADS_MS

    def tune(self, words):
        """TUNE touch release [debounce]: new global thresholds, answered TUNED."""
        touch, release = number(words[1]), number(words[2])
        debounce = number(words[3]) if len(words) > 3 else self.pads.tuning[2]
        try:
            self.pads.tune(touch, release, debounce)
        except ValueError:
            self.send("ERROR", "tune", touch, release, debounce)
            return
        self.tuned()

    def tune_pads(self, words):
        """TUNEPAD tile touch release [...]: some tiles' own thresholds (0 0: the global ones
        again), all or none, answered TUNED."""
        size = len(words) - 1
        if size < 3 or size % 3 or size > 3 * self.tiles:
            raise ValueError  # ERROR syntax
        triples = [
            (number(words[at]), number(words[at + 1]), number(words[at + 2])) for at in range(1, len(words), 3)
        ]
        bad = self.pads.bad_pad(triples)
        if bad is not None:
            self.send("ERROR", "tunepad", *bad)
            return
        self.pads.tune_pads(triples)
        self.tuned()

    def tuned(self):
        """TUNED touch release debounce [tile,touch,release ...]: the global thresholds, then the
        tiles whose own differ from them."""
        words = ["TUNED"]
        words.extend(self.pads.tuning)
        for triple in self.pads.pad_tuning():
            words.append("%d,%d,%d" % triple)
        self.send(*words)

    def report(self, now):
        """PADS touch release debounce, then per tile "filtered,baseline" (or "-": no controller)."""
        self.wanted = False
        self.last = now
        words = ["PADS"]
        words.extend(self.pads.tuning)
        for reading in self.pads.signals():
            words.append("-" if reading is None else "%d,%d" % reading)
        self.send(*words)
