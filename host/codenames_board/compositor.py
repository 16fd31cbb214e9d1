"""The LED compositor: what every LED on the table shows, as a pure function of time.

``notice(event, now)`` starts animations (a reveal's flash, the assassin's
strobe, the winner's sweep, a refused touch's blink, the sand timer's flash);
after the sweep the assassin's tile dips to dark now and then until the next
game, so it is told from the others by more than its colour (``_Dip``);
``frame(game, ui, now)`` paints the whole frame for that moment: the game's
state first, animations on top. Nothing here reads a clock, sleeps or runs a
thread: an animation is only a start time, so it can never delay a touch.
``next_change(game, ui, now)`` says when the frame will next differ, so the
controller redraws on change and sleeps in between.

The controller's loop: pass every engine event (and ``TouchRefused`` when
``game.play(Touch(...))`` raised, ``TimerExpired`` when the sand runs out) to
``notice``; show ``frame``; wait on the queue until ``next_change`` (None:
until the next event; once a game is over it is never None, as the dip goes
on: a loop that runs "until idle" must end at a time instead); call ``reset``
for a new game. Build ``ui.timer`` with the seconds left at ``now`` for each call.

Frame layout (``tileboard.base``): 3 bytes (red, green, blue) per LED; the
tiles row-major as the operatives see the grid, then the sand-timer bar, then
the turn indicator.
"""

from __future__ import annotations

import math
from itertools import chain
from dataclasses import dataclass

from codenames_firmware import board
from codenames_firmware.leds import Leds

from .colours import BLACK, RGB, WHITE, Palette, mix, scale
from .engine import GameOver, GameView, Identity, Phase, TileCovered, TileRevealed, Touch, Undone
from .published import Refused, TimerExpired, TouchRefused
from .ui import UiState

FPS = 60  # frames a second while something fades or sweeps (a frame is a few dozen bytes: see SET)
REVEAL_S = 0.3  # a revealed tile flashes from whitish to its colour
REVEAL_WHITE = 0.5  # how far toward white the reveal starts
STROBE_S = 1.5  # the assassin: white on/off ...
STROBE_HALF_S = 0.1  # ... 5 times a second, then its dim colour
SWEEP_S = 2.0  # game over: a wave of the winner's colour from the top left corner
SWEEP_BAND = 2.0  # half-width of the wave, in diagonals of the grid
KEY_DIM = 0.3  # after the game: unrevealed tiles show the key at this brightness
# ... and the assassin's tile (revealed or not) dips to dark once a period, until a new game is dealt:
# a mark that is not colour alone (colour-blind players), calm (0.67 Hz, the edges softened in two steps)
# and cheap (4 frames a period, so the controller wakes 4 times in 1.5 s).
DIP_PERIOD_S = 1.5
DIP_EDGES = ((1.0, 0.4), (1.1, 0.0), (1.4, 0.4))  # (seconds into the period, brightness from then); 1 before
REFUSED_EDGES = (0.1, 0.15, 0.25)  # a refused touch: on, gap, on, then gone (seconds)
TURN_LEDS = -1  # in the refused blinks: the turn LEDs (a refused button)
TIMER_FLASH_S = 2.0  # the bar flashes when the sand runs out ...
TIMER_FLASH_HALF_S = 0.25  # ... twice a second
TIMER_WARNING = 0.2  # the bar's last fifth is in the warning colour
COVER_BLINK_HALF_S = 0.5  # the turn indicator blinks slowly while a spymaster covers
COVER_DIM = 0.25  # ... between full and this brightness

_EPS = 1e-6  # float slack, so a change is due exactly at the time next_change gave


def _steps(elapsed: float, step: float) -> int:
    """Whole steps of ``step`` seconds in ``elapsed`` (robust to float error at the edges)."""
    return math.floor(elapsed / step + _EPS)


@dataclass(frozen=True)
class Layout:
    """The LED chain in logical order: tiles (a grid of ``columns``), timer bar, turn indicator."""

    tiles: int = board.TILES
    timer_leds: int = board.TIMER_LEDS
    turn_leds: int = board.TURN_LEDS
    columns: int = 5

    def __post_init__(self) -> None:
        if min(self.tiles, self.columns) < 1 or self.tiles % self.columns or min(self.timer_leds, self.turn_leds) < 0:
            raise ValueError(f"not an LED layout: {self}")

    @property
    def status_leds(self) -> int:
        return self.timer_leds + self.turn_leds

    @property
    def leds(self) -> int:
        return self.tiles + self.status_leds

    @property
    def frame_bytes(self) -> int:
        return 3 * self.leds


