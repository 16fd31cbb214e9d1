"""The simulator: the real runtime behind a window, scripted headless runs, what the operatives may see."""

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from patience import PATIENCE_S  # noqa: E402

from codenames_board.config import parse  # noqa: E402
from codenames_board.engine import UNLIMITED, Clue, EndTurn, Identity, Touch, new_game, tile_name  # noqa: E402
from codenames_board.i18n import Translator  # noqa: E402
from codenames_board.sim.app import FakeClock, Simulator  # noqa: E402
from codenames_board.sim.script import parse_script, run_script  # noqa: E402
from codenames_board.sim.view import draw  # noqa: E402

SEED = 2026


@pytest.fixture
def simulator(tmp_path):
    made = []

    def make(settings="", seed=SEED, words=None):
        pygame.init()
        clock = FakeClock()
        config = parse(f'state_dir = "{tmp_path}"\n{settings}')
        sim = Simulator(config, Translator("en"), seed=seed, words=words, clock=clock, sound=False)
        sim.start()
        made.append(sim)
        return sim, clock

    yield make
    for sim in made:
        sim.close()


def play(sim, clock, script, tmp_path, size=(1280, 720)):
    def screenshot(path, size):
        surface = pygame.Surface(size)
        draw(surface, sim.scene(), sim.tr)
        pygame.image.save(surface, str(path))

    run_script(sim, parse_script(script), clock, tmp_path, size, screenshot)


def test_a_scripted_game_ends_where_the_engine_says(simulator, tmp_path):
    sim, clock = simulator()
    key = sim.table.game.key
    team = key.start
    own = key.agents(team)
    bystander = next(tile for tile, identity in enumerate(key) if identity is Identity.BYSTANDER)
    lines = ["clue 2"] + [f"touch {tile_name(tile)}" for tile in own[:2]] + ["press end_turn", "clue unlimited"]
    lines += [f"touch {tile_name(tile)}" for tile in key.agents(team.other)[:3]] + [f"touch {tile_name(bystander)}"]
    play(sim, clock, "\n".join(lines), tmp_path)
    expected = new_game(key)
    for action in [Clue(2), Touch(own[0]), Touch(own[1]), EndTurn(), Clue(UNLIMITED)]:
        expected.play(action)
    for tile in key.agents(team.other)[:3] + [bystander]:
        expected.play(Touch(tile))
    assert sim.table.game.state() == expected.state()


def test_the_words_are_dealt_into_the_record(simulator):
    sim, _ = simulator()
    from codenames_board.record import read_record

    header = read_record(sim.table.writer.path).header
    assert header.words == sim.table.words and len(header.words) == 25
    assert sim.scene().words == tuple(sim.table.words)


def test_a_new_game_deals_new_words(simulator, tmp_path):
    sim, clock = simulator()
    first = set(sim.table.words)
    play(sim, clock, "hold new_game 2.5", tmp_path)  # nothing played yet: no question asked
    assert not first & set(sim.table.words)


def test_a_script_redeals_a_word_before_the_first_clue_and_not_after(simulator, tmp_path):
    from codenames_board.record import read_record

    sim, clock = simulator()
    before = list(sim.table.words)
    play(sim, clock, "redeal B3\nredeal 1 1", tmp_path)  # B3 is tile 7; 1 1 is A1, tile 0
    words = list(sim.table.words)
    assert words[7] not in before and words[0] not in before and words[1:7] == before[1:7]
    assert sim.scene().words == tuple(words)
    assert read_record(sim.table.writer.path).header.words == words
    play(sim, clock, "clue 1\nredeal C3", tmp_path)
    assert sim.table.words == words
    assert [notice.msgid for notice in sim.table.ui.notices][-1] == "notice.redeal_too_late"


def test_the_operatives_never_see_an_unrevealed_identity_while_the_display_is_hidden(simulator, tmp_path):
    sim, clock = simulator()
    key = sim.table.game.key
    play(sim, clock, f"spymaster hide\nclue 1\ntouch {tile_name(key.agents(key.start)[0])}\nwait 2", tmp_path)
    scene = sim.scene()
    assert scene.spymaster is None
    idle = sim.config.colours.idle
    for tile in range(25):
        if not sim.table.game.is_revealed(tile):
            assert scene.tiles[tile] == idle  # the LED says nothing about it
    # and in pixels: only identity colours of revealed tiles anywhere in the window
    surface = pygame.Surface((1280, 720))
    regions = draw(surface, scene, sim.tr)
    identity_colours = {sim.config.colours.assassin, sim.config.colours.bystander}
    identity_colours |= {getattr(sim.config.colours, team.value) for team in (key.start.other,)}
    for tile in range(25):
        rect = regions[f"tile:{tile}"]
        if sim.table.game.is_revealed(tile):
            continue
        for x in range(rect.left + 2, rect.right - 2, 6):
            for y in range(rect.top + 2, rect.bottom - 2, 6):
                assert tuple(surface.get_at((x, y)))[:3] not in identity_colours


