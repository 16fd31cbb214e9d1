"""The sand timer's run: a countdown per phase, shown in whole seconds, that says when it ran out."""

from __future__ import annotations

from .engine import Phase
from .ui import SandTimer, TimerMode


class TimerRun:
    """``start(phase, now)``, ``stop()``; ``tick(now)`` is True once, when the sand runs out."""

    def __init__(self, clue_seconds: float, guess_seconds: float, mode: str, auto_start: bool = False) -> None:
        self.seconds = {Phase.CLUE: clue_seconds, Phase.GUESS: guess_seconds}
        self.mode = TimerMode(mode)
        self.auto_start = auto_start  # each phase starts its countdown by itself
        self._phase: tuple | None = None
        self.shown: SandTimer | None = None  # None: not running, nor ran out in this phase
        self._until: float | None = None
        self._total = 0.0

    def start(self, phase: Phase, now: float) -> bool:
        """Start the phase's countdown (False: this phase has none)."""
        seconds = self.seconds.get(phase, 0)
        if not seconds:
            return False
        self._total = float(seconds)
        self._until = now + seconds
        self.tick(now)
        return True

    def follow(self, game, now: float) -> None:
        """After every change: a new phase (or the next cover) stops the countdown and, with auto_start,
        starts its own."""
        phase = (game.turn, game.phase, len(game.revealed) if game.phase is Phase.COVER else 0)
        if phase != self._phase:
            self._phase = phase
            self.stop()
            if self.auto_start:
                self.start(game.phase, now)

    def stop(self) -> None:
        self._until = None
        self.shown = None

    def tick(self, now: float) -> bool:
        """Show the seconds left; True when the sand has just run out."""
        if self._until is None:
            return False
        left = self._until - now
        if left > 0:
            shown = float(int(left) + (1 if left > int(left) else 0))  # whole seconds, rounded up
            self.shown = SandTimer(self._total, shown, self.mode)
            return False
        self._until = None
        self.shown = SandTimer(self._total, 0.0, self.mode)
        return True

    def next_wake(self, now: float) -> float | None:
        """When the shown second next changes."""
        if self._until is None:
            return None
        left = self._until - now
        if left <= 0:
            return None
        # The shown (rounded-up) second changes when ``left`` next falls to a whole number: a whole
        # second from now if it is whole now (it was returning ``now`` itself then: a loop that went to
        # this wake went nowhere, and the real table spun), never less than a microsecond ahead.
        step = left - int(left)
        return now + (step if step > 1e-6 else 1.0)