def frame_ma(frame: bytes, brightness: int, ma_per_channel: int = board.LED_MA_PER_CHANNEL, ma_idle: int = board.LED_MA_IDLE) -> int:
    """The current (mA) the chain draws for a frame at a brightness, before any cap.

    Computed by the firmware's own arithmetic (``Leds.scale``), so the host's
    figure is the one the board works with.
    """
    leds = Leds(None, range(len(frame) // 3), ma_per_channel, ma_idle)
    leds.limit(brightness, 1 << 30)
    leds.scale(frame)
    return leds.estimate_ma


# --- animations: a start time and pure functions of now


@dataclass(frozen=True)
class _Reveal:
    colour: RGB
    start: float

    @property
    def end(self) -> float:
        return self.start + REVEAL_S

    def paint(self, now: float) -> RGB:
        done = min(1.0, _steps(now - self.start, 1 / FPS) / (REVEAL_S * FPS))
        return mix(self.colour, WHITE, REVEAL_WHITE * (1 - done) ** 2)

    def next_change(self, now: float) -> float:
        return min(self.end, self.start + (_steps(now - self.start, 1 / FPS) + 1) / FPS)


@dataclass(frozen=True)
class _Strobe:
    colour: RGB
    start: float

    @property
    def end(self) -> float:
        return self.start + STROBE_S

    def paint(self, now: float) -> RGB:
        return self.colour if _steps(now - self.start, STROBE_HALF_S) % 2 == 0 else BLACK

    def next_change(self, now: float) -> float:
        return min(self.end, self.start + (_steps(now - self.start, STROBE_HALF_S) + 1) * STROBE_HALF_S)


@dataclass(frozen=True)
class _Sweep:
    colour: RGB
    start: float  # may lie ahead: the sweep waits for the last tile's own animation
    diagonals: int  # of the grid: rows + columns - 1

    @property
    def end(self) -> float:
        return self.start + SWEEP_S

    def paint(self, diagonal: int, play: RGB, key: RGB, now: float) -> RGB:
        """A tile on ``diagonal``: the key behind the wave, the game's look ahead of it."""
        if now < self.start:
            return play
        done = min(1.0, _steps(now - self.start, 1 / FPS) / (SWEEP_S * FPS))
        wave = -SWEEP_BAND + (self.diagonals - 1 + 2 * SWEEP_BAND) * done
        base = key if diagonal < wave else play
        return mix(base, self.colour, max(0.0, 1 - abs(diagonal - wave) / SWEEP_BAND))

    def next_change(self, now: float) -> float:
        if now < self.start:
            return self.start
        return min(self.end, self.start + (_steps(now - self.start, 1 / FPS) + 1) / FPS)


@dataclass(frozen=True)
class _Dip:
    """The game is over: the assassin's tile dips to dark once every DIP_PERIOD_S, from ``start`` on, for ever."""

    start: float  # the sweep's end (a game resumed after its end: 0, the pattern runs at once)

    def level(self, now: float) -> float:
        """The tile's brightness (0-1) at ``now``: 1 from the start of each period to the first edge."""
        into = self._into(now)
        return next((level for edge, level in reversed(DIP_EDGES) if into + _EPS >= edge), 1.0)

    def next_change(self, now: float) -> float:
        if now < self.start:
            return self.start
        into = self._into(now)
        edge = next((edge for edge, _ in DIP_EDGES if into + _EPS < edge), DIP_PERIOD_S)
        return now - into + edge

    def _into(self, now: float) -> float:
        """Seconds since the current period began."""
        return now - self.start - _steps(now - self.start, DIP_PERIOD_S) * DIP_PERIOD_S


def _refused_step(start: float, now: float) -> int:
    """0 and 2: the blink is on; 1: the gap; 3: over."""
    return sum(1 for edge in REFUSED_EDGES if now - start + _EPS >= edge)


class Compositor:
    def __init__(self, layout: Layout | None = None, palette: Palette | None = None, key_dim: float = KEY_DIM) -> None:
        self.layout = layout or Layout()
        self.palette = palette or Palette()
        self.key_dim = key_dim
        columns = self.layout.columns
        self._diagonal = [tile // columns + tile % columns for tile in range(self.layout.tiles)]
        self._shown = {identity: self.palette.identity(identity) for identity in Identity}
        self._key = {identity: scale(colour, key_dim) for identity, colour in self._shown.items()}
        self.reset()

    def __repr__(self) -> str:
        return f"<Compositor {self.layout.leds} LEDs, {len(self._tiles)} tile animations>"

    def reset(self) -> None:
        """Forget every animation (a new game)."""
        self._tiles: dict[int, _Reveal | _Strobe] = {}
        self._refused: dict[int, float] = {}  # tile (TURN_LEDS: the turn LEDs) -> when its blink started
        self._sweep: _Sweep | None = None
        self._timer_flash: float | None = None  # when the bar started flashing

    # --- events in

    def notice(self, event: object, now: float) -> None:
        """Start what an event shows. Engine events and TouchRefused/TimerExpired; others are ignored."""
        palette = self.palette  # (one entry per tile at most: finished animations are just ignored)
        if isinstance(event, TileRevealed | TileCovered):
            if event.identity is Identity.ASSASSIN:
                self._tiles[event.tile] = _Strobe(palette.assassin_strobe, now)
            else:
                self._tiles[event.tile] = _Reveal(palette.identity(event.identity), now)
        elif isinstance(event, GameOver):
            # The last tile's own flash or strobe plays out first, then the wave.
            start = max([now] + [anim.end for anim in self._tiles.values()])
            self._sweep = _Sweep(palette.agent(event.outcome.winner), start, max(self._diagonal) + 1)
        elif isinstance(event, Undone):
            if isinstance(event.action, Touch):
                self._tiles.pop(event.action.tile, None)
            self._sweep = None  # only a touch ends a game, so only its undo un-ends one
        elif isinstance(event, TouchRefused):
            if 0 <= event.tile < self.layout.tiles:
                self._refused[event.tile] = now
        elif isinstance(event, TimerExpired):
            self._timer_flash = now
        elif isinstance(event, Refused):  # a button the rules refused: the turn LEDs blink, as a refused tile does
            self._refused[TURN_LEDS] = now

    # --- frames out

    def frame(self, game: GameView, ui: UiState, now: float) -> bytes:
        """Every LED's colour at ``now``: 3 bytes per LED in logical order.

        ``ui.timer.left`` is taken as the seconds left at ``now``.
        """
        colours = self._tile_colours(game, now) + self._timer_colours(ui, now) + self._turn_colours(game, now)
        return bytes(chain.from_iterable(colours))

    def next_change(self, game: GameView, ui: UiState, now: float) -> float | None:
        """When ``frame`` will next differ without a new event, or None while it stays as it is."""
        due: list[float] = []
        revealed = set(game.revealed)
        for tile, anim in self._tiles.items():
            if tile in revealed and now < anim.end:
                due.append(anim.start if now < anim.start else anim.next_change(now))
        for start in self._refused.values():
            step = _refused_step(start, now)
            if now < start:
                due.append(start)
            elif step < 3:
                due.append(start + REFUSED_EDGES[step])
        if game.is_over and self._sweep is not None and now < self._sweep.end:
            due.append(self._sweep.next_change(now))
        if game.is_over and Identity.ASSASSIN in game.key.identities:
            due.append(self._dip().next_change(now))
        if self._timer_flashing(ui, now):
            start = self._timer_flash
            due.append(min(start + TIMER_FLASH_S, start + (_steps(now - start, TIMER_FLASH_HALF_S) + 1) * TIMER_FLASH_HALF_S))
        elif ui.timer is not None and not ui.timer.expired and self.layout.timer_leds:
            lit = self._timer_lit(ui.timer.fraction)
            if lit:
                due.append(now + ui.timer.left - (lit - 1) * ui.timer.total / self.layout.timer_leds)
        if game.phase is Phase.COVER and self.layout.turn_leds:
            due.append((_steps(now, COVER_BLINK_HALF_S) + 1) * COVER_BLINK_HALF_S)
        return min(due) if due else None

    def repaint(self, frame: bytes, game: GameView, tiles: list[int], now: float) -> bytes:
        """``frame`` with only ``tiles`` painted anew for ``now``, as :meth:`frame` paints them.

        The touch's fast path: a revealed tile lights without the whole frame being
        composed; the next full frame follows moments later.
        """
        out = bytearray(frame)
        revealed = set(game.revealed)
        for tile in tiles:
            out[3 * tile : 3 * tile + 3] = bytes(self._tile_colour(game, tile, revealed, now))
        return bytes(out)

    def _tile_colours(self, game: GameView, now: float) -> list[RGB]:
        revealed = set(game.revealed)
        return [self._tile_colour(game, tile, revealed, now) for tile in range(self.layout.tiles)]

    def _tile_colour(self, game: GameView, tile: int, revealed: set[int], now: float) -> RGB:
        identity = game.key.identities[tile]
        colour = self._shown[identity] if tile in revealed else self.palette.idle
        if game.is_over:  # the whole key: unrevealed tiles dimmer, so the revealed ones stand out
            sweep = self._sweep
            key = colour if tile in revealed else self._key[identity]
            colour = sweep.paint(self._diagonal[tile], colour, key, now) if sweep and now < sweep.end else key
            if identity is Identity.ASSASSIN and not (sweep and now < sweep.end):
                level = self._dip().level(now)
                colour = colour if level == 1.0 else scale(colour, level)
        anim = self._tiles.get(tile)
        if anim is not None and tile in revealed and anim.start <= now < anim.end:
            colour = anim.paint(now)
        start = self._refused.get(tile)
        if start is not None and start <= now and _refused_step(start, now) in (0, 2):
            colour = self.palette.refused
        return colour

    def _dip(self) -> _Dip:
        """The assassin's pattern of this game's end: it begins as the sweep ends."""
        return _Dip(self._sweep.end if self._sweep is not None else 0.0)

    def _timer_flashing(self, ui: UiState, now: float) -> bool:
        """The flash shows until it ends or a new countdown starts."""
        start = self._timer_flash
        if start is None or not start <= now < start + TIMER_FLASH_S:
            return False
        return ui.timer is None or ui.timer.expired

    def _timer_lit(self, fraction: float) -> int:
        """LEDs lit for the sand left: the last one stays lit until the very end."""
        return max(0, min(self.layout.timer_leds, math.ceil(fraction * self.layout.timer_leds - _EPS)))

    def _timer_colours(self, ui: UiState, now: float) -> list[RGB]:
        count, palette = self.layout.timer_leds, self.palette
        if self._timer_flashing(ui, now):
            on = _steps(now - self._timer_flash, TIMER_FLASH_HALF_S) % 2 == 0
            return [palette.timer_expired if on else BLACK] * count
        if ui.timer is None:
            return [BLACK] * count
        lit = self._timer_lit(ui.timer.fraction)
        # Warning by whole LEDs, so the colour changes exactly when a step does.
        colour = palette.timer_warning if lit <= round(TIMER_WARNING * count) else palette.timer
        return [colour] * lit + [BLACK] * (count - lit)

    def _turn_colours(self, game: GameView, now: float) -> list[RGB]:
        if game.is_over:
            colour = self.palette.turn(game.outcome.winner)
        else:
            colour = self.palette.turn(game.turn)
            if game.phase is Phase.COVER and _steps(now, COVER_BLINK_HALF_S) % 2:
                colour = scale(colour, COVER_DIM)
        start = self._refused.get(TURN_LEDS)
        if start is not None and start <= now and _refused_step(start, now) in (0, 2):
            colour = self.palette.refused
        return [colour] * self.layout.turn_leds

    # --- power budget, for the runtime's log at start

    def worst_case_ma(self, brightness: int, ma_per_channel: int = board.LED_MA_PER_CHANNEL, ma_idle: int = board.LED_MA_IDLE) -> int:
        """The most the chain could draw at this brightness: every LED full white."""
        return frame_ma(bytes([255]) * self.layout.frame_bytes, brightness, ma_per_channel, ma_idle)

    def typical_ma(self, brightness: int, ma_per_channel: int = board.LED_MA_PER_CHANNEL, ma_idle: int = board.LED_MA_IDLE) -> int:
        """What a mid-game frame draws: half the tiles revealed, the rest idle, the timer half run."""
        return frame_ma(self.typical_frame(), brightness, ma_per_channel, ma_idle)

    def typical_frame(self) -> bytes:
        palette, layout = self.palette, self.layout
        revealed = [palette.red] * 5 + [palette.blue] * 4 + [palette.bystander] * 3
        tiles = (revealed + [palette.idle] * layout.tiles)[: layout.tiles]
        lit = layout.timer_leds // 2
        timer = [palette.timer] * lit + [BLACK] * (layout.timer_leds - lit)
        return bytes(chain.from_iterable(tiles + timer + [palette.turn_red] * layout.turn_leds))
