"""The table's standard outputs, each a listener on its published state (``published``).

``LedOutput``: the tile board's LEDs through the compositor. A reveal's tile is
repainted at once on the last frame (the touch's fast path), the whole frame follows.
``SoundOutput``: the buzzer's patterns for what just happened. ``ScreenOutput``:
the spymaster display, handed each new state (it renders on its own thread).
"""

from __future__ import annotations

import dataclasses

from .compositor import Compositor, Layout
from .colours import palette_of
from .engine import ClueGiven, GameOver, Identity, Reason, TileCovered, TileRevealed, Undone
from .published import Output, Outputs, Refused, TableState, TimerExpired, TouchRefused
from .sounds import Sounder


class LedOutput(Output):
    def __init__(self, tileboard, compositor: Compositor) -> None:
        self.tileboard = tileboard
        self.compositor = compositor
        self.last_frame: bytes | None = None
        self._state: TableState | None = None

    def show(self, state: TableState, now: float) -> None:
        compositor = self.compositor
        if self._state is None or state.dealt != self._state.dealt:
            compositor.reset()  # a new game: no animation of the last one
        self._state = state
        tiles = []
        for event in state.events:
            compositor.notice(event, now)
            if type(event) in (TileRevealed, TileCovered, TouchRefused):
                tiles.append(event.tile)
        if tiles and self.last_frame is not None:  # only these tiles painted anew: they light now
            self._send(compositor.repaint(self.last_frame, state.game, tiles, now))
        self.update(now)

    def update(self, now: float) -> None:
        if self._state is not None:
            self._send(self.compositor.frame(self._state.game, self._state.ui, now))

    def next_wake(self, now: float) -> float | None:
        state = self._state
        return None if state is None else self.compositor.next_change(state.game, state.ui, now)

    def _send(self, frame: bytes) -> None:
        if frame != self.last_frame:
            self.last_frame = frame
            self.tileboard.show(frame)


def sound_for(event) -> str | None:
    """The buzzer's pattern for an event or cue, or None."""
    kind = type(event)
    if kind is TileRevealed:
        if event.identity is Identity.ASSASSIN:
            return "assassin"
        return "reveal" if event.identity.team is event.team else "wrong"
    if kind is GameOver:
        return "win" if event.outcome.reason is Reason.AGENTS else None
    if kind in (ClueGiven, Undone):
        return "click"
    if kind in (TouchRefused, Refused):
        return "refused"
    if kind is TimerExpired:
        return "timer"
    return None


class SoundOutput(Output):
    def __init__(self, sounder: Sounder) -> None:
        self.sounder = sounder

    def show(self, state: TableState, now: float) -> None:
        for event in state.events:
            name = sound_for(event)
            if name is not None:
                self.sounder.play(name, now)
        self.sounder.update(now)

    def update(self, now: float) -> None:
        self.sounder.update(now)

    def next_wake(self, now: float) -> float | None:
        return self.sounder.next_change()

    def close(self) -> None:
        self.sounder.stop()


class ScreenOutput(Output):
    """Anything with ``update(game, ui)`` (``display.SpymasterScreen``, ``screenworker.ScreenWorker``):
    called when the game or the panel changed, with the snapshot's immutable game.

    ``dress`` (optional) adds to the panel's state what another output has for the hooded display
    (the web page's pairing card); it may change between states, so time passing checks it too."""

    def __init__(self, display, dress=None) -> None:
        self.display = display
        self.dress = dress
        self._state: TableState | None = None
        self._shown: tuple | None = None

    def show(self, state: TableState, now: float) -> None:
        self._state = state
        self.update(now)

    def update(self, now: float) -> None:
        state = self._state
        if state is None:
            return
        ui = state.ui if self.dress is None else self.dress(state.ui)
        if state.evening is not None:  # the display shows tonight's score between games
            ui = dataclasses.replace(ui, evening=state.evening)
        shown = (ui, state.dealt, state.game.version)
        if shown != self._shown:
            self._shown = shown
            self.display.update(state.game, ui)


def standard_outputs(config, tileboard, display=None, sounder: Sounder | None = None, web=None) -> Outputs:
    """The LEDs first, then the buzzer, then the web page (``web.Web``: it starts a pairing round before
    the display shows its card), then the spymaster display (when there is one)."""
    compositor = Compositor(
        Layout(25, config.tiles.timer_leds, config.tiles.turn_leds),
        palette_of(config.colours),
    )
    outputs = Outputs([LedOutput(tileboard, compositor), SoundOutput(sounder or Sounder(enabled=False))])
    if web is not None:
        outputs.add(web.output)
    if display is not None:
        outputs.add(ScreenOutput(display, web.output.card if web is not None else None))
    return outputs
