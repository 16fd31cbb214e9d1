"""The LED compositor: frames as a pure function of the game, the UI state and a passed-in time."""

import random

import pytest

from codenames_board.colours import BLACK, COLOUR_BLIND, BadColour, Palette, parse_colour, scale
from codenames_board.compositor import (
    DIP_EDGES,
    DIP_PERIOD_S,
    FPS,
    KEY_DIM,
    REVEAL_S,
    STROBE_S,
    SWEEP_S,
    TIMER_FLASH_S,
    Compositor,
    Layout,
    TimerExpired,
    TouchRefused,
)
from codenames_board.engine import UNLIMITED, Clue, Key, Penalty, Phase, Team, TileCovered, Touch, new_game
from codenames_board.ui import SandTimer, UiState

KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA:red"  # red 0-8, blue 9-16, bystanders 17-23, assassin 24
RED_AGENT, BLUE_AGENT, BYSTANDER, ASSASSIN = 0, 9, 17, 24
LEDS = 25 + 10 + 2
PALETTE = Palette()
UI = UiState()


def table(variant="classic"):
    return new_game(Key.from_text(KEY), variant), Compositor(Layout(), PALETTE)


def play(game, compositor, action, now):
    events = game.play(action)
    for event in events:
        compositor.notice(event, now)
    return events


def tile(frame, index):
    return tuple(frame[3 * index : 3 * index + 3])


def tiles(frame):
    return [tile(frame, index) for index in range(25)]


def timer_bar(frame):
    return [tile(frame, 25 + index) for index in range(10)]


def turn_leds(frame):
    return [tile(frame, 35 + index) for index in range(2)]


def red_wins(game, compositor, now):
    """Red reveals all nine agents, one a second from ``now``; returns when the last one was touched."""
    play(game, compositor, Clue(UNLIMITED), now)
    for agent in range(9):
        play(game, compositor, Touch(agent), now + agent)
    return now + 8


# --- tiles


@pytest.mark.parametrize(
    ("touched", "colour"),
    [(RED_AGENT, PALETTE.red), (BLUE_AGENT, PALETTE.blue), (BYSTANDER, PALETTE.bystander), (ASSASSIN, PALETTE.assassin)],
)
def test_each_identity_shows_its_colour_once_its_animation_ends(touched, colour):
    game, compositor = table()
    play(game, compositor, Clue(2), 10.0)
    play(game, compositor, Touch(touched), 10.0)
    assert tile(compositor.frame(game, UI, 10.0 + STROBE_S + SWEEP_S + 0.5), touched) == colour


def test_reveal_flashes_at_once_then_settles_exactly_when_it_ends():
    game, compositor = table()
    play(game, compositor, Clue(2), 0.0)
    play(game, compositor, Touch(RED_AGENT), 5.0)
    first = tile(compositor.frame(game, UI, 5.0), RED_AGENT)
    midway = tile(compositor.frame(game, UI, 5.0 + REVEAL_S / 2), RED_AGENT)
    assert first != PALETTE.idle and first[0] == 255  # the touch shows in the very first frame
    assert midway not in (PALETTE.red, first)
    # the flash fades out quadratically: a few frames before its end it still differs from red
    assert tile(compositor.frame(game, UI, 5.0 + REVEAL_S - 3 / FPS), RED_AGENT) != PALETTE.red
    assert tile(compositor.frame(game, UI, 5.0 + REVEAL_S), RED_AGENT) == PALETTE.red
    assert compositor.next_change(game, UI, 5.0) == pytest.approx(5.0 + 1 / FPS)
    assert compositor.next_change(game, UI, 5.0 + REVEAL_S - 0.01) == pytest.approx(5.0 + REVEAL_S)
    assert compositor.next_change(game, UI, 5.0 + REVEAL_S) is None


