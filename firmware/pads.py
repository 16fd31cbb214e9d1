# Debounce for the 25 pads: clean down/up edges from raw touch bitmaps.
# Portable (no machine import): the scan loop passes in bitmaps and times.
#
# A pad's new state counts once it has read the same for DEBOUNCE_SCANS scans
# in a row. A pad that flips too often (a loose wire, a wet tile) is muted:
# its edges are not reported until it has been quiet for QUIET_MS, so it can
# never flood the link. A pad held down longer than STUCK_MS is reported once.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

DEBOUNCE_SCANS = const(2)  # at a 2 ms scan: 4 ms (the MPR121 filters too)
NOISY_EDGES = const(10)  # edges within NOISY_WINDOW_MS that mute a pad
NOISY_WINDOW_MS = const(2000)
QUIET_MS = const(5000)
STUCK_MS = const(60000)

NOISY = "noisy"
QUIET = "quiet"
STUCK = "stuck"


class Debouncer:
    def __init__(self, count, ticks_diff):
        self.count = count
        self._diff = ticks_diff
        self.stable = 0  # debounced bitmap
        self.reported = 0  # what the host was told
        self._agree = bytearray(count)  # scans in a row that differ from stable
        self._edges = bytearray(count)  # edges in the current noise window
        self._window_start = [0] * count
        self._changed_at = [0] * count  # last stable change (or mute), for quiet and stuck
        self.muted = 0  # bitmap of muted pads
        self._stuck = 0  # bitmap of pads already reported stuck

    def update(self, raw, now, edges, problems):
        """Take one scan's raw bitmap; append (tile, down) to edges and (kind, tile) to problems."""
        differs = raw ^ self.stable
        for tile in range(self.count):
            bit = 1 << tile
            if differs & bit:
                agree = self._agree[tile] + 1
                if agree < DEBOUNCE_SCANS:
                    self._agree[tile] = agree
                    continue
                self._agree[tile] = 0
                self.stable ^= bit
                self._changed_at[tile] = now
                self._stuck &= ~bit
                self._count_edge(tile, now, problems)
            else:
                self._agree[tile] = 0
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
