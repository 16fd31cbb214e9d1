# MPR121 capacitive touch controllers (NXP/Freescale) on I2C, written from
# the datasheet's register map. The chip does the hard part itself: it
# filters each electrode, tracks a per-electrode baseline (so slow drift,
# a warm hand or a new tablecloth is not a touch) and compares it with
# touch/release thresholds plus a debounce count. We configure it once and
# then read two status bytes when its IRQ line says the status changed
# (PadArray.read()). Portable: the I2C buses and IRQ pins are passed in.
# The thresholds and debounce can change at run time (tune() and
# tune_pads(), the host's TUNE and TUNEPAD) without the chip learning its
# pads again (Mpr121.retune() says how, from the datasheet); the filtered
# data and baselines are read only when the host asks (signals(), PADS),
# never in the scan.

import time

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731 (CPython, for tests)

try:
    _ticks_ms = time.ticks_ms
    _ticks_diff = time.ticks_diff
except AttributeError:  # CPython, for tests: the Pico's 2**30 ms tick period
    def _ticks_ms():
        return int(time.monotonic() * 1000) & 0x3FFFFFFF

    def _ticks_diff(end, start):
        return ((end - start + 0x20000000) & 0x3FFFFFFF) - 0x20000000

_sleep_ms = getattr(time, "sleep_ms", lambda ms: None)

ELECTRODES = const(12)
RETRY_MS = const(1000)
# With an IRQ line, a controller is read only while its IRQ is low, and at least this often: the safety
# net for a line that came loose (the Pico's pull-up then reads "nothing new" for ever). A poll that
# finds a change the line did not signal marks the line broken, and that controller is read on every
# scan from then on, as it would be without one: the first touch after the wire came off is up to
# POLL_MS late, none after it.
POLL_MS = const(100)
SETTLE_MS = const(40)  # after a retune: 10 of the chip's 4 ms detection periods, enough for any debounce (7)

_TOUCH_STATUS = const(0x00)  # 2 bytes, bit n = electrode n (bit 15: over-current)
_FILTERED = const(0x04)  # 0x04-0x1D: 2 bytes per electrode, little-endian, 10 bits
_BASELINE = const(0x1E)  # 0x1E-0x2A: 1 byte per electrode, the baseline's top 8 of 10 bits (<< 2)
_TOUCH_TH = const(0x41)  # electrode n: touch 0x41 + 2n, release 0x42 + 2n
_DEBOUNCE = const(0x5B)
_AFE1 = const(0x5C)
_AFE2 = const(0x5D)
_ECR = const(0x5E)
_AUTO0 = const(0x7B)
_AUTO1 = const(0x7C)
_AUTO_USL = const(0x7D)
_AUTO_LSL = const(0x7E)
_AUTO_TL = const(0x7F)
_SOFT_RESET = const(0x80)
_RESET_KEY = const(0x63)
_AFE2_POWER_ON = const(0x24)  # what 0x5D reads after a reset: proves an MPR121 answered

MAX_DEBOUNCE = const(7)  # DT and DR are 3 bits each (0x5B: DR << 4 | DT); ESI x SFI = 4 ms per count (datasheet 5.7)
_AFE1_VALUE = const(0x10)  # first filter 6 samples, 16 uA (auto-config refines the current)
_AFE2_VALUE = const(0x20)  # 0.5 us charge, second filter (SFI) 4 samples, 1 ms sample interval (ESI)
# Auto-config: the chip searches each electrode's charge current and time so
# the pad charges to TL (USL/LSL bound the search); values for VDD = 3.3 V
# from the datasheet's formulas: USL = (VDD - 0.7) / VDD * 256, TL = 0.9 USL,
# LSL = 0.65 USL. Tile pads differ in size and wiring; a fixed charge fits none.
# Auto-reconfig stays off: charge settings change only in setup(), never mid-game.
_AUTO0_VALUE = const(0x09)  # FFI 6 (as 0x5C), no retries, BVA = CL below, auto-config on
_AUTO0_KEEP = const(0x08)  # the same, auto-config off: what retune() leaves (see there)
_USL = const(201)
_LSL = const(130)
_TL = const(181)
# ECR (datasheet 5.11): CL in bits 7-6, the proximity electrode in 5-4, the
# electrodes scanned in 3-0 (ELE_EN: n scans ELE0 to ELE(n-1), 12-15 all 12).
# Any non-zero ELEPROX_EN or ELE_EN is Run mode. Only the electrodes in use are
# scanned (a controller with one pad scans ELE0 alone): fewer to charge per
# cycle, and a free electrode's wire or solder blob can never raise a status.
# setup(): CL = 10, baseline tracking on, seeded from the first reading's top
# 5 bits, which sits at or below the signal: no pad starts touched. retune():
# CL = 00, tracking on from the value the baseline register holds: the
# baseline learnt so far, not a new one (see retune()).
_ECR_RUN = const(0x80)  # | ELE_EN
_ECR_RESUME = const(0x00)  # | ELE_EN