def test_assassin_strobes_then_settles_on_a_dim_colour_no_other_identity_uses():
    game, compositor = table()
    play(game, compositor, Clue(1), 0.0)
    play(game, compositor, Touch(ASSASSIN), 1.0)
    seen = [tile(compositor.frame(game, UI, 1.0 + step / 20), ASSASSIN) for step in range(int(STROBE_S * 20))]
    assert set(seen) == {PALETTE.assassin_strobe, BLACK}
    assert seen[0] == PALETTE.assassin_strobe and seen.count(BLACK) >= 10  # many flashes, not one
    assert tile(compositor.frame(game, UI, 1.0 + STROBE_S), ASSASSIN) == PALETTE.assassin
    others = [PALETTE.red, PALETTE.blue, PALETTE.bystander, PALETTE.idle, PALETTE.assassin_strobe]
    assert PALETTE.assassin not in others
    assert sum(PALETTE.assassin) < min(sum(PALETTE.red), sum(PALETTE.blue), sum(PALETTE.bystander))


def test_the_winner_sweep_waits_until_the_assassin_strobe_is_over():
    game, compositor = table()
    play(game, compositor, Clue(1), 0.0)
    play(game, compositor, Touch(ASSASSIN), 1.0)
    during_strobe = compositor.frame(game, UI, 1.0 + STROBE_S - 0.05)
    assert tiles(during_strobe)[:24] == [PALETTE.idle] * 24  # nothing distracts from the assassin
    after = compositor.frame(game, UI, 1.0 + STROBE_S + SWEEP_S)
    assert tile(after, BLUE_AGENT) == scale(PALETTE.blue, KEY_DIM)
    assert turn_leds(after) == [PALETTE.turn_blue] * 2  # red touched the assassin: blue wins


def test_unrevealed_tiles_glow_idle_and_a_quiet_table_needs_no_redraw():
    game, compositor = table()
    assert tiles(compositor.frame(game, UI, 3.0)) == [PALETTE.idle] * 25
    assert compositor.next_change(game, UI, 3.0) is None
    dark = Compositor(Layout(), Palette(idle=BLACK))
    assert tiles(dark.frame(game, UI, 3.0)) == [BLACK] * 25


def test_covered_tiles_show_like_revealed_ones():
    game, compositor = table()
    play(game, compositor, Penalty(), 0.0)  # an illegal clue: blue may cover one of its agents
    events = play(game, compositor, Touch(BLUE_AGENT), 1.0)
    assert isinstance(events[0], TileCovered)
    assert tile(compositor.frame(game, UI, 1.0 + REVEAL_S), BLUE_AGENT) == PALETTE.blue


def test_winner_sweeps_across_the_grid_then_the_whole_key_shows_unrevealed_dimmer():
    game, compositor = table()
    last = red_wins(game, compositor, 0.0)
    assert game.outcome.winner is Team.RED
    start = last + REVEAL_S  # the last agent's flash plays out first
    before = compositor.frame(game, UI, start - 0.01)
    assert tile(before, 20) == PALETTE.idle  # a bystander (bottom left): no key yet
    midway = compositor.frame(game, UI, start + SWEEP_S / 2)
    assert tile(midway, 20) == PALETTE.red  # on the wave's crest: the middle diagonal
    assert tile(midway, ASSASSIN) == PALETTE.idle  # ahead of the wave
    assert compositor.next_change(game, UI, start + SWEEP_S / 2) == pytest.approx(start + SWEEP_S / 2 + 1 / FPS)
    after = compositor.frame(game, UI, start + SWEEP_S)
    assert tiles(after)[:9] == [PALETTE.red] * 9
    assert tile(after, BLUE_AGENT) == scale(PALETTE.blue, KEY_DIM)
    assert tile(after, BYSTANDER) == scale(PALETTE.bystander, KEY_DIM)
    assert tile(after, ASSASSIN) == scale(PALETTE.assassin, KEY_DIM)
    for unrevealed, full in ((BLUE_AGENT, PALETTE.blue), (BYSTANDER, PALETTE.bystander), (ASSASSIN, PALETTE.assassin)):
        assert 0 < sum(tile(after, unrevealed)) < sum(full)
    assert turn_leds(after) == [PALETTE.turn_red] * 2
    # From here the key stands still but for the assassin's dip (see below): its first edge is the next change.
    assert compositor.next_change(game, UI, start + SWEEP_S) == pytest.approx(start + SWEEP_S + DIP_EDGES[0][0])


