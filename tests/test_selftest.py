"""codenames-board selftest against mock hardware: a responder plays the maker at the table."""

import os
import queue

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from codenames_board.config import parse  # noqa: E402
from codenames_board.controls import Controls  # noqa: E402
from codenames_board.display import PngOutput  # noqa: E402
from codenames_board.i18n import Translator  # noqa: E402
from codenames_board.selftest import SelfTest, PatternScreen  # noqa: E402
from codenames_board.sounds import SOUNDS  # noqa: E402
from codenames_board.tileboard import VirtualTileBoard  # noqa: E402


@pytest.fixture
def bench(tmp_path):
    config = parse("[controls]\nbounce_ms = 0\n")
    events = queue.Queue()
    factory = MockFactory(pin_class=MockPWMPin)
    controls = Controls(config, events.put, pin_factory=factory)
    board = VirtualTileBoard(on_event=events.put)
    screen = PatternScreen(PngOutput(tmp_path / "display.png", (480, 320)))
    said = []
    yield config, events, factory, controls, board, screen, said
    controls.close()
    screen.close()


def make_test(bench, respond, timeout=0.2, answers=True):
    config, events, factory, controls, board, screen, said = bench
    return SelfTest(
        config, Translator("en"), board, controls, events, screen, say=said.append,
        ask=lambda question: answers, timeout=timeout, led_seconds=0, on_step=respond, sleep=lambda seconds: None,
    )


def button_pin(bench, name):
    config, _, factory, *_ = bench
    return factory.pin(getattr(config.pins, name))


def faithful(bench, skip=(), swap=None):
    """A maker who does what the screen says (but a swapped or dead pad does what it does)."""
    board = bench[4]

    def respond(step, target):
        if step == "tile" and target not in skip:
            board.tap(swap.get(target, target) if swap else target)
        elif step == "button" and target not in skip:
            pin = button_pin(bench, target)
            pin.drive_low()
            pin.drive_high()

    return respond


def test_everything_wired_right_passes_every_step(bench, tmp_path):
    test = make_test(bench, faithful(bench))
    assert test.run()
    said = bench[6]
    assert said[-9:] == [
        "Self test:",
        "  OK     Tile board",
        "         Firmware virtual: 25 tiles, 37 LEDs.",
        "  OK     LED order",
        "  OK     LED colours",
        "  OK     Tiles",
        "  OK     Buttons",
        "  OK     Buzzer",
        "  OK     Display",
    ]
    assert all(result.ok for result in test.results) and len(test.results) == 7


def test_the_leds_light_one_at_a_time_in_chain_order(bench):
    board = bench[4]
    make_test(bench, faithful(bench)).run()
    lit = [[index for index in range(37) if any(frame[3 * index : 3 * index + 3])] for frame in board.frames]
    singles = [led[0] for led in lit if len(led) == 1]
    assert singles[:37] == list(range(37))


def test_a_swapped_and_a_dead_pad_are_named(bench):
    test = make_test(bench, faithful(bench, skip={7}, swap={3: 8}))
    assert not test.run()
    tiles = next(result for result in test.results if result.step == "selftest.step_tiles")
    assert tiles.details == [
        ("selftest.tile_miswired", {"name": "A4", "other": "B4"}),
        ("selftest.tile_dead", {"name": "B3"}),
    ]
    texts = bench[6]
    assert "         Tile A4: touching it reported B4 (pads swapped: check the pad table in wiring/README.md)." in texts
    assert "         Tile B3: no touch (a dead pad: check its wire to the touch controller)." in texts


def test_a_button_that_never_arrives_names_its_pin(bench):
    test = make_test(bench, faithful(bench, skip={"undo"}))
    assert not test.run()
    assert "         UNDO: nothing seen on GPIO 16 (check the button's wires to that pin and to GND)." in bench[6]


def test_a_no_from_the_maker_fails_the_step(bench):
    test = make_test(bench, faithful(bench), answers=False)
    assert not test.run()
    failed = [result.step for result in test.results if not result.ok]
    assert failed == ["selftest.step_leds", "selftest.step_colours", "selftest.step_buzzer", "selftest.step_display"]


def test_every_tile_shows_red_green_and_blue_in_turn_named(bench):
    board = bench[4]
    steps = []
    respond = faithful(bench)
    make_test(bench, lambda step, target: (steps.append((step, target)), respond(step, target))).run()
    assert [target for step, target in steps if step == "colour"] == ["red", "green", "blue"]
    whole = [frame for frame in board.frames if all(any(frame[3 * tile : 3 * tile + 3]) for tile in range(25))]
    assert [tuple(frame[0:3]) for frame in whole] == [(200, 0, 0), (0, 200, 0), (0, 0, 200)]
    said = bench[6]
    assert "Every tile should be red now." in said and said.index("Every tile should be red now.") < said.index(
        "Every tile should be blue now."
    )


def test_wrong_colours_name_the_order_to_try(bench, tmp_path):
    test = make_test(bench, faithful(bench), answers=False)
    test.run()
    colours = next(result for result in test.results if result.step == "selftest.step_colours")
    assert colours.details == [("selftest.colours_wrong", {"order": "GRB", "swap": "RGB"})]
    assert any('set order = "RGB"' in line for line in bench[6])


