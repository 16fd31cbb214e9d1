"""The table's buttons and encoder: gestures in, intentions out.

``Gestures`` turns a press, a click (press and release), a hold and the encoder's
clicks into what the players mean: an intention's name (``"confirm"``, ``"end_turn"``,
``"ask_penalty"`` ...) and, for ``"step"``, how far. Whether the rules allow it is the
table's business. Holds are timed here: ``due(now)`` gives the holds that just became
holds, ``next_wake()`` when the next one will.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import UNLIMITED, Phase

BUTTONS = ("sand_timer", "end_turn", "clue_down", "clue_up", "clue_confirm", "undo", "new_game")
CLUE_STEPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, UNLIMITED, 0)  # what clue down/up step through
PENALTY_HOLD_SECONDS = 2.0  # END TURN held this long asks about an illegal clue
UNPAIR_HOLD_SECONDS = 2.0  # UNDO held this long shows the phones' pairing and asks to unpair them (web page on)


@dataclass(frozen=True)
class ButtonDown:
    name: str


@dataclass(frozen=True)
class ButtonUp:
    name: str


@dataclass(frozen=True)
class EncoderStep:
    steps: int  # +1 a click clockwise (up), -1 anticlockwise


@dataclass(frozen=True)
class Intent:
    """An intention from another input than the buttons: a paired spymaster's phone gives
    ``("give_clue", count, word)``, ``("set_words", words)``, ``("redeal", tile)``; the simulator's
    right click ``("redeal", tile)`` too. The table weighs it as it weighs a button's."""

    intention: tuple


Intention = tuple  # (name,) or ("step", steps)

HELD = {"new_game": ("new_game",), "end_turn": ("ask_penalty",), "undo": ("ask_unpair",)}  # what a hold means
CLICKED = {"end_turn": ("end_turn",), "undo": ("ask_undo",)}  # a holdable button let go before its hold
PRESSED = {"clue_down": ("step", -1), "clue_up": ("step", 1), "clue_confirm": ("give_clue",), "undo": ("ask_undo",)}


class Gestures:
    """When each button went down, and which of the held ones already counted as held."""

    def __init__(self, hold_seconds: dict[str, float]) -> None:
        self.hold_seconds = hold_seconds  # button -> seconds that make a press a hold (buttons in HELD only)
        self._pressed: dict[str, float] = {}
        self._held: set[str] = set()

    def event(self, event, now: float, asking: bool) -> Intention | None:
        """A ButtonDown, ButtonUp or EncoderStep; ``asking``: a question waits for an answer."""
        kind = type(event)
        if kind is EncoderStep:
            return ("step", event.steps)
        if kind is ButtonDown:
            self._pressed[event.name] = now
            return self._down(event.name, asking)
        if kind is ButtonUp and self._clicked(event.name) and event.name in CLICKED and event.name in self.hold_seconds:
            return ("dismiss",) if asking else CLICKED[event.name]
        return None

    def _down(self, name: str, asking: bool) -> Intention | None:
        if name == "sand_timer":
            return ("start_timer",)
        if name in self.hold_seconds:
            return None  # decided on release or when held
        if asking:
            return ("confirm",) if name == "clue_confirm" else ("dismiss",)  # any other button says no
        return PRESSED.get(name)

    def _clicked(self, name: str) -> bool:
        """A button let go: True for a click (it went down here and was not held)."""
        pressed = self._pressed.pop(name, None)
        if name in self._held:
            self._held.discard(name)
            return False
        return pressed is not None

    def due(self, now: float) -> list[Intention]:
        """What the buttons held long enough just now mean (each hold once per press)."""
        held = []
        for name, seconds in self.hold_seconds.items():
            pressed = self._pressed.get(name)
            if pressed is not None and name not in self._held and now - pressed >= seconds:
                self._held.add(name)
                held.append(HELD[name])
        return held

    def next_wake(self) -> float | None:
        times = [
            self._pressed[name] + seconds
            for name, seconds in self.hold_seconds.items()
            if name in self._pressed and name not in self._held
        ]
        return min(times) if times else None


class ClueDial:
    """The number on the spymaster panel, not yet confirmed: 1 at each clue phase, stepped by DOWN and UP
    (or the encoder) through ``CLUE_STEPS``; None outside the clue phase."""

    def __init__(self) -> None:
        self.draft = None

    @property
    def count(self):
        return self.draft if self.draft is not None else 1

    def follow(self, phase: Phase) -> None:
        self.draft = self.count if phase is Phase.CLUE else None

    def step(self, steps: int) -> None:
        self.draft = CLUE_STEPS[(CLUE_STEPS.index(self.count) + steps) % len(CLUE_STEPS)]