def test_a_game_resumed_after_its_end_shows_the_key_at_once():
    game, _ = table()
    red_wins(game, Compositor(), 0.0)
    fresh = Compositor()
    assert tile(fresh.frame(game, UI, 50.0), BLUE_AGENT) == scale(PALETTE.blue, KEY_DIM)
    period = 33 * DIP_PERIOD_S  # no sweep: the assassin's dip runs at once, its periods counted from 0
    assert tile(fresh.frame(game, UI, period + 0.5), ASSASSIN) == scale(PALETTE.assassin, KEY_DIM)
    assert tile(fresh.frame(game, UI, period + 1.2), ASSASSIN) == BLACK


def test_undo_cancels_a_reveal_animation_and_a_sweep():
    game, compositor = table()
    play(game, compositor, Clue(2), 0.0)
    play(game, compositor, Touch(RED_AGENT), 1.0)
    compositor.notice(game.undo()[0], 1.1)
    assert not game.is_revealed(RED_AGENT)
    assert tile(compositor.frame(game, UI, 1.1), RED_AGENT) == PALETTE.idle
    assert compositor.next_change(game, UI, 1.1) is None

    game, compositor = table()
    last = red_wins(game, compositor, 0.0)
    compositor.notice(game.undo()[0], last + 1.0)
    assert not game.is_over
    frame = compositor.frame(game, UI, last + 1.0)
    assert tiles(frame)[8:] == [PALETTE.idle] * 17  # no wave, no key
    assert compositor.next_change(game, UI, last + 1.0) is None



# --- after the game: the assassin's dip, a mark that is not colour alone


def assassin_ends(game, compositor, now):
    """The starting team (red) touches the assassin at ``now``; returns when the sweep after its strobe ends."""
    play(game, compositor, Clue(1), now)
    play(game, compositor, Touch(ASSASSIN), now)
    return now + STROBE_S + SWEEP_S


def red_wins_then_sweeps(game, compositor, now):
    return red_wins(game, compositor, now) + REVEAL_S + SWEEP_S


ENDINGS = {"red wins": red_wins_then_sweeps, "assassin touched": assassin_ends}
PALETTES = {"standard": Palette(), "colourblind": Palette(**COLOUR_BLIND)}


def expected_dip_level(into):
    """The dip's brightness ``into`` seconds after a period began, as the pattern is specified."""
    level = 1.0
    for edge, then in DIP_EDGES:
        if into >= edge:
            level = then
    return level


@pytest.mark.parametrize("palette_name", PALETTES)
@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("variant", ["classic", "duo"])
def test_after_the_sweep_the_assassin_dips_slowly_to_dark_and_every_other_tile_stays_steady(variant, ending, palette_name):
    palette = PALETTES[palette_name]
    game, compositor = new_game(Key.from_text(KEY), variant), Compositor(Layout(), palette)
    swept = ENDINGS[ending](game, compositor, 10.0)
    assert game.is_over
    steady = compositor.frame(game, UI, swept)
    shown = tile(steady, ASSASSIN)  # the revealed assassin's colour, or the key's dimmer one
    assert shown == (palette.assassin if game.is_revealed(ASSASSIN) else scale(palette.assassin, KEY_DIM))
    others = [index for index in range(LEDS) if index != ASSASSIN]
    seen = []
    for step in range(int(3 * DIP_PERIOD_S * 100)):  # three periods, every 10 ms, on a fake clock
        now = swept + step / 100
        frame = compositor.frame(game, UI, now)
        assert [tile(frame, index) for index in others] == [tile(steady, index) for index in others]
        into = round(step / 100 % DIP_PERIOD_S, 6)
        seen.append(tile(frame, ASSASSIN))
        assert seen[-1] == (shown if expected_dip_level(into) == 1.0 else scale(shown, expected_dip_level(into)))
    # Calm: it is lit most of the time, dark for a moment once a period, never a quick flicker.
    assert seen.count(shown) / len(seen) == pytest.approx(DIP_EDGES[0][0] / DIP_PERIOD_S, abs=0.01)
    assert seen.count(BLACK) == 3 * 30 and 1 / DIP_PERIOD_S < 1.0
    runs, last = [], None
    for colour in seen:
        if colour != last:
            runs.append(0)
            last = colour
        runs[-1] += 1
    assert min(runs) >= 10  # no colour lasts less than 0.1 s


