"""``codenames-board selftest --pads``: every tile's touch margin, live, with a verdict.

The board is asked for every pad's signal (``PADS``, firmware/PROTOCOL.md)
ASK_S apart; the signal is how far a pad's reading has fallen below its
baseline, in counts, and a finger makes it grow. ``PadMargins`` keeps each
tile's best signal of the session and judges it against the touch threshold
in force (firmware/TUNING.md):

- good: the best signal reached GOOD_FACTOR times the threshold;
- marginal: it passed the threshold (the tile reports touches), but not by
  that much, or the tile reported a touch between two samples;
- dead: the pad moved (NOISE counts or more) but never past the threshold,
  or its touch controller does not answer;
- untested: nothing seen yet (not touched, or touched through a cut wire).

A tile with thresholds of its own ([tiles.thresholds], TUNEPAD) is judged
against its own. The summary suggests thresholds for every tile touched:
about half the best signal it gave as the touch threshold, half that as the
release threshold (``suggest``), printed as ``[tiles.thresholds]`` lines to
paste into the configuration.

One thread: it asks, reads the tile board's events from one queue, redraws
a 5x5 grid when something changed and lights each tile in its verdict's
colour. Ctrl-C ends it with a summary and exit code 130.
"""

from __future__ import annotations

import queue
import sys
import time
from typing import Callable

from .engine import TILES, tile_name
from .tileboard import BoardConnected, BoardDisconnected, BoardProblem, PadSignals, TileTouched

GOOD_FACTOR = 2
NOISE = 4  # counts: the baseline register's two lost bits and a little noise are no touch
ASK_S = 0.1
SUGGEST_SHARE = 2  # a suggested touch threshold is the best signal seen over this
MIN_SUGGESTED = 6  # three times the 2 counts an untouched pad wanders: a lower threshold sees noise (TUNING.md)
VERDICTS = ("good", "marginal", "dead", "untested")
MARKS = {"good": "+", "marginal": "~", "dead": "x", "untested": "."}
COLOURS = {"good": (0, 160, 0), "marginal": (200, 110, 0), "dead": (200, 0, 0), "untested": (12, 12, 12)}
COLUMNS = 5


def _write_out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()  # a pipe sees each grid as it is drawn


class PadMargins:
    """Each tile's best signal of the session and its verdict; fed PadSignals and touches."""

    def __init__(self, tiles: int = TILES) -> None:
        self.tiles = tiles
        self.touch = 0
        self.release = 0
        self.own: list[tuple[int, int] | None] = [None] * tiles  # a tile's own thresholds in force
        self.now: list[int | None] = [None] * tiles  # the last signal (None: no controller)
        self.best = [0] * tiles
        self.touched: set[int] = set()  # tiles that reported a touch
        self.answered: set[int] = set()  # tiles whose controller answered at least once
        self.samples = 0

    def update(self, signals: PadSignals) -> None:
        self.touch, self.release = signals.touch, signals.release
        self.samples += 1
        for tile in range(self.tiles):
            self.own[tile] = signals.own[tile] if tile < len(signals.own) else None
            signal = signals.signal(tile)
            self.now[tile] = signal
            if signal is not None:
                self.answered.add(tile)
                self.best[tile] = max(self.best[tile], signal)

    def touched_tile(self, tile: int) -> None:
        if 0 <= tile < self.tiles:
            self.touched.add(tile)

    def touch_threshold(self, tile: int) -> int:
        own = self.own[tile]
        return self.touch if own is None else own[0]

    def verdict(self, tile: int) -> str:
        best, touch = self.best[tile], self.touch_threshold(tile)
        if self.samples and tile not in self.answered:
            return "dead"  # its touch controller never answered
        if best >= GOOD_FACTOR * touch and best > touch:
            return "good"
        if best > touch or tile in self.touched:
            return "marginal"
        if best >= NOISE:
            return "dead"
        return "untested"

    def verdicts(self) -> list[str]:
        return [self.verdict(tile) for tile in range(self.tiles)]