def test_showing_the_spymaster_display_shows_the_key_beside_the_table(simulator, tmp_path):
    sim, clock = simulator()
    assert sim.scene().spymaster is not None
    play(sim, clock, "spymaster hide\nspymaster show", tmp_path)
    assert sim.scene().spymaster.get_size() == tuple(sim.config.display.size)


def test_the_encoder_is_turned_through_its_real_pins(simulator, tmp_path):
    sim, clock = simulator('[controls]\nclue_input = "encoder"\n')
    play(sim, clock, "press clue_up\npress clue_up\npress clue_down\npress clue_confirm", tmp_path)
    assert sim.table.game.clue == 2


def test_buttons_are_pressed_through_the_mock_pins(simulator):
    sim, _ = simulator()
    pin = sim.factory.pin(sim.config.pins.undo)
    sim.press("undo")
    assert pin.state == 0
    sim.release("undo")
    assert pin.state == 1


def test_the_same_seed_deals_the_same_key_and_words(simulator):
    first, _ = simulator()
    again, _ = simulator()
    other, _ = simulator(seed=SEED + 1)
    assert (first.table.game.key, first.table.words) == (again.table.game.key, again.table.words)
    assert first.table.game.key != other.table.game.key


# --- the command


def test_headless_script_prints_the_state_and_takes_screenshots(tmp_path, run_cli):
    script = tmp_path / "game.txt"
    script.write_text("clue 1\nwait 1\nscreenshot shots/start.png\n")
    result = run_cli("sim", "--headless", "--script", script, "--seed", SEED, "--json", "--size", "960x540")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert (state["phase"], state["clue"], len(state["words"])) == ("guess", 1, 25)
    shot = pygame.image.load(str(tmp_path / "shots" / "start.png"))
    assert shot.get_size() == (960, 540)


def test_a_script_mistake_names_its_line(tmp_path, run_cli):
    script = tmp_path / "game.txt"
    script.write_text("clue 1\n\ntouch Z9\n")
    result = run_cli("sim", "--headless", "--script", script)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f'{script}:3: "Z9" is not a tile: write it as C3 (row A-E, column 1-5) or as 3 3']


@pytest.mark.parametrize(
    "line, message",
    [
        ("dance", 'unknown command "dance": the commands are touch, press, hold, clue, wait, spymaster, help, screenshot, redeal'),
        ("redeal Z9", '"Z9" is not a tile: write it as C3 (row A-E, column 1-5) or as 3 3'),
        ("press jump", "press takes one button: sand_timer, end_turn, clue_down, clue_up, clue_confirm, undo, new_game"),
        ("wait soon", '"soon" is not a number of seconds (0 to 3600)'),
        ("clue 12", 'clue takes a number from 0 to 9 or unlimited, not "12"'),
    ],
)
def test_script_errors_say_what_to_write(tmp_path, run_cli, line, message):
    script = tmp_path / "s.txt"
    script.write_text(line + "\n")
    result = run_cli("sim", "--headless", "--script", script)
    assert (result.returncode, result.stderr.strip()) == (2, f"{script}:1: {message}")


def test_a_custom_word_list_is_used_and_a_short_one_refused(tmp_path, run_cli):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(f"cat{n}" for n in range(30)))
    script = tmp_path / "s.txt"
    script.write_text("wait 0\n")
    result = run_cli("sim", "--headless", "--script", script, "--words", words, "--json")
    assert all(word.startswith("cat") for word in json.loads(result.stdout)["words"])
    words.write_text("one\ntwo\n")
    result = run_cli("sim", "--headless", "--script", script, "--words", words)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"{words}: a word list needs at least 25 different words, this one has 2: add words, one per line"
    ]


def test_headless_needs_a_script_and_a_script_needs_headless(tmp_path, run_cli):
    assert run_cli("sim", "--headless").returncode == 2
    script = tmp_path / "s.txt"
    script.write_text("wait 0\n")
    result = run_cli("sim", "--script", script)
    assert result.returncode == 2 and "--headless and --script FILE go together" in result.stderr