def test_the_dip_wakes_the_controller_only_at_its_edges():
    game, compositor = table()
    swept = red_wins_then_sweeps(game, compositor, 0.0)
    now, wakes = swept, []
    while now < swept + 10 * DIP_PERIOD_S - 1e-9:  # ends at a given time: the pattern never ends by itself
        due = compositor.next_change(game, UI, now)
        assert due > now and compositor.frame(game, UI, (now + due) / 2) == compositor.frame(game, UI, now)
        assert compositor.frame(game, UI, due) != compositor.frame(game, UI, now)  # no wake for nothing
        wakes.append(due)
        now = due
    assert len(wakes) == 4 * 10  # four frames a period: down, dark, up, lit
    period = [round(wake - swept, 6) for wake in wakes[:4]]
    assert period == [edge for edge, _ in DIP_EDGES] + [DIP_PERIOD_S]
    assert min(later - earlier for earlier, later in zip(wakes, wakes[1:])) == pytest.approx(0.1)


def test_the_dip_waits_for_the_sweep_and_the_assassins_strobe():
    game, compositor = table()
    swept = assassin_ends(game, compositor, 5.0)
    for now in [5.0 + step / 20 for step in range(int((STROBE_S + SWEEP_S) * 20))]:
        assert compositor.next_change(game, UI, now) <= swept
    sweeping = [swept - SWEEP_S + step / FPS for step in range(int(SWEEP_S * FPS))]
    assert BLACK not in {tile(compositor.frame(game, UI, now), ASSASSIN) for now in sweeping}  # the wave, undisturbed
    assert tile(compositor.frame(game, UI, swept + 1.2), ASSASSIN) == BLACK


def test_the_dip_stops_at_a_new_game_and_at_an_undo_that_takes_back_the_end():
    game, compositor = table()
    swept = red_wins_then_sweeps(game, compositor, 0.0)
    assert tile(compositor.frame(game, UI, swept + 1.2), ASSASSIN) == BLACK
    compositor.reset()  # a new game is dealt
    fresh = new_game(Key.from_text(KEY))
    assert compositor.next_change(fresh, UI, swept + 1.2) is None
    assert tiles(compositor.frame(fresh, UI, swept + 1.2)) == [PALETTE.idle] * 25

    game, compositor = table()
    swept = red_wins_then_sweeps(game, compositor, 0.0)
    for event in game.undo():
        compositor.notice(event, swept + 1.2)
    assert not game.is_over and compositor.next_change(game, UI, swept + 1.2) is None
    assert tile(compositor.frame(game, UI, swept + 1.2), ASSASSIN) == PALETTE.idle


def test_a_refused_touch_after_the_game_blinks_over_the_dip():
    game, compositor = table()
    swept = assassin_ends(game, compositor, 0.0)
    compositor.notice(TouchRefused(ASSASSIN), swept + 1.2)
    assert tile(compositor.frame(game, UI, swept + 1.2), ASSASSIN) == PALETTE.refused
    assert tile(compositor.frame(game, UI, swept + 1.3), ASSASSIN) == BLACK  # its blink over: the dip goes on

# --- status LEDs


@pytest.mark.parametrize(("left", "lit"), [(60, 10), (59.9, 10), (30, 5), (29.9, 5), (6, 1), (0.01, 1), (0, 0)])
def test_timer_bar_leds_follow_the_sand_left(left, lit):
    game, compositor = table()
    bar = timer_bar(compositor.frame(game, UiState(timer=SandTimer(60, left)), 0.0))
    assert sum(led != BLACK for led in bar) == lit
    assert bar[lit:] == [BLACK] * (10 - lit)  # it drains from the far end


def test_timer_bar_turns_to_the_warning_colour_in_its_last_fifth_and_is_dark_without_a_timer():
    game, compositor = table()
    bar = lambda left: timer_bar(compositor.frame(game, UiState(timer=SandTimer(60, left)), 0.0))
    assert set(bar(60)) == {PALETTE.timer}
    assert set(bar(12.1)) == {PALETTE.timer, BLACK}
    assert set(bar(12)) == {PALETTE.timer_warning, BLACK}
    assert timer_bar(compositor.frame(game, UI, 0.0)) == [BLACK] * 10