def grid_lines(margins: PadMargins, tr) -> list[str]:
    """The 5x5 grid as the operatives see it: per tile its mark, the signal now and the best."""
    lines = [tr("selftest.pads_header", touch=margins.touch, release=margins.release)]
    lines.append("    " + "".join(f"{column + 1:<12}" for column in range(COLUMNS)).rstrip())
    for row in range(margins.tiles // COLUMNS):
        cells = []
        for column in range(COLUMNS):
            tile = row * COLUMNS + column
            now = margins.now[tile]
            shown = "--" if now is None else str(now)
            cells.append(f"{MARKS[margins.verdict(tile)]} {shown:>3}/{margins.best[tile]:<3}   ")
        lines.append(f"{tile_name(row * COLUMNS)[0]}   " + "".join(cells).rstrip())
    lines.append(tr("selftest.pads_legend", good=GOOD_FACTOR * margins.touch, touch=margins.touch))
    return lines


def suggest(margins: PadMargins) -> tuple[dict[int, tuple[int, int]], list[int]]:
    """Thresholds for the tiles touched: (touch, release) by tile, where they differ from the global
    ones, and the tiles too weak for any (best signal under MIN_SUGGESTED * SUGGEST_SHARE)."""
    suggested, weak = {}, []
    for tile in range(margins.tiles):
        best = margins.best[tile]
        if tile not in margins.answered or (best < NOISE and tile not in margins.touched):
            continue  # untested, or its controller does not answer: nothing measured to go on
        touch = min(255, best // SUGGEST_SHARE)
        if touch < MIN_SUGGESTED:
            weak.append(tile)
            continue
        pair = (touch, max(1, touch // 2))
        if pair != (margins.touch, margins.release):
            suggested[tile] = pair
    return suggested, weak


def suggestion_lines(margins: PadMargins, tr) -> list[str]:
    """The suggested thresholds as configuration lines to paste, with a line before them."""
    suggested, weak = suggest(margins)
    lines = []
    if suggested:
        lines += ["", tr("selftest.pads_suggest"), "[tiles.thresholds]"]
        lines += [f"{tile_name(tile)} = [{touch}, {release}]" for tile, (touch, release) in suggested.items()]
    if weak:
        lines += ["", tr("selftest.pads_suggest_weak", tiles=" ".join(tile_name(tile) for tile in weak))]
    return lines


def summary_lines(margins: PadMargins, tr) -> list[str]:
    verdicts = margins.verdicts()
    lines = ["", tr("selftest.pads_summary")]
    for verdict in VERDICTS:
        tiles = [tile_name(tile) for tile in range(margins.tiles) if verdicts[tile] == verdict]
        if tiles:
            lines.append("  " + tr(f"selftest.pads_{verdict}", count=len(tiles), tiles=" ".join(tiles)))
    if any(verdict in ("marginal", "dead") for verdict in verdicts):
        lines.append(tr("selftest.pads_advice"))
    return lines + suggestion_lines(margins, tr)


class PadView:
    """Asks, listens and draws until ``stop`` says so (Ctrl-C in the command)."""

    def __init__(
        self,
        board,
        events: queue.Queue,
        tr,
        write: Callable[[str], None] | None = None,
        live: bool = False,
        leds: int = TILES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.board = board
        self.events = events
        self.tr = tr
        self.write = write or _write_out
        self.live = live  # a terminal: redraw the grid in place; else print it when a verdict or a best changes
        self.leds = leds
        self.clock = clock
        self.margins = PadMargins(board.tiles)
        self._drawn: list[str] = []
        self._verdicts: list[str] | None = None
        self._best: list[int] = []

    def say(self, text: str) -> None:
        self.write(text + "\n")

    def wait_for_board(self, seconds: float) -> bool:
        deadline = self.clock() + seconds
        while not self.board.connected:
            left = deadline - self.clock()
            if left <= 0:
                return False
            try:
                self.events.get(timeout=min(left, ASK_S))
            except queue.Empty:
                pass
        return True

    def run(self, seconds: float | None = None) -> bool:
        """Watch the pads (for ``seconds``, or until interrupted). False if the board never
        answered PADS (firmware too old, or a board that cannot say)."""
        end = None if seconds is None else self.clock() + seconds
        asked = self.clock() - ASK_S
        first_ask = None
        while end is None or self.clock() < end:
            now = self.clock()
            if now - asked >= ASK_S:
                asked = now
                if self.board.request_pads() and first_ask is None:
                    first_ask = now
            if not self.margins.samples and first_ask is not None and now - first_ask > 2.0:
                return False
            if not self.margins.samples and not getattr(self.board, "tunable", True):
                return False
            try:
                event = self.events.get(timeout=max(0.0, asked + ASK_S - self.clock()))
            except queue.Empty:
                continue
            self.take(event)
        return bool(self.margins.samples)

    def take(self, event) -> None:
        if isinstance(event, PadSignals):
            self.margins.update(event)
            self.draw()
        elif isinstance(event, TileTouched) and event.down:
            self.margins.touched_tile(event.tile)
            self.draw()
        elif isinstance(event, BoardDisconnected):
            self.say(self.tr("selftest.pads_lost"))
            self._drawn = []
        elif isinstance(event, BoardConnected):
            self._verdicts = None  # the board lost its LEDs: light them again
        elif isinstance(event, BoardProblem) and event.code == "firmware_tunepad":
            self.say(self.tr("notice.board_firmware_tunepad"))  # the tiles' own thresholds are not in force
            self._drawn = []

    def draw(self) -> None:
        verdicts = self.margins.verdicts()
        if verdicts != self._verdicts:
            self._verdicts = verdicts
            frame = bytearray(3 * self.leds)
            for tile, verdict in enumerate(verdicts):
                frame[3 * tile : 3 * tile + 3] = bytes(COLOURS[verdict])
            self.board.show(bytes(frame))
        elif not self.live and self.margins.best == self._best:
            return  # a log or a pipe: a new grid only when a verdict or a best signal changed
        self._best = list(self.margins.best)
        lines = grid_lines(self.margins, self.tr)
        if lines == self._drawn:
            return
        if self.live and self._drawn:
            self.write(f"\x1b[{len(self._drawn)}F\x1b[J")  # back to the grid's first line, clear below
        self.write("\n".join(lines) + "\n")
        self._drawn = lines

    def summary(self) -> None:
        for line in summary_lines(self.margins, self.tr):
            self.say(line)


def main(args, tr) -> int:
    """The command: load the config, open the tile board, tune it as configured, watch until Ctrl-C."""
    from .clibase import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, configured_translator, load_config
    from .controller import configure_tileboard
    from .tileboard import open_tileboard

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    events: queue.Queue = queue.Queue()
    tiles = config.tiles
    options = {"port": tiles.port} if tiles.driver == "serial" else {}
    board = open_tileboard(tiles.driver, on_event=events.put, status_leds=tiles.timer_leds + tiles.turn_leds, **options)
    view = PadView(board, events, tr, live=sys.stdout.isatty(), leds=board.leds)
    try:
        configure_tileboard(board, config)
        view.say(tr("selftest.board_wait"))
        if not view.wait_for_board(args.timeout):
            view.say(tr("selftest.board_missing"))
            return EXIT_FAILURE
        view.say(tr("selftest.pads_touch"))
        if not view.run():
            view.say(tr("selftest.pads_unsupported"))
            return EXIT_FAILURE
        return 0
    except KeyboardInterrupt:
        view.summary()
        return EXIT_INTERRUPTED
    finally:
        try:
            board.show(bytes(3 * board.leds))
        finally:
            board.close()