def test_the_display_shows_the_test_pattern(bench, tmp_path):
    make_test(bench, faithful(bench)).run()
    image = pygame.image.load(str(tmp_path / "display.png"))
    assert image.get_size() == (480, 320)
    assert tuple(image.get_at((20, 40)))[:3] == (255, 255, 255)  # the first colour bar
    assert tuple(image.get_at((470 - 20, 40)))[:3] == (0, 0, 0)  # the last


def test_the_buzzer_sounds_on_its_pin(bench):
    frequencies = []
    pin = button_pin(bench, "buzzer")
    original = pin._set_frequency

    def spy(value):
        if value:
            frequencies.append(round(value))
        original(value)

    pin._set_frequency = spy
    make_test(bench, faithful(bench)).run()
    # Every sound's first note reached the pin (the selftest plays them all).
    assert {round(notes[0][0]) for notes in SOUNDS.values()} <= set(frequencies)


def test_selftest_command_without_a_tile_board_says_what_to_check(tmp_path, run_cli):
    config = tmp_path / "config.toml"
    config.write_text(f'[tiles]\nport = "{tmp_path / "no-pico"}"\n[display]\noutput = "png"\npng = "{tmp_path / "d.png"}"\n')
    result = run_cli(
        "selftest", "--config", config, "--yes", "--timeout", "0.3",
        env={"GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy"},
    )
    assert result.returncode == 1
    assert "  FAILED Tile board" in result.stdout
    assert "No tile board answered: check the USB cable and that the Pico runs our firmware (firmware/README.md)." in result.stdout


# --- selftest --pads: the verdicts (end to end with the firmware: tests/tileboard/test_selftest_pads.py)

from codenames_board.selftest_pads import PadMargins, grid_lines, suggest, suggestion_lines, summary_lines  # noqa: E402
from codenames_board.tileboard import PadSignals  # noqa: E402


def signals(drops, touch=10, missing=()):
    pads = tuple(None if tile in missing else (600 - drops.get(tile, 0), 600) for tile in range(25))
    return PadSignals(touch, touch // 2, 1, pads)


def test_pad_verdicts_compare_the_best_signal_with_the_threshold():
    margins = PadMargins()
    margins.update(signals({0: 20, 1: 19, 2: 11, 3: 10, 4: 4, 5: 3}))
    margins.update(signals({}))  # the finger gone: the best stays
    assert margins.verdicts()[:7] == ["good", "marginal", "marginal", "dead", "dead", "untested", "untested"]
    margins.touched_tile(5)  # a touch between two samples: it did pass the threshold
    assert margins.verdict(5) == "marginal"


def test_a_tile_whose_controller_never_answers_is_dead():
    margins = PadMargins()
    margins.update(signals({}, missing={24}))
    assert margins.verdict(24) == "dead" and margins.now[24] is None


def test_the_pad_grid_and_summary_read_as_the_table():
    tr = Translator("en")
    margins = PadMargins()
    margins.update(signals({12: 31}))
    lines = grid_lines(margins, tr)
    assert lines[0] == "Signal now/best in counts (touch threshold 10, release 5):"
    assert lines[4] == "C   .   0/0     .   0/0     +  31/31    .   0/0     .   0/0"
    assert lines[-1].startswith("+ good (best 20 or more)")
    summary = summary_lines(margins, tr)
    assert summary[1:4] == ["Pads:", "  good (1): C3", "  untested (24): " + " ".join(
        f"{row}{column}" for row in "ABCDE" for column in range(1, 6) if f"{row}{column}" != "C3"
    )]
    assert summary[5:] == [tr("selftest.pads_suggest"), "[tiles.thresholds]", "C3 = [15, 7]"]


def test_suggested_thresholds_are_half_the_best_signal_and_parse_as_configuration():
    margins = PadMargins()
    margins.update(signals({0: 60, 1: 20, 2: 12, 3: 7, 4: 2}))
    margins.touched_tile(3)
    suggested, weak = suggest(margins)
    assert suggested == {0: (30, 15), 2: (6, 3)}  # tile 1's (10, 5) are the global ones already
    assert weak == [3]  # 7 counts: a threshold of 3 would not tell a finger from noise; tile 4 untested
    lines = suggestion_lines(margins, Translator("en"))
    pasted = parse("\n".join(lines[2:-2]))
    assert pasted.tiles.thresholds == suggested
    assert lines[-1] == Translator("en")("selftest.pads_suggest_weak", tiles="A4")


def test_a_tile_with_its_own_threshold_is_judged_against_it():
    margins = PadMargins()
    pads = tuple((600 - (15 if tile == 7 else 0), 600) for tile in range(25))
    own = tuple((8, 4) if tile == 7 else None for tile in range(25))
    margins.update(PadSignals(20, 10, 1, pads, own))
    assert margins.verdict(7) == "marginal"  # 15 counts: over its own 8, under twice it
    assert PadSignals(20, 10, 1, pads, own).thresholds(7) == (8, 4)
    assert PadSignals(20, 10, 1, pads, own).thresholds(8) == (20, 10)


def test_firmware_too_old_for_the_configuration_is_named_in_the_summary(bench):
    from codenames_board.tileboard import BoardProblem

    test = make_test(bench, faithful(bench))
    bench[1].put(BoardProblem("firmware_tunepad", "TUNEPAD"))  # as the serial driver posts it after TUNED
    test.run()
    assert "         The tile board's firmware cannot set thresholds per tile: codenames-board firmware install" in bench[6]