def test_the_window_turns_clicks_and_keys_into_presses_and_touches(simulator):
    """The interactive loop, for real: events go into pygame's queue from another thread, as a user would make them."""
    import threading
    import time

    from codenames_board.sim.view import layout
    from codenames_board.sim.window import run_window

    sim, _ = simulator()
    sim.controller.clock = time.monotonic  # the window runs the controller thread in real time
    sim.table.clock = time.monotonic
    size = (1280, 720)
    regions = layout(size, "buttons").regions
    own = sim.table.game.key.agents(sim.table.game.key.start)[0]
    words = list(sim.table.words)
    other = next(tile for tile in range(25) if tile != own)

    posted = []  # kept alive: pygame reads a posted event's attributes when the window takes it

    def post(kind, **attributes):
        posted.append(pygame.event.Event(kind, **attributes))
        pygame.event.post(posted[-1])

    def user():
        while pygame.display.get_surface() is None:
            time.sleep(0.01)

        def click(name):
            centre = regions[name].center
            post(pygame.MOUSEBUTTONDOWN, pos=centre, button=1)
            post(pygame.MOUSEBUTTONUP, pos=centre, button=1)

        def settle():  # the window took every event posted so far, and the controller handled what came of it
            deadline = time.monotonic() + 60  # a slow machine (an emulated arm64 one) takes seconds
            while sim.inputs_handled < len(posted) and time.monotonic() < deadline:
                time.sleep(0.01)
            sim.controller.queue.join()

        click("clue_up")  # the window draws first, so the regions are known
        settle()
        post(pygame.MOUSEBUTTONDOWN, pos=regions[f"tile:{other}"].center, button=3)  # a right click: another word
        settle()
        post(pygame.KEYDOWN, key=pygame.K_RETURN)
        post(pygame.KEYUP, key=pygame.K_RETURN)
        settle()
        click(f"tile:{own}")
        settle()
        post(pygame.KEYDOWN, key=pygame.K_s)
        settle()
        post(pygame.QUIT)

    thread = threading.Thread(target=user)
    thread.start()
    run_window(sim, size, "test")
    thread.join(timeout=PATIENCE_S)
    assert sim.table.game.clue == 2 and sim.table.game.is_revealed(own)
    assert not sim.show_spymaster
    assert sim.table.words[other] not in words  # the right click, before the clue: another word
    assert sim.table.words[:other] + sim.table.words[other + 1:] == words[:other] + words[other + 1:]


def test_without_any_sound_device_the_mixer_is_not_even_tried(tmp_path):
    from codenames_board.sim.audio import sound_device_likely

    assert not sound_device_likely({"XDG_RUNTIME_DIR": str(tmp_path)}, "linux") or __import__("pathlib").Path("/dev/snd").exists()
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").write_text("")
    assert sound_device_likely({"XDG_RUNTIME_DIR": str(tmp_path)}, "linux")
    assert sound_device_likely({}, "darwin")
    assert sound_device_likely({"SDL_AUDIODRIVER": "dummy"}, "linux")


def test_the_spymaster_display_in_a_window_of_its_own(simulator):
    import threading
    import time

    from codenames_board.sim.window import SpymasterWindow, run_window

    sim, _ = simulator()
    sim.controller.clock = time.monotonic
    sim.table.clock = time.monotonic
    pygame.display.init()

    class Counting(SpymasterWindow):
        draws = 0

        def draw(self, surface):
            Counting.draws += 1
            super().draw(surface)

    second = Counting("spymasters", (480, 320))
    posted = []

    def post(kind, **attributes):
        posted.append(pygame.event.Event(kind, **attributes))
        pygame.event.post(posted[-1])

    def user():
        deadline = time.monotonic() + 60  # a slow machine (an emulated arm64 one) takes seconds
        while Counting.draws == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        post(pygame.WINDOWCLOSE, window=second.window)  # the spymasters close theirs: it only hides
        while second.visible and time.monotonic() < deadline:
            time.sleep(0.01)
        post(pygame.QUIT)

    thread = threading.Thread(target=user)
    thread.start()
    run_window(sim, (960, 540), "test", spymaster_window=second)
    thread.join(timeout=PATIENCE_S)
    assert Counting.draws >= 1
    assert not sim.show_spymaster  # the operatives' window keeps the display hooded
    assert not second.visible


def test_a_mixer_pygame_could_not_load_is_silence_without_a_warning():
    # pygame leaves a stand-in for a mixer whose libraries are missing (a minimal Debian without
    # libglib2.0-0); the first use of it used to print a RuntimeWarning. Here the import really fails.
    script = """
import importlib.abc, sys
class NoMixer(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "pygame.mixer":
            raise ImportError("libgthread-2.0.so.0: cannot open shared object file")
sys.meta_path.insert(0, NoMixer())
from codenames_board.sim import audio
audio.sound_device_likely = lambda: True
print(audio.MixerBuzzer.open())
"""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "host"), "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
    )
    assert result.returncode == 0 and result.stdout.strip() == "None", result.stderr
    assert result.stderr == ""


