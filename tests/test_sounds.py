"""Buzzer sounds: played step by step as time passes, never by sleeping."""

from buildkit.electrical import MAGNETIC_TRANSDUCER
from codenames_board.sounds import HIGHEST_HZ, LOWEST_HZ, SOUNDS, Sounder


class RecordingBuzzer:
    def __init__(self):
        self.calls = []

    def play(self, hz):
        self.calls.append(hz)

    def stop(self):
        self.calls.append("stop")


def test_a_sound_plays_its_notes_at_their_times_and_then_stops():
    buzzer = RecordingBuzzer()
    sounder = Sounder(buzzer)
    sounder.play("wrong", 10.0)
    assert buzzer.calls == [1568]
    assert sounder.next_change() == 10.12
    sounder.update(10.12)
    assert buzzer.calls == [1568, 1047]
    sounder.update(10.37)
    assert buzzer.calls == [1568, 1047, "stop"]
    assert sounder.next_change() is None


def test_rests_silence_the_buzzer_between_notes():
    buzzer = RecordingBuzzer()
    sounder = Sounder(buzzer)
    sounder.play("timer", 0.0)
    for _ in range(10):
        if sounder.next_change() is None:
            break
        sounder.update(sounder.next_change())
    assert buzzer.calls == [2637, "stop", 2637, "stop", 2637, "stop"]


def test_a_new_sound_replaces_the_one_playing():
    buzzer = RecordingBuzzer()
    sounder = Sounder(buzzer)
    sounder.play("win", 0.0)
    sounder.play("assassin", 0.05)
    assert buzzer.calls == [1568, 2349]


def test_muted_or_without_a_buzzer_nothing_sounds_but_the_sound_is_noted():
    buzzer = RecordingBuzzer()
    muted = Sounder(buzzer, enabled=False)
    muted.play("win", 0.0)
    assert buzzer.calls == [] and muted.played == ["win"] and muted.next_change() is None
    Sounder(None).play("reveal", 0.0)


def test_the_sounds_are_distinct():
    assert len({tuple(notes) for notes in SOUNDS.values()}) == len(SOUNDS)


def test_every_tone_is_where_a_12_mm_transducer_is_loud():
    low, high = MAGNETIC_TRANSDUCER.loud_hz
    tones = [frequency for notes in SOUNDS.values() for frequency, _ in notes if frequency]
    assert low <= LOWEST_HZ <= min(tones) and max(tones) <= HIGHEST_HZ <= high


def test_the_buzzer_plays_every_tone_unclamped():
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from codenames_board.config import parse
    from codenames_board.controls import Controls

    config, factory = parse(""), MockFactory(pin_class=MockPWMPin)
    with Controls(config, lambda event: None, pin_factory=factory) as controls:
        assert controls.buzzer.low <= LOWEST_HZ and HIGHEST_HZ <= controls.buzzer.high