def test_timer_bar_flashes_when_the_sand_runs_out_then_goes_dark():
    game, compositor = table()
    ui = UiState(timer=SandTimer(60, 0))
    compositor.notice(TimerExpired(), 100.0)
    assert timer_bar(compositor.frame(game, ui, 100.0)) == [PALETTE.timer_expired] * 10
    assert timer_bar(compositor.frame(game, ui, 100.3)) == [BLACK] * 10
    assert timer_bar(compositor.frame(game, ui, 100.5)) == [PALETTE.timer_expired] * 10
    assert compositor.next_change(game, ui, 100.0) == pytest.approx(100.25)
    assert compositor.next_change(game, ui, 100.0 + TIMER_FLASH_S - 0.1) == pytest.approx(100.0 + TIMER_FLASH_S)
    assert timer_bar(compositor.frame(game, ui, 100.0 + TIMER_FLASH_S)) == [BLACK] * 10
    assert compositor.next_change(game, ui, 100.0 + TIMER_FLASH_S) is None
    slapped = UiState(timer=SandTimer(60, 60))  # a new countdown stops the flash
    assert timer_bar(compositor.frame(game, slapped, 100.1)) == [PALETTE.timer] * 10


def test_turn_indicator_shows_whose_turn_it_is():
    game, compositor = table()
    assert turn_leds(compositor.frame(game, UI, 0.0)) == [PALETTE.turn_red] * 2
    play(game, compositor, Clue(1), 0.0)
    play(game, compositor, Touch(BYSTANDER), 1.0)
    assert game.turn is Team.BLUE
    assert turn_leds(compositor.frame(game, UI, 2.0)) == [PALETTE.turn_blue] * 2


def test_turn_indicator_blinks_slowly_while_a_spymaster_covers():
    game, compositor = table()
    play(game, compositor, Penalty(), 0.0)
    assert game.phase is Phase.COVER
    bright, dim = (turn_leds(compositor.frame(game, UI, now)) for now in (10.0, 10.5))
    assert bright == [PALETTE.turn_blue] * 2 and dim[0] != bright[0] and sum(dim[0]) > 0
    assert compositor.next_change(game, UI, 10.0) == pytest.approx(10.5)


def test_refused_touch_blinks_exactly_one_tile_then_is_gone():
    game, compositor = table()
    calm = compositor.frame(game, UI, 5.0)
    compositor.notice(TouchRefused(7), 5.0)
    blink = compositor.frame(game, UI, 5.0)
    changed = [index for index in range(LEDS) if tile(blink, index) != tile(calm, index)]
    assert changed == [7] and tile(blink, 7) == PALETTE.refused
    assert tile(compositor.frame(game, UI, 5.12), 7) == PALETTE.idle  # the gap of the double blink
    assert tile(compositor.frame(game, UI, 5.2), 7) == PALETTE.refused
    assert compositor.frame(game, UI, 5.25) == calm
    assert compositor.next_change(game, UI, 5.2) == pytest.approx(5.25)
    assert compositor.next_change(game, UI, 5.25) is None


def test_a_refused_button_blinks_the_turn_leds_only_then_is_gone():
    from codenames_board.published import Refused

    game, compositor = table()
    calm = compositor.frame(game, UI, 5.0)
    compositor.notice(Refused(), 5.0)
    blink = compositor.frame(game, UI, 5.0)
    changed = [index for index in range(LEDS) if tile(blink, index) != tile(calm, index)]
    assert changed == [35, 36] and turn_leds(blink) == [PALETTE.refused] * 2
    assert compositor.frame(game, UI, 5.12) == calm  # the gap of the double blink
    assert turn_leds(compositor.frame(game, UI, 5.2)) == [PALETTE.refused] * 2
    assert compositor.frame(game, UI, 5.25) == calm
    assert compositor.next_change(game, UI, 5.2) == pytest.approx(5.25)
    assert compositor.next_change(game, UI, 5.25) is None


# --- when to redraw


