"""The simulator: the real runtime on a laptop, with the hardware drawn in a window.

The same Runtime as ``codenames-board run``: gpiozero's mock pins stand for
the buttons (a click drives the pin low, as a finger on the button would),
the virtual tile board stands for the Pico, and the spymaster display renders
onto an offscreen surface that the window shows beside the table.
"""

from __future__ import annotations

import dataclasses
import threading
import time

import pygame

from ..config import SIM_STATE, Config
from ..controller import Runtime
from ..deal import Deal
from ..display import render
from ..display.outputs import DisplayOutput
from ..engine import TILES, tile_name
from ..gestures import Intent
from ..tileboard import VirtualTileBoard
from ..words import FILE, choose_words, pack_label, place_name
from .audio import MixerBuzzer
from .scene import SimScene

ENCODER_DETENT = ((0, 0), (1, 0), (0, 1), (1, 1))  # (a or b, level): one click clockwise


class FakeClock:
    """A clock that moves only when told: scripted runs take no real time."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class OffscreenOutput(DisplayOutput):
    """The spymaster display rendered off screen; the window shows a copy of its last frame."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self._front = pygame.Surface(size)
        self._lock = threading.Lock()
        self.on_change = None

    def _show(self, frame: pygame.Surface) -> None:
        with self._lock:
            self._front.blit(frame, (0, 0))
        if self.on_change is not None:
            self.on_change()

    def front(self) -> pygame.Surface:
        with self._lock:
            return self._front.copy()


class DeferredScreen:
    """The spymaster display for the simulator: the controller's thread only hands over a snapshot;
    the window's thread renders it (pygame's fonts must not be used from two threads at once)."""

    def __init__(self, output: OffscreenOutput, tr, rotate: bool) -> None:
        self.output = output
        self.tr = tr
        self.rotate = rotate
        self._pending = None
        self._lock = threading.Lock()

    def update(self, game, ui) -> None:
        with self._lock:
            self._pending = (game, ui)  # the table hands over a copy of its game
        if self.output.on_change is not None:
            self.output.on_change()

    def render_pending(self) -> None:
        """In the window's thread: draw the latest snapshot, if there is a new one."""
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            game, ui = pending
            render(self.output.surface, game, ui, self.tr, rotate=self.rotate)
            self.output.show()

    def close(self) -> None:
        self.output.close()


class Simulator:
    def __init__(
        self,
        config: Config,
        tr,
        *,
        seed: int | None = None,
        words: list[str] | None = None,
        pack: str | None = None,
        clock=time.monotonic,
        sound: bool = True,
    ) -> None:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        self.config = config = dataclasses.replace(config, state_dir=config.state_dir / SIM_STATE)
        self.tr = tr
        self.seeded = seed is not None
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.board = VirtualTileBoard(status_leds=config.tiles.timer_leds + config.tiles.turn_leds)
        self.output = OffscreenOutput(tuple(config.display.size))
        self.screen = screen = DeferredScreen(self.output, tr, config.display.rotate)
        self.buzzer = MixerBuzzer.open() if sound and config.game.sound else None
        # The same keys and words as `console --seed` and `run --seed` deal. ``words`` and ``pack``: what
        # --words or [words] pack named (a list given without its pack is one of the players' own);
        # the dealer keeps its place per language and pack.
        if words is None:
            pack = pack or config.words.pack
            words = choose_words(pack, tr.language)
        pack = pack_label(pack) if pack is not None else FILE
        self.deal = Deal(seed, words, config.state_dir / place_name(pack, tr.language, words))
        self.runtime = Runtime(
            config, tr, pin_factory=self.factory, tileboard=self.board, display=screen, clock=clock,
            buzzer=self.buzzer, deal_words=self.deal.words, another_word=self.deal.another,
        )
        self.runtime.table.new_seed = self.deal.key_seed
        self.runtime.table.word_pack = pack
        self.runtime.table.choose_pack = lambda name: self.deal.choose(name, tr.language)  # a phone's choice
        self.show_spymaster = True
        self.help = False
        self.pressed: set[str] = set()
        self.inputs_handled = 0  # mouse, key and quit events the window took so far (tests wait on it)

    @property
    def table(self):
        return self.runtime.table

    @property
    def controller(self):
        return self.runtime.controller

    def start(self) -> None:
        self.runtime.start(resume=not self.seeded)

    def close(self) -> None:
        self.runtime.close()
        if self.buzzer is not None:
            self.buzzer.close()

    # --- the hardware, driven as fingers would

    def _pin(self, name: str):
        return self.factory.pin(getattr(self.config.pins, name))

    def press(self, name: str) -> None:
        """A finger on a button (the encoder's push for clue_confirm with an encoder)."""
        if self.config.controls.clue_input == "encoder" and name in ("clue_down", "clue_up"):
            self.turn(1 if name == "clue_up" else -1)
            self.pressed.add(name)
            return
        pin_name = "encoder_push" if self.config.controls.clue_input == "encoder" and name == "clue_confirm" else name
        self.pressed.add(name)
        self._pin(pin_name).drive_low()

    def release(self, name: str) -> None:
        if name not in self.pressed:
            return
        self.pressed.discard(name)
        if self.config.controls.clue_input == "encoder" and name in ("clue_down", "clue_up"):
            return
        pin_name = "encoder_push" if self.config.controls.clue_input == "encoder" and name == "clue_confirm" else name
        self._pin(pin_name).drive_high()

    def turn(self, direction: int) -> None:
        """One click of the rotary encoder: its two pins in quadrature, as the real one makes them."""
        pins = (self._pin("encoder_a"), self._pin("encoder_b"))
        if direction < 0:
            pins = pins[::-1]
        for which, level in ENCODER_DETENT:
            pin = pins[which]
            pin.drive_high() if level else pin.drive_low()

    def touch(self, tile: int) -> None:
        self.board.press(tile)

    def lift(self, tile: int) -> None:
        self.board.release(tile)

    def redeal(self, tile: int) -> None:
        """Another word for a tile, before the first clue (a right click on it)."""
        self.controller.post(Intent(("redeal", tile)))

    # --- what the window shows

    def scene(self) -> SimScene:
        """What the window shows now; call it from the window's thread (it renders the display)."""
        self.screen.render_pending()
        with self.board._lock:
            frame = self.board.frames[-1] if self.board.frames else bytes(3 * self.board.leds)
        colours = [tuple(frame[at : at + 3]) for at in range(0, len(frame), 3)]
        timer_leds = self.config.tiles.timer_leds
        words = self.table.words or [tile_name(tile) for tile in range(TILES)]
        return SimScene(
            words=tuple(words),
            tiles=tuple(colours[:TILES]),
            timer_leds=tuple(colours[TILES : TILES + timer_leds]),
            turn_leds=tuple(colours[TILES + timer_leds :]),
            spymaster=self.output.front() if self.show_spymaster else None,
            pressed=frozenset(self.pressed),
            clue_input=self.config.controls.clue_input,
            help=self.help,
            board_connected=self.board.connected,
        )