# --- after the game: the assassin's tile dips to dark now and then (not colour alone)


class Hung(Exception):
    pass


def within(seconds, run):
    """Run ``run()`` in this thread, interrupted if it takes longer than ``seconds`` (a loop waiting for idle)."""
    import signal

    def interrupt(signum, frame):
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("palette", ["standard", "colourblind"])
def test_a_script_that_ends_the_game_then_waits_finishes_and_the_window_shows_the_assassin_dip(simulator, tmp_path, palette):
    from codenames_board.colours import palette_of
    from codenames_board.compositor import DIP_PERIOD_S, KEY_DIM, STROBE_S, SWEEP_S
    from codenames_board.sim.view import tile_fill

    sim, clock = simulator(f'[colours]\npalette = "{palette}"\n')
    colours = palette_of(sim.config.colours)
    key = sim.table.game.key
    assassin = key.identities.index(Identity.ASSASSIN)
    bystander = key.identities.index(Identity.BYSTANDER)
    touched = clock.now
    # The game ends on the assassin; then 5 s pass: the strobe, the sweep, and the dip that never ends by itself.
    within(PATIENCE_S, lambda: play(sim, clock, f"clue 1\ntouch {tile_name(assassin)}\nwait 5", tmp_path))
    assert sim.table.game.is_over and clock.now == touched + 5
    swept = touched + STROBE_S + SWEEP_S
    lit = sim.scene()
    assert (clock.now - swept) % DIP_PERIOD_S == pytest.approx(0, abs=1e-9)  # a period begins: the tile is lit
    assert lit.tiles[assassin] == colours.assassin
    assert lit.tiles[bystander] == tuple(max(1, round(v * KEY_DIM)) for v in colours.bystander)
    within(PATIENCE_S, lambda: play(sim, clock, "wait 1.2\nscreenshot dark.png", tmp_path))  # into the dark of the dip
    dark = sim.scene()
    assert dark.tiles[assassin] == (0, 0, 0)
    assert [t for i, t in enumerate(dark.tiles) if i != assassin] == [t for i, t in enumerate(lit.tiles) if i != assassin]
    # The window draws it: the assassin's card goes from tinted to an unlit card, its neighbours stay as they were.
    surfaces = []
    for scene in (lit, dark):
        surface = pygame.Surface((1280, 720))
        regions = draw(surface, scene, sim.tr)
        surfaces.append(surface)
    card = lambda surface, tile: pygame.transform.average_color(surface, regions[f"tile:{tile}"])[:3]
    lit_card, dark_card = card(surfaces[0], assassin), card(surfaces[1], assassin)
    assert sum(dark_card) < sum(lit_card) and max(dark_card) - min(dark_card) < max(lit_card) - min(lit_card)  # unlit, no hue
    assert tile_fill((0, 0, 0)) != tile_fill(colours.assassin)
    assert card(surfaces[0], bystander) == card(surfaces[1], bystander)
    assert (tmp_path / "dark.png").exists()
    within(PATIENCE_S, lambda: play(sim, clock, "wait 0.4", tmp_path))  # the dip over: lit again
    assert sim.scene().tiles[assassin] == colours.assassin


def test_the_dip_stops_when_a_new_game_is_dealt_in_the_simulator(simulator, tmp_path):
    sim, clock = simulator()
    key = sim.table.game.key
    assassin = key.identities.index(Identity.ASSASSIN)
    within(PATIENCE_S, lambda: play(sim, clock, f"clue 1\ntouch {tile_name(assassin)}\nwait 5\nhold new_game 2.5\nwait 2", tmp_path))
    assert not sim.table.game.is_over
    assert sim.table.next_wake() is None  # nothing left to animate: the controller sleeps until an event
    assert set(sim.scene().tiles) == {sim.config.colours.idle}


def test_a_headless_script_that_ends_the_game_and_waits_finishes(tmp_path, run_cli):
    probe = tmp_path / "probe.txt"
    probe.write_text("wait 0\n")
    dealt = run_cli("sim", "--headless", "--script", probe, "--seed", SEED, "--json")
    assert dealt.returncode == 0, dealt.stderr
    key = json.loads(dealt.stdout)["key"]
    script = tmp_path / "game.txt"
    script.write_text(f"clue 1\ntouch {tile_name(key.index('A'))}\nwait 5\nscreenshot over.png 960x540\n")
    done = run_cli("sim", "--headless", "--script", script, "--seed", SEED, "--json")  # run_cli: under a 60 s timeout
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["phase"] == "over"
    assert pygame.image.load(str(tmp_path / "over.png")).get_size() == (960, 540)