def test_next_change_follows_the_timer_bar_step_by_step():
    game, compositor = table()
    ui = lambda left: UiState(timer=SandTimer(60, left))
    assert compositor.next_change(game, ui(60), 0.0) == pytest.approx(6.0)  # 9 of 10 LEDs at 54 s left
    assert compositor.frame(game, ui(54.01), 5.99) == compositor.frame(game, ui(60), 0.0)
    assert compositor.frame(game, ui(54), 6.0) != compositor.frame(game, ui(60), 0.0)
    assert compositor.next_change(game, ui(54), 6.0) == pytest.approx(12.0)
    assert compositor.next_change(game, ui(0.5), 100.0) == pytest.approx(100.5)
    assert compositor.next_change(game, UiState(timer=SandTimer(60, 0)), 100.0) is None


def test_frames_never_change_before_next_change_says_and_always_have_3_bytes_per_led():
    rng = random.Random(7)
    for variant in ("classic", "duo"):
        game, compositor = table(variant)
        now = 1000.0
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            play(game, compositor, action, now)
            if rng.random() < 0.2:
                compositor.notice(TouchRefused(rng.randrange(25)), now)
            ui = UiState(timer=SandTimer(30, rng.choice([0, 10, 30])))
            end = now + rng.choice([0.05, 0.4, 5.0])
            steps = 0
            while now < end:
                frame = compositor.frame(game, ui, now)
                assert len(frame) == 3 * LEDS
                due = compositor.next_change(game, ui, now)
                if due is None:
                    break
                assert due > now
                assert compositor.frame(game, ui, (now + due) / 2) == frame
                ui = UiState(timer=SandTimer(30, max(0.0, ui.timer.left - (due - now))))
                now, steps = due, steps + 1
                assert steps < 500  # modest frame rates, no busy loop
            now = end


# --- configuration and power


def test_palette_from_config_takes_hex_colours_and_round_trips():
    palette = Palette.from_config({"red": "#FF1000", "idle": "#000000"})
    assert palette.red == (255, 16, 0) and palette.idle == BLACK and palette.blue == PALETTE.blue
    assert Palette.from_config(palette.to_config()) == palette
    assert parse_colour("#0a0b0c") == (10, 11, 12)


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ({"red": "#ff00"}, "red"),
        ({"blue": "blue"}, "blue"),
        ({"bystander": 0xFFEEDD}, "bystander"),
        ({"timer": "#gg0000"}, "timer"),
        ({"purple": "#800080"}, "purple"),
        ({"assassin": "#ff0000"}, "assassin"),  # the assassin must look like no other identity
    ],
)
def test_palette_from_config_rejects_bad_colours_naming_the_key(config, key):
    with pytest.raises(ValueError, match=rf"^leds\.colours\.{key}: ") as caught:
        Palette.from_config(config, section="leds.colours")
    assert isinstance(caught.value, BadColour) and caught.value.key == f"leds.colours.{key}"


def test_worst_case_current_is_every_led_full_white_and_scales_with_brightness():
    compositor = Compositor()
    assert compositor.layout.leds == 37
    assert compositor.worst_case_ma(255) == 37 * 60 + 37
    assert compositor.worst_case_ma(255, ma_per_channel=10, ma_idle=0) == 37 * 30
    assert compositor.worst_case_ma(0) == 37
    half, quarter = compositor.worst_case_ma(128), compositor.worst_case_ma(64)
    assert half == pytest.approx(37 + 37 * 60 / 2, abs=10) and quarter == pytest.approx(37 + 37 * 60 / 4, abs=10)
    assert 37 < compositor.typical_ma(255) < compositor.worst_case_ma(255) / 2
    assert compositor.typical_ma(64) < compositor.typical_ma(255)


@pytest.mark.parametrize("touched", [RED_AGENT, BLUE_AGENT, BYSTANDER, ASSASSIN])
def test_a_repainted_tile_looks_as_in_the_full_frame(touched):
    game, compositor = table()
    play(game, compositor, Clue(UNLIMITED), 0.0)
    play(game, compositor, Touch(1), 0.0)
    before = compositor.frame(game, UI, 0.05)  # the last frame shown, mid-flash of tile 1
    play(game, compositor, Touch(touched), 0.1)
    patched = compositor.repaint(before, game, [touched], 0.1)
    full = compositor.frame(game, UI, 0.1)
    assert tile(patched, touched) == tile(full, touched) != tile(before, touched)
    changed = [index for index in range(LEDS) if tile(patched, index) != tile(before, index)]
    assert changed == [touched]  # nothing else is composed on the fast path
