"""The Pi's own controls, built with gpiozero from the pin map in the config.

Buttons, the rotary encoder, the buzzer and the status LED. gpiozero's
callbacks only post small events (ButtonDown, ButtonUp, EncoderStep) to the
controller's queue; all decisions happen in the controller's one thread.
Off the Pi, GPIOZERO_PIN_FACTORY=mock (gpiozero's MockFactory) stands in.
"""

from __future__ import annotations

from typing import Callable

from .config import BUTTON_PINS, Config
from .gestures import ButtonDown, ButtonUp, EncoderStep


class BuzzerAdapter:
    """A gpiozero TonalBuzzer as the Sounder wants it: play(hz), stop()."""

    def __init__(self, buzzer) -> None:
        self.buzzer = buzzer
        self.low = buzzer.min_tone.frequency
        self.high = buzzer.max_tone.frequency

    def play(self, hz: float) -> None:
        from gpiozero.tones import Tone

        # A bare number below 128 would be read as a MIDI note: always say it is a frequency.
        self.buzzer.play(Tone(frequency=min(self.high, max(self.low, float(hz)))))

    def stop(self) -> None:
        self.buzzer.stop()


class Controls:
    """Every control the config names; ``post`` receives their events (from gpiozero's threads)."""

    def __init__(self, config: Config, post: Callable[[object], None], pin_factory=None) -> None:
        from gpiozero import LED, Button, RotaryEncoder, TonalBuzzer

        self.devices: list = []
        pins = config.pins
        bounce = config.controls.bounce_ms / 1000 or None
        names = ["sand_timer", "end_turn", "undo", "new_game"]
        if config.controls.clue_input == "buttons":
            names += list(BUTTON_PINS)
        for name in names:
            button = Button(getattr(pins, name), pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
            button.when_pressed = self._poster(post, ButtonDown(name))
            button.when_released = self._poster(post, ButtonUp(name))
            self.devices.append(button)
        self.encoder = None
        if config.controls.clue_input == "encoder":
            self.encoder = RotaryEncoder(pins.encoder_a, pins.encoder_b, max_steps=0, pin_factory=pin_factory)
            self.encoder.when_rotated_clockwise = self._poster(post, EncoderStep(1))
            self.encoder.when_rotated_counter_clockwise = self._poster(post, EncoderStep(-1))
            push = Button(pins.encoder_push, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
            push.when_pressed = self._poster(post, ButtonDown("clue_confirm"))
            push.when_released = self._poster(post, ButtonUp("clue_confirm"))
            self.devices += [self.encoder, push]
        self.buzzer = None
        if pins.buzzer is not None:
            # A6 (1760 Hz) one octave either way: 880-3520 Hz, where a 12 mm transducer is loud (sounds.py)
            tonal = TonalBuzzer(pins.buzzer, mid_tone="A6", octaves=1, pin_factory=pin_factory)
            self.devices.append(tonal)
            self.buzzer = BuzzerAdapter(tonal)
        self.status_led = None
        if pins.status_led is not None:
            self.status_led = LED(pins.status_led, pin_factory=pin_factory)
            self.devices.append(self.status_led)

    @staticmethod
    def _poster(post, event):
        def fire():
            post(event)

        return fire

    def ready(self, on: bool) -> None:
        if self.status_led is not None:
            self.status_led.value = on

    def close(self) -> None:
        for device in self.devices:
            device.close()
        self.devices = []

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
