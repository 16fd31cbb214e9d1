"""Short, distinct buzzer sounds, played without ever blocking the controller.

A sound is a list of (frequency in Hz, seconds); frequency 0 is a rest. The
Sounder turns the buzzer on and off at the right moments when the controller
calls ``update(now)``, and says when it next needs to (``next_change``).
The buzzer is anything with ``play(hz)`` and ``stop()``: a gpiozero
TonalBuzzer behind a small adapter on the Pi, the mixer in the simulator.
"""

from __future__ import annotations

# A 12 mm magnetic transducer is loud around its resonance (about 2 kHz) and 10 dB or more quieter
# below 1 kHz: every tone sits between LOWEST_HZ and HIGHEST_HZ (the melodies of the first sounds,
# 110-1319 Hz, moved up two or three octaves, the intervals kept). gpiozero's TonalBuzzer is built
# for this range (controls.py); the transducer's figures are in buildkit/electrical.py.
LOWEST_HZ, HIGHEST_HZ = 1000, 3520

SOUNDS: dict[str, list[tuple[float, float]]] = {
    "reveal": [(2093, 0.07)],  # a short tick: the team's own agent
    "wrong": [(1568, 0.12), (1047, 0.25)],  # falling: bystander or the other team's agent
    "assassin": [(2349, 0.25), (0, 0.05), (1760, 0.25), (0, 0.05), (1319, 0.6)],  # falling fourths, slow
    "win": [(1568, 0.1), (1976, 0.1), (2349, 0.1), (3136, 0.35)],  # a rising major arpeggio
    "timer": [(2637, 0.1), (0, 0.08), (2637, 0.1), (0, 0.08), (2637, 0.3)],
    "refused": [(1109, 0.08)],
    "click": [(3520, 0.02)],  # a button took effect
}


class Sounder:
    def __init__(self, buzzer=None, enabled: bool = True) -> None:
        self.buzzer = buzzer
        self.enabled = enabled
        self._steps: list[tuple[float, float]] = []  # (start time, frequency), then a final (end, 0)
        self._playing: float | None = None
        self.played: list[str] = []  # names, in order (for tests and the log)

    def play(self, name: str, now: float) -> None:
        self.played.append(name)
        if not self.enabled or self.buzzer is None:
            return
        at, steps = now, []
        for frequency, seconds in SOUNDS[name]:
            steps.append((at, frequency))
            at += seconds
        steps.append((at, 0))
        self._steps = steps
        self.update(now)

    def update(self, now: float) -> None:
        """Set the buzzer to what the current sound wants at ``now``."""
        wanted: float | None = None
        while self._steps and self._steps[0][0] <= now:
            wanted = self._steps.pop(0)[1]
        if wanted is None or wanted == self._playing:
            return
        self._playing = wanted
        if wanted:
            self.buzzer.play(wanted)
        else:
            self.buzzer.stop()

    def next_change(self) -> float | None:
        return self._steps[0][0] if self._steps else None

    def stop(self) -> None:
        self._steps = []
        if self.buzzer is not None and self._playing:
            self.buzzer.stop()
        self._playing = None
