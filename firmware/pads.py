# Edges for the 25 pads: clean down/up edges from the touch bitmaps the
# MPR121s report. Portable (no machine import): the scan loop passes in
# bitmaps and times.
#
# Every change of a pad's status is an edge. A pad that flips too often (a
# loose wire, a wet tile) is muted: its edges are not reported until it has
# been quiet for QUIET_MS, so it can never flood the link. A pad held down
# longer than STUCK_MS is reported once.
#
# No debounce of our own: the MPR121 debounces in the chip. Its status bit
# moves only once DT (DR on release) detections in a row agree, which by the
# datasheet (section 5.7) delays it by ESI x SFI x DT: detections come every
# ESI x SFI = 1 ms x 4 samples with mpr121.py's settings, so no status lasts
# less than 4 ms, two of our 2 ms scans. Waiting for a second agreeing scan
# (as this file once did) never filtered a change the chip reports; it only
# made every touch 2 ms later.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

NOISY_EDGES = const(10)  # edges within NOISY_WINDOW_MS that mute a pad
NOISY_WINDOW_MS = const(2000)
QUIET_MS = const(5000)
STUCK_MS = const(60000)

NOISY = "noisy"
QUIET = "quiet"
STUCK = "stuck"


class PadWatch:
    def __init__(self, count, ticks_diff):
        self.count = count
        self._diff = ticks_diff
        self.stable = 0  # the pads' status, as the MPR121s last reported it
        self.reported = 0  # what the host was told
        self._edges = bytearray(count)  # edges in the current noise window
        self._window_start = [0] * count
        self._changed_at = [0] * count  # last stable change (or mute), for quiet and stuck
        self.muted = 0  # bitmap of muted pads
        self._stuck = 0  # bitmap of pads already reported stuck

    def update(self, raw, now, edges, problems):
        """Take one scan's bitmap; append (tile, down) to edges and (kind, tile) to problems."""
        stable = self.stable
        differs = raw ^ stable
        # The pads worth a look: changing, muted, held (the stuck check) or
        # not yet reported. Usually none at all.
        work = differs | self.muted | (stable & ~self._stuck) | (stable ^ self.reported)
        if not work:
            return
        for tile in range(self.count):
            bit = 1 << tile
            if not work & bit:
                if work < bit:
                    break  # no pad above this one needs a look
                continue
            if differs & bit:
                self.stable ^= bit
                self._changed_at[tile] = now
                self._stuck &= ~bit
                self._count_edge(tile, now, problems)
            if self.muted & bit:
                if self._diff(now, self._changed_at[tile]) >= QUIET_MS:
                    self.muted &= ~bit
                    self._edges[tile] = 0
                    problems.append((QUIET, tile))
                else:
                    continue
            if (self.stable ^ self.reported) & bit:
                self.reported ^= bit
                edges.append((tile, 1 if self.stable & bit else 0))
            if self.stable & bit and not self._stuck & bit:
                if self._diff(now, self._changed_at[tile]) >= STUCK_MS:
                    self._stuck |= bit
                    problems.append((STUCK, tile))

    def _count_edge(self, tile, now, problems):
        if self._diff(now, self._window_start[tile]) > NOISY_WINDOW_MS or self._edges[tile] == 0:
            self._window_start[tile] = now
            self._edges[tile] = 0
        self._edges[tile] += 1
        if self._edges[tile] >= NOISY_EDGES and not self.muted & (1 << tile):
            self.muted |= 1 << tile
            problems.append((NOISY, tile))
