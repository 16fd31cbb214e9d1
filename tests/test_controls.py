"""The Pi's controls on gpiozero's mock pins: pressing a button posts an event, the buzzer sings."""

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from codenames_board.config import parse
from codenames_board.controls import Controls
from codenames_board.table import ButtonDown, ButtonUp, EncoderStep


@pytest.fixture
def factory():
    return MockFactory(pin_class=MockPWMPin)


def test_each_button_posts_down_and_up_from_its_configured_pin(factory):
    config = parse("[controls]\nbounce_ms = 0\n")
    events = []
    with Controls(config, events.append, pin_factory=factory):
        for name in ("sand_timer", "end_turn", "clue_down", "clue_up", "clue_confirm", "undo", "new_game"):
            pin = factory.pin(getattr(config.pins, name))
            pin.drive_low()  # buttons connect the pin to ground
            pin.drive_high()
            assert events[-2:] == [ButtonDown(name), ButtonUp(name)]


def test_the_encoder_steps_and_its_push_confirms(factory):
    config = parse('[controls]\nclue_input = "encoder"\nbounce_ms = 0\n')
    events = []
    with Controls(config, events.append, pin_factory=factory):
        a, b = factory.pin(config.pins.encoder_a), factory.pin(config.pins.encoder_b)
        for pin, level in ((a, 0), (b, 0), (a, 1), (b, 1)):  # one detent clockwise
            pin.drive_low() if level == 0 else pin.drive_high()
        for pin, level in ((b, 0), (a, 0), (b, 1), (a, 1)):  # and one back
            pin.drive_low() if level == 0 else pin.drive_high()
        push = factory.pin(config.pins.encoder_push)
        push.drive_low()
        push.drive_high()
    assert events == [EncoderStep(1), EncoderStep(-1), ButtonDown("clue_confirm"), ButtonUp("clue_confirm")]


def test_the_buzzer_plays_tones_within_its_range_and_stops(factory):
    config = parse("")
    with Controls(config, lambda event: None, pin_factory=factory) as controls:
        pin = factory.pin(config.pins.buzzer)
        controls.buzzer.play(880)
        assert pin.frequency == pytest.approx(880) and pin.state == 0.5
        controls.buzzer.play(20000)  # out of range: the highest it can
        assert pin.frequency == pytest.approx(3520)
        controls.buzzer.stop()
        assert pin.frequency is None


def test_the_status_led_shows_readiness(factory):
    config = parse("")
    with Controls(config, lambda event: None, pin_factory=factory) as controls:
        controls.ready(True)
        assert factory.pin(config.pins.status_led).state
        controls.ready(False)
        assert not factory.pin(config.pins.status_led).state


def test_controls_that_are_not_fitted_are_not_built(factory):
    config = parse("[pins]\nbuzzer = false\nstatus_led = false\n")
    with Controls(config, lambda event: None, pin_factory=factory) as controls:
        assert controls.buzzer is None and controls.status_led is None
        controls.ready(True)


def test_closing_frees_the_pins(factory):
    config = parse("")
    controls = Controls(config, lambda event: None, pin_factory=factory)
    controls.close()
    controls.close()
    again = Controls(config, lambda event: None, pin_factory=factory)  # the same pins can be claimed again
    again.close()


def test_low_notes_are_frequencies_not_midi_numbers(factory):
    config = parse("")
    with Controls(config, lambda event: None, pin_factory=factory) as controls:
        controls.buzzer.play(110)  # A2, below the range: as a MIDI note number, 110 would be 4699 Hz, above it
        assert factory.pin(config.pins.buzzer).frequency == pytest.approx(controls.buzzer.low)