# Baseline filter (registers 0x2B-0x35), as (register, value).
_FILTERS = (
    # Rising (data above baseline: a finger lifted, or drift up): follow at once.
    (0x2B, 1), (0x2C, 1), (0x2D, 0), (0x2E, 0),
    # Falling (data below baseline: a finger coming, or drift down): follow only
    # after 255 samples in a row and slowly, so a touch is not learnt away.
    (0x2F, 1), (0x30, 1), (0x31, 0xFF), (0x32, 0x10),
    # Touched: hold the baseline while a finger rests on a tile.
    (0x33, 0), (0x34, 0), (0x35, 0),
)


def check_tuning(touch, release, debounce):
    """ValueError unless 0 < release < touch <= 255 and 0 <= debounce <= MAX_DEBOUNCE."""
    if not (0 < release < touch <= 255 and 0 <= debounce <= MAX_DEBOUNCE):
        raise ValueError("tuning needs 0 < release < touch <= 255 and debounce 0-7")


class Mpr121:
    """One chip: 12 electrodes, each with its own touch and release threshold
    (``touch[e]``, ``release[e]``, registers 0x41 + 2e and 0x42 + 2e) and one debounce.
    ``electrodes``: how many it scans, ELE0 up (1-12; ECR's ELE_EN)."""

    def __init__(self, i2c, address, touch=10, release=5, debounce=1, electrodes=ELECTRODES):
        check_tuning(touch, release, debounce)
        if not 1 <= electrodes <= ELECTRODES:
            raise ValueError("an MPR121 scans 1-12 electrodes")
        self.i2c = i2c
        self.address = address
        self.electrodes = electrodes
        self.touch = bytearray([touch] * ELECTRODES)
        self.release = bytearray([release] * ELECTRODES)
        self.debounce = debounce  # DT = DR: a status change waits 4 ms per count
        self._status = bytearray(2)  # touched() reads into this: no allocation per scan
        self._one = bytearray(1)
        self._thresholds = bytearray(2 * ELECTRODES)  # 0x41-0x58 as written, in one transfer
        self._baselines = bytearray(ELECTRODES)  # retune() keeps them here while the chip stops

    def _write(self, register, value):
        self._one[0] = value
        self.i2c.writeto_mem(self.address, register, self._one)

    def _read(self, register):
        self.i2c.readfrom_mem_into(self.address, register, self._one)
        return self._one[0]

    def _expect(self, register, value):
        got = self._read(register)
        if got != value:
            raise OSError("MPR121 0x%02x: register 0x%02x reads 0x%02x, not 0x%02x" % (self.address, register, got, value))

    def setup(self):
        """Reset and configure the chip, then start it scanning. OSError if it does not answer as an MPR121."""
        self._write(_SOFT_RESET, _RESET_KEY)  # every register to its power-on value, stop mode
        _sleep_ms(1)
        self._expect(_AFE2, _AFE2_POWER_ON)
        self._write(_ECR, 0)  # stop mode: the chip ignores configuration writes while running
        for register, value in _FILTERS:
            self._write(register, value)
        self._write_tuning()
        self._write(_AFE1, _AFE1_VALUE)
        self._write(_AFE2, _AFE2_VALUE)
        self._write(_AUTO_USL, _USL)
        self._write(_AUTO_LSL, _LSL)
        self._write(_AUTO_TL, _TL)
        self._write(_AUTO1, 0)  # no auto-config interrupts; search charge time too
        self._write(_AUTO0, _AUTO0_VALUE)
        self._expect(_AFE2, _AFE2_VALUE)
        self._expect(_TOUCH_TH + 2 * ELECTRODES - 1, self.release[ELECTRODES - 1])
        self._write(_ECR, _ECR_RUN | self.electrodes)  # last: leaving stop mode runs auto-config, then scanning
        self._expect(_ECR, _ECR_RUN | self.electrodes)

    def _write_tuning(self):
        # In stop mode only. The thresholds go in one transfer (the register address auto-increments).
        thresholds = self._thresholds
        for electrode in range(ELECTRODES):
            thresholds[2 * electrode] = self.touch[electrode]
            thresholds[2 * electrode + 1] = self.release[electrode]
        self.i2c.writeto_mem(self.address, _TOUCH_TH, thresholds)
        self._write(_DEBOUNCE, self.debounce << 4 | self.debounce)

    def tune(self, touch, release, debounce):
        """The same thresholds on every electrode and a new debounce, set with retune()."""
        check_tuning(touch, release, debounce)
        for electrode in range(ELECTRODES):
            self.touch[electrode] = touch
            self.release[electrode] = release
        self.debounce = debounce
        self.retune()

    def retune(self):
        """Write ``touch``, ``release`` and ``debounce`` into a running chip, keeping what it has
        learnt of each pad. OSError if it does not answer.

        The datasheet (MPR121 rev 4, 5.1) takes register writes only in Stop mode (ECR = 0),
        except ECR itself and the GPIO registers 0x73-0x7A, so the chip stops for a moment.
        Two things would make it start afresh when it runs again, each wrong with a finger or
        a card on a pad (the pad would then read untouched until let go, or touched for good):
        - auto-configuration: with ACE set in AUTOCONFIG0 (0x7B) it searches every electrode's
          charge current and time (CDCx 0x5F-0x6B, CDTx 0x6C-0x72) again "each time the
          MPR121 transitions from Stop Mode to Run Mode" (5.11). So ACE goes off first: the
          CDCx/CDTx that setup() found stay in their registers and in use (5.9, 5.10);
        - the baseline: ECR's CL bits say where tracking starts on entering Run mode: 00 from
          the value in the baseline register, 01 tracking off, 10 from the top 5 bits of the
          first reading, 11 from all 10 bits of it (5.11, table 9). setup() uses 10; here it
          is 00, and the baselines read just before stopping are written back in Stop mode
          (5.4: writable there; the write clears the two low bits, a baseline at most 3
          counts lower: a pad a little less sensitive, never touched by it).
        """
        address, baselines = self.address, self._baselines
        self.i2c.readfrom_mem_into(address, _BASELINE, baselines)
        self._write(_ECR, 0)
        self._write_tuning()
        self._write(_AUTO0, _AUTO0_KEEP)
        self.i2c.writeto_mem(address, _BASELINE, baselines)
        self._expect(_TOUCH_TH + 2 * ELECTRODES - 1, self.release[ELECTRODES - 1])
        self._write(_ECR, _ECR_RESUME | self.electrodes)
        self._expect(_ECR, _ECR_RESUME | self.electrodes)

    def running(self):
        """True while the chip scans its electrodes (after setup() or retune()); False after a
        power glitch reset it (ECR 0: Stop mode)."""
        return self._read(_ECR) & 0x3F == self.electrodes

    def touched(self):
        """The electrodes' touch status as an int, bit n = electrode n. Reading it lets the IRQ line go."""
        self.i2c.readfrom_mem_into(self.address, _TOUCH_STATUS, self._status)
        return (self._status[0] | self._status[1] << 8) & 0x0FFF

    def filtered(self, electrode):
        """The electrode's filtered reading, 0-1023 (lower when touched). For diagnostics."""
        data = self.i2c.readfrom_mem(self.address, _FILTERED + 2 * electrode, 2)
        return (data[0] | data[1] << 8) & 0x3FF

    def baseline(self, electrode):
        """The electrode's tracked baseline on the filtered() scale. For diagnostics."""
        return self.i2c.readfrom_mem(self.address, _BASELINE + electrode, 1)[0] << 2

    def read_signals(self, filtered, baselines):
        """All 12 electrodes in two reads: filtered data (0x04-0x1B) into ``filtered`` (24 bytes),
        baselines (0x1E-0x29) into ``baselines`` (12 bytes). Decode with signal()."""
        self.i2c.readfrom_mem_into(self.address, _FILTERED, filtered)
        self.i2c.readfrom_mem_into(self.address, _BASELINE, baselines)


def signal(filtered, baselines, electrode):
    """(filtered, baseline) of one electrode from read_signals()' buffers, both 0-1023.
    The baseline register keeps only the top 8 of 10 bits: a delta is up to 3 counts short."""
    return (filtered[2 * electrode] | filtered[2 * electrode + 1] << 8) & 0x3FF, baselines[electrode] << 2


class PadArray:
    """Several MPR121s as one bitmap of touched tiles; a controller that stops answering is 'missing'.

    Touch sensing has two layers: the global thresholds and debounce (tune(), the host's TUNE)
    and per-tile thresholds that take their place on some tiles (tune_pads(), TUNEPAD). A change
    rewrites only the controllers whose registers change, with Mpr121.retune(): the pads keep
    their baselines and charge settings. For SETTLE_MS after that, read() reports a retuned
    controller's tiles as they were before, so a finger resting on a tile through a TUNE is
    neither let go nor touched anew while the chip's status settles.

    ``i2c``: the bus all controllers share, or a tuple with each controller's own (the table has
    two buses). ``pads``: per tile, (controller, electrode); each controller scans its electrodes
    from ELE0 up to the highest one a tile uses. ``irqs``: per controller, a pin whose value() is
    0 while the chip's active-low IRQ output is (None: no line, read on every scan), or None for
    no lines at all. With a line, read() reads a controller only while its IRQ is low and every
    POLL_MS besides (see POLL_MS)."""

    def __init__(self, i2c, addresses, pads, ticks_ms=None, touch=10, release=5, debounce=1, irqs=None):
        check_tuning(touch, release, debounce)
        count = len(addresses)
        buses = i2c if isinstance(i2c, tuple) else (i2c,) * count
        used = [0] * count
        routes = [[] for _ in addresses]
        for tile, (controller, electrode) in enumerate(pads):
            if not (0 <= controller < count and 0 <= electrode < ELECTRODES):
                raise ValueError("tile %d: no controller %d electrode %d" % (tile, controller, electrode))
            routes[controller].append((1 << electrode, 1 << tile))
            used[controller] = max(used[controller], electrode + 1)
        self.controllers = tuple(
            Mpr121(buses[index], addresses[index], touch, release, debounce, max(1, used[index])) for index in range(count)
        )
        self.pads = pads
        self._routes = tuple(tuple(route) for route in routes)  # per controller: (electrode bit, tile bit)
        self._ticks_ms = ticks_ms or _ticks_ms
        self._irqs = list(irqs) if irqs is not None else [None] * count  # None: read on every scan
        self._up = [False] * count
        self._checked = [0] * count  # last setup attempt or health check
        self._status = [0] * count  # each controller's last status (read() holds it while settling or quiet)
        self._read_at = [0] * count  # the last status read: POLL_MS counts from it
        self._due = [True] * count  # read the status at the next scan whatever the IRQ says
        self._retuned_at = [0] * count
        self._settling = [False] * count
        self.missing = tuple(range(len(addresses)))
        self.tuning = (touch, release, debounce)  # the global layer: (touch, release, debounce)
        self._pad_touch = bytearray(len(pads))  # per tile, 0: the global thresholds
        self._pad_release = bytearray(len(pads))

    def start(self):
        """Set up every controller; returns the indexes of those that failed."""
        now = self._ticks_ms()
        for index in range(len(self.controllers)):
            self._setup(index, now)
        self._note_missing()
        return self.missing

    def _setup(self, index, now):
        self._checked[index] = now
        self._settling[index] = False
        self._due[index] = True  # a fresh chip: its status from nothing, whatever its line did meanwhile
        try:
            self.controllers[index].setup()
            self._up[index] = True
        except OSError:
            self._up[index] = False

    def tune(self, touch, release, debounce):
        """New global thresholds and debounce (ValueError when out of range): every tile without
        thresholds of its own takes them. A missing controller, or one that fails now, gets them
        at its next setup. The same values again change nothing (a host after a reconnect)."""
        check_tuning(touch, release, debounce)
        if (touch, release, debounce) == self.tuning:
            return
        self.tuning = (touch, release, debounce)
        self._apply()

    def bad_pad(self, triples):
        """The first (tile, touch, release) of ``triples`` that tune_pads() would refuse, or None.
        Good: a tile that exists, and 0 < release < touch <= 255, or 0, 0 (back to the global)."""
        for triple in triples:
            tile, touch, release = triple
            if not (0 <= tile < len(self.pads) and (0 < release < touch <= 255 or touch == release == 0)):
                return triple
        return None

    def tune_pads(self, triples):
        """Thresholds of their own for some tiles: (tile, touch, release), 0, 0 for the global ones
        again. All or nothing: ValueError (and no change) if bad_pad() finds one."""
        if self.bad_pad(triples) is not None:
            raise ValueError("a tile's thresholds need 0 < release < touch <= 255")
        for tile, touch, release in triples:
            self._pad_touch[tile] = touch
            self._pad_release[tile] = release
        self._apply()

    def pad_tuning(self):
        """The tiles with thresholds of their own that differ from the global ones: [(tile, touch, release)]."""
        touch, release = self.tuning[0], self.tuning[1]
        return [
            (tile, self._pad_touch[tile], self._pad_release[tile])
            for tile in range(len(self.pads))
            if self._pad_touch[tile] and (self._pad_touch[tile], self._pad_release[tile]) != (touch, release)
        ]

    def thresholds(self, tile):
        """(touch, release) in force on a tile."""
        if self._pad_touch[tile]:
            return self._pad_touch[tile], self._pad_release[tile]
        return self.tuning[0], self.tuning[1]

    def _apply(self):
        """Every controller's registers from the two layers; retune() those that change."""
        touch, release, debounce = self.tuning
        wanted = [(bytearray([touch] * ELECTRODES), bytearray([release] * ELECTRODES)) for _ in self.controllers]
        for tile, (controller, electrode) in enumerate(self.pads):
            wanted[controller][0][electrode], wanted[controller][1][electrode] = self.thresholds(tile)
        now = self._ticks_ms()
        for index in range(len(self.controllers)):
            controller = self.controllers[index]
            touches, releases = wanted[index]
            if touches == controller.touch and releases == controller.release and debounce == controller.debounce:
                continue  # nothing changes here: the chip is left alone
            controller.touch, controller.release, controller.debounce = touches, releases, debounce
            if not self._up[index]:
                continue  # set up with these when it answers again
            try:
                controller.retune()
                self._settling[index] = True
                self._retuned_at[index] = now
            except OSError:
                self._up[index] = False
                self._checked[index] = now
        self._note_missing()

    def signals(self):
        """Per tile, (filtered, baseline), or None where its controller is missing. Only on request
        (PADS): two reads per controller and a list, never in the scan."""
        filtered, baselines = bytearray(2 * ELECTRODES), bytearray(ELECTRODES)
        readings = [None] * len(self.controllers)
        for index in range(len(self.controllers)):
            if self._up[index]:
                try:
                    self.controllers[index].read_signals(filtered, baselines)
                    readings[index] = (bytes(filtered), bytes(baselines))
                except OSError:
                    pass  # the next scan notices and retries
        tiles = []
        for controller, electrode in self.pads:
            reading = readings[controller]
            tiles.append(None if reading is None else signal(reading[0], reading[1], electrode))
        return tiles

    def without_irq(self):
        """Read every controller on every scan from now on, as without IRQ lines (a bench's comparison)."""
        for index in range(len(self._irqs)):
            self._irqs[index] = None

    def _note_missing(self):
        missing = tuple(index for index in range(len(self._up)) if not self._up[index])
        if missing != self.missing:
            self.missing = missing  # a new tuple only when something changed

    def read(self):
        """Bitmap of touched tiles, bit t = tile t. Never raises: a missing controller's tiles read untouched."""
        now = self._ticks_ms()
        tiles = 0
        changed = False
        for index in range(len(self.controllers)):
            controller = self.controllers[index]
            up = self._up[index]
            if _ticks_diff(now, self._checked[index]) >= RETRY_MS:
                # Once a second: retry a missing controller; re-set up one that
                # answers but has lost its configuration (a power glitch).
                self._checked[index] = now
                try:
                    healthy = up and controller.running()
                except OSError:
                    healthy = False
                if not healthy:
                    self._setup(index, now)
                    changed = changed or self._up[index] != up
                    up = self._up[index]
            if not up:
                continue
            status = self._status[index]  # as before: while settling after a retune, or while the IRQ is high
            if self._settling[index] and _ticks_diff(now, self._retuned_at[index]) >= SETTLE_MS:
                self._settling[index] = False
                self._due[index] = True
            if not self._settling[index]:  # (just retuned: as before, until the chip's status settles)
                irq = self._irqs[index]
                quiet = irq is not None and irq.value()  # high: nothing new since the last read
                if not quiet or self._due[index] or _ticks_diff(now, self._read_at[index]) >= POLL_MS:
                    try:
                        status = controller.touched()
                    except OSError:
                        self._up[index] = False
                        self._checked[index] = now
                        changed = True
                        continue
                    if quiet and status != self._status[index] and not self._due[index]:
                        self._irqs[index] = None  # a change the line never signalled: read on every scan
                    self._due[index] = False
                    self._read_at[index] = now
                    self._status[index] = status
            if status:  # nobody touching: nothing to route
                for electrode_bit, tile_bit in self._routes[index]:
                    if status & electrode_bit:
                        tiles |= tile_bit
        if changed:
            self._note_missing()
        return tiles
