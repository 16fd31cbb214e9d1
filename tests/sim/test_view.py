"""The simulator window: where the clickable regions are, what the tiles and the hood show, and reference images.

Reference images live in tests/sim/reference/. A missing one is created (and
its test skipped: look at it before committing it). After a deliberate change
of the picture, regenerate them all and look at every one:

    UPDATE_REFERENCES=1 SDL_VIDEODRIVER=dummy .venv/bin/python -m pytest tests/sim -q -k reference

A failing comparison writes expected | actual | difference side by side into
the test's tmp directory and names the file in the assertion.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import itertools  # noqa: E402
import operator  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from codenames_board.i18n import Translator, catalog  # noqa: E402
from codenames_board.sim import view  # noqa: E402
from codenames_board.sim.help import help_rows, key_label  # noqa: E402
from codenames_board.sim.scene import BUTTONS, SHORTCUTS, SimScene  # noqa: E402

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("UPDATE_REFERENCES") == "1"
TOLERANCE = 2.0  # mean absolute difference per channel, 0-255
SIZES = [(960, 540), (1280, 720), (1920, 1080)]
SIZE_IDS = [f"{width}x{height}" for width, height in SIZES]

WORDS = tuple(
    "ankle apple bridge cactus dragon engine forest ghost helicopter island jacket kettle lemon "
    "mountain needle ocean parachute queen robot saddle telescope umbrella violin whale zebra".split()
)
# The LED palette's defaults (colours.Palette), as the tile board would light them.
RED, BLUE, BYSTANDER, ASSASSIN = (255, 0, 0), (0, 40, 255), (255, 150, 70), (96, 0, 128)
IDLE, OFF, TIMER_GREEN = (8, 8, 8), (0, 0, 0), (0, 200, 60)
LIT = {0: RED, 6: RED, 12: RED, 4: BLUE, 11: BLUE, 20: BLUE, 2: BYSTANDER, 19: BYSTANDER}


@pytest.fixture
def tr():
    return Translator("en")


def spymaster_screen(size=(480, 320), depth=32) -> pygame.Surface:
    """A stand-in for the spymaster display's picture: a plain pattern, not the real renderer."""
    screen = pygame.Surface(size, depth=depth)
    screen.fill((20, 24, 30))
    width, height = size
    cell = height // 6
    for row, column in itertools.product(range(5), range(5)):
        colour = ((206, 44, 44), (38, 104, 214), (224, 203, 160))[(row + 2 * column) % 3]
        pygame.draw.rect(screen, colour, (cell // 2 + column * cell, cell // 2 + row * cell, cell - 4, cell - 4))
    pygame.draw.rect(screen, (255, 224, 70), (width * 2 // 3, cell // 2, width // 4, height - cell), 4)
    pygame.draw.line(screen, (255, 255, 255), (0, height - 1), (width - 1, 0), 3)
    return screen


def scene(**changes) -> SimScene:
    """Mid-game: a few tiles lit red, blue and beige, the rest idle; the sand timer half run; red's turn."""
    values = dict(
        words=WORDS,
        tiles=tuple(LIT.get(tile, IDLE) for tile in range(25)),
        timer_leds=(TIMER_GREEN,) * 5 + (OFF,) * 5,
        turn_leds=(RED, RED),
        spymaster=spymaster_screen(),
    )
    values.update(changes)
    return SimScene(**values)


def drawn(scene_: SimScene, tr, size=(1280, 720)) -> tuple[pygame.Surface, dict[str, pygame.Rect]]:
    surface = pygame.Surface(size)
    regions = view.draw(surface, scene_, tr)
    return surface, regions


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def average(surface: pygame.Surface, rect: pygame.Rect) -> tuple[float, float, float]:
    data = pygame.image.tobytes(surface.subsurface(rect), "RGB")
    count = len(data) // 3
    return tuple(sum(data[channel::3]) / count for channel in range(3))  # type: ignore[return-value]


def centre_of(rect: pygame.Rect) -> pygame.Rect:
    """The middle of a tile: its word and the card around it."""
    middle = pygame.Rect(0, 0, rect.width * 6 // 10, rect.height // 2)
    middle.center = rect.center
    return middle


# --- clickable regions


@pytest.mark.parametrize("clue_input", ["buttons", "encoder"])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_regions_cover_every_tile_and_button_without_overlapping(size, clue_input, tr):
    _, regions = drawn(scene(clue_input=clue_input), tr, size)
    expected = {f"tile:{tile}" for tile in range(25)} | set(BUTTONS) | {"toggle_spymaster", "toggle_help"}
    assert set(regions) == expected
    window = pygame.Rect((0, 0), size)
    for name, rect in regions.items():
        assert rect.width > 0 and rect.height > 0, name
        assert window.contains(rect), f"{name} {rect} is outside the {size} window"
    for (first, a), (second, b) in itertools.combinations(regions.items(), 2):
        assert not a.colliderect(b), f"{first} {a} overlaps {second} {b}"


@pytest.mark.parametrize("clue_input", ["buttons", "encoder"])
@pytest.mark.parametrize("size", [(1024, 768), (1280, 1024), (2560, 1080), (800, 480)], ids=str)
def test_odd_window_shapes_still_keep_the_regions_apart(size, clue_input, tr):
    _, regions = drawn(scene(clue_input=clue_input), tr, size)
    window = pygame.Rect((0, 0), size)
    assert all(window.contains(rect) for rect in regions.values())
    assert not any(a.colliderect(b) for a, b in itertools.combinations(regions.values(), 2))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_tiles_are_a_five_by_five_grid_of_cards_the_biggest_part_of_the_window(size, tr):
    _, regions = drawn(scene(), tr, size)
    tiles = [regions[f"tile:{tile}"] for tile in range(25)]
    assert len({rect.size for rect in tiles}) == 1
    for tile, rect in enumerate(tiles):
        row, column = divmod(tile, 5)
        assert rect.y == tiles[row * 5].y and rect.x == tiles[column].x
        if column:
            assert rect.x > tiles[tile - 1].right
        if row:
            assert rect.y > tiles[tile - 5].bottom
    assert 1.2 <= tiles[0].width / tiles[0].height <= 1.9  # card-shaped
    grid = tiles[0].unionall(tiles)
    assert grid.right < regions["toggle_spymaster"].x  # the table is left, the spymasters right
    assert grid.width * grid.height > 0.3 * size[0] * size[1]


@pytest.mark.parametrize("clue_input", ["buttons", "encoder"])
def test_buttons_are_big_enough_to_hit_in_the_smallest_window(clue_input, tr):
    _, regions = drawn(scene(clue_input=clue_input), tr, (960, 540))
    for name in BUTTONS:
        assert min(regions[name].size) >= 40, name
    assert regions["sand_timer"].width == regions["sand_timer"].height  # the big round one
    assert regions["sand_timer"].width >= max(regions[name].height for name in BUTTONS if name != "clue_confirm") - 1


def test_regions_are_what_the_layout_says(tr):
    for clue_input in ("buttons", "encoder"):
        _, regions = drawn(scene(clue_input=clue_input), tr)
        assert regions == view.layout((1280, 720), clue_input).regions


# --- tiles: the LED's colour and nothing else


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_tile_glows_in_its_led_colour(size, tr):
    tiles = [IDLE] * 25
    tiles[0], tiles[1], tiles[2], tiles[3], tiles[4], tiles[5] = RED, BLUE, BYSTANDER, ASSASSIN, OFF, (255, 255, 255)
    surface, regions = drawn(scene(tiles=tuple(tiles)), tr, size)
    r, g, b = average(surface, centre_of(regions["tile:0"]))
    assert r > 140 and r > g + 80 and r > b + 80, (r, g, b)  # clearly red
    r, g, b = average(surface, centre_of(regions["tile:1"]))
    assert b > 140 and b > r + 80 and b > g + 60, (r, g, b)  # clearly blue
    r, g, b = average(surface, centre_of(regions["tile:2"]))
    assert r > g + 25 > b + 50 and r > 150, (r, g, b)  # warm beige: red over green over blue
    r, g, b = average(surface, centre_of(regions["tile:3"]))
    assert b > g + 40 and r > g + 30, (r, g, b)  # violet
    for tile in (4, 5, 24):  # off, white, idle: no hue at all
        r, g, b = average(surface, centre_of(regions[f"tile:{tile}"]))
        assert max(r, g, b) - min(r, g, b) < 8, (tile, r, g, b)
    assert sum(average(surface, centre_of(regions["tile:5"]))) > 1.6 * sum(average(surface, centre_of(regions["tile:4"])))


def test_an_idle_tile_is_a_neutral_dark_card_a_little_lighter_than_an_off_one():
    off, idle = view.tile_fill(OFF), view.tile_fill(IDLE)
    assert max(off) - min(off) <= 6 and max(idle) - min(idle) <= 6
    assert sum(off) < sum(idle) < sum(off) + 60 and max(idle) < 100


def test_the_word_is_legible_on_every_led_colour():
    for rgb in (RED, BLUE, BYSTANDER, ASSASSIN, IDLE, OFF, (255, 255, 255), (255, 200, 0), TIMER_GREEN):
        fill = view.tile_fill(rgb)
        assert view.contrast(fill, view.text_colour(fill)) >= 3.0, rgb  # WCAG's contrast for large text


def test_tiles_show_only_their_words_and_led_colours(tr):
    """Two scenes that differ in nothing the tiles show draw the same table, whatever is behind them."""
    first, _ = drawn(scene(), tr)
    again, _ = drawn(scene(), tr)
    assert pixels(first) == pixels(again)
    moved = dict(LIT)
    moved[13] = moved.pop(12)  # one red tile is another now
    other, regions = drawn(scene(tiles=tuple(moved.get(tile, IDLE) for tile in range(25))), tr)
    changed = [name for name, rect in regions.items() if pixels(first.subsurface(rect)) != pixels(other.subsurface(rect))]
    assert changed == ["tile:12", "tile:13"]


def test_different_words_change_only_their_tiles(tr):
    first, regions = drawn(scene(), tr)
    words = list(WORDS)
    words[7] = "eichhörnchen"  # twelve letters, German
    second, _ = drawn(scene(words=tuple(words)), tr)
    changed = [name for name, rect in regions.items() if pixels(first.subsurface(rect)) != pixels(second.subsurface(rect))]
    assert changed == ["tile:7"]


# --- the status LEDs and buttons


def test_the_sand_timer_bar_shows_each_led_in_its_colour(tr):
    surface, _ = drawn(scene(), tr)
    where = view.layout((1280, 720))
    row = pygame.Rect(where.timer_bar)
    # The dots lie on one line across the bar: five lit green, five off grey.
    dots = [spot for spot in _spots_on(surface, row)]
    assert len(dots) == 10
    for index, (r, g, b) in enumerate(dots):
        if index < 5:
            assert g > 150 and g > r + 80 and g > b + 60, (index, r, g, b)
        else:
            assert max(r, g, b) < 90 and max(r, g, b) - min(r, g, b) < 15, (index, r, g, b)


def _spots_on(surface: pygame.Surface, bar: pygame.Rect) -> list[tuple[int, int, int]]:
    """The colour at the centre of each LED: found where a horizontal line through the bar meets the dots."""
    rows = []
    for y in range(bar.y, bar.bottom):
        colours = [tuple(surface.get_at((x, y)))[:3] for x in range(bar.x, bar.right)]
        runs = [key for key, _ in itertools.groupby(colours, key=lambda c: c == view.BEZEL)]
        rows.append((runs.count(True), y))
    _, y = max(rows)  # the line through the most sockets is the dots' centre line
    count = 10
    pitch = bar.width / count
    return [tuple(surface.get_at((round(bar.x + pitch * (index + 0.5)), y)))[:3] for index in range(count)]


@pytest.mark.parametrize("timer, turn", [((), ()), ((TIMER_GREEN,) * 60, (RED,) * 8), ((OFF,), (BLUE,))])
def test_any_number_of_status_leds_fits(timer, turn, tr):
    for size in SIZES:
        drawn(scene(timer_leds=timer, turn_leds=turn), tr, size)


@pytest.mark.parametrize("clue_input", ["buttons", "encoder"])
def test_a_pressed_button_is_drawn_pushed_in_and_nothing_else_changes(clue_input, tr):
    released, regions = drawn(scene(clue_input=clue_input), tr)
    for name in BUTTONS:
        pressed, _ = drawn(scene(clue_input=clue_input, pressed=frozenset({name})), tr)
        rect = regions[name]
        assert pixels(released.subsurface(rect)) != pixels(pressed.subsurface(rect)), name
        if not (clue_input == "encoder" and name in ("clue_down", "clue_up")):  # these turn the knob too
            released.subsurface(rect).blit(pressed.subsurface(rect), (0, 0))
            assert pixels(released) == pixels(pressed), f"pressing {name} changed more than its button"
            released, _ = drawn(scene(clue_input=clue_input), tr)


def test_every_button_says_its_shortcut(tr):
    texts = {key_label(tr, key) for key in SHORTCUTS.values()}
    assert texts == {"Space", "E", "Down", "Up", "Enter", "U", "N"}
    for name in BUTTONS:
        assert tr(f"sim.{name}")


# --- the spymaster display and its hood


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("screen", [(480, 320, 32), (800, 480, 32), (320, 240, 16), (240, 320, 24)], ids=str)
def test_hiding_the_spymaster_display_changes_only_its_panel(size, screen, tr):
    shown, regions = drawn(scene(spymaster=spymaster_screen(screen[:2], screen[2])), tr, size)
    hidden, regions_hidden = drawn(scene(spymaster=None), tr, size)
    assert regions == regions_hidden
    panel = view.layout(size).spymaster
    assert panel.contains(regions["toggle_spymaster"])
    assert pixels(shown.subsurface(panel)) != pixels(hidden.subsurface(panel))
    for surface in (shown, hidden):
        surface.fill((255, 0, 255), panel)
    assert pixels(shown) == pixels(hidden)


def test_the_spymaster_display_is_scaled_to_fit_its_bezel_keeping_its_shape(tr):
    screen = pygame.Surface((480, 320))
    screen.fill((0, 255, 0))
    surface, _ = drawn(scene(spymaster=screen), tr)
    box = view.layout((1280, 720)).screen
    found = pygame.mask.from_threshold(surface, (0, 255, 0), (8, 8, 8, 255)).get_bounding_rects()
    assert len(found) == 1
    picture = found[0]
    assert box.contains(picture)
    assert picture.width == box.width or picture.height == box.height
    assert abs(picture.width / picture.height - 1.5) < 0.02


def test_the_hood_says_how_to_show_the_display(tr):
    assert "S" in tr("sim.hidden_hint", key=key_label(tr, "s"))
    assert "S" in tr("sim.show", key=key_label(tr, "s"))


# --- banners and help


def test_a_disconnected_tile_board_puts_a_banner_over_the_table(tr):
    connected, regions = drawn(scene(), tr)
    unplugged, _ = drawn(scene(board_connected=False), tr)
    board = view.layout((1280, 720)).board
    assert tuple(unplugged.get_at((board.x + 4, board.centery)))[:3] == view.WARNING
    for name in ("toggle_spymaster", "sand_timer", "undo"):  # only the table is covered
        assert pixels(connected.subsurface(regions[name])) == pixels(unplugged.subsurface(regions[name]))
    r, g, b = average(unplugged, centre_of(regions["tile:0"]))  # the tiles still show through, dimmed
    assert r > g + 30 and r < average(connected, centre_of(regions["tile:0"]))[0]


@pytest.mark.parametrize("clue_input", ["buttons", "encoder"])
def test_the_help_lists_every_shortcut_and_the_mouse(clue_input, tr):
    rows = [row for row in help_rows(tr, clue_input) if row]
    keys = [key for key, _ in rows]
    for key in (*SHORTCUTS.values(), "s", "h", "escape"):
        assert key_label(tr, key) in keys
    assert keys.count(tr("sim.help_click")) == 2
    assert all(text for _, text in rows)
    plain, _ = drawn(scene(clue_input=clue_input), tr)
    helped, _ = drawn(scene(clue_input=clue_input, help=True), tr)
    assert pixels(plain) != pixels(helped)


def test_drawing_is_deterministic(tr):
    for options in ({}, {"spymaster": None, "help": True}, {"clue_input": "encoder", "board_connected": False}):
        first, regions = drawn(scene(**options), tr)
        second, again = drawn(scene(**options), tr)
        assert pixels(first) == pixels(second)
        assert regions == again


def test_every_message_of_the_window_is_in_the_catalog(tr):
    todo = {key.removeprefix("sim."): text for key, text in catalog("en").items() if key.startswith("sim.")}
    used: list[str] = []

    class Recording(Translator):
        def __call__(self, msgid, **params):
            used.append(msgid)
            return super().__call__(msgid, **params)

    recording = Recording("en")
    for options in ({}, {"spymaster": None, "help": True}, {"clue_input": "encoder", "help": True, "board_connected": False}):
        drawn(scene(**options), recording)
    new = {msgid.removeprefix("sim.") for msgid in used if msgid.startswith("sim.")}
    assert new <= set(todo)
    assert {msgid for msgid in used if not msgid.startswith("sim.")} <= {"display.board_disconnected"}


# --- reference images


def mean_difference(expected: pygame.Surface, actual: pygame.Surface) -> float:
    if expected.get_size() != actual.get_size():
        return 255.0
    a, b = pixels(expected), pixels(actual)
    return sum(map(abs, map(operator.sub, a, b))) / len(a)


def side_by_side(expected: pygame.Surface, actual: pygame.Surface, path: Path) -> None:
    """expected | actual | their difference, brightened eightfold."""
    width, height = actual.get_size()
    if expected.get_size() != actual.get_size():
        expected = pygame.transform.scale(expected, (width, height))
    plain = pygame.Surface((width, height))  # the two in one pixel format, for the blend
    plain.blit(expected, (0, 0))
    expected = plain
    difference = expected.copy()
    difference.blit(actual, (0, 0), special_flags=pygame.BLEND_SUB)
    other_way = actual.copy()
    other_way.blit(expected, (0, 0), special_flags=pygame.BLEND_SUB)
    difference.blit(other_way, (0, 0), special_flags=pygame.BLEND_ADD)
    for _ in range(3):
        difference.blit(difference, (0, 0), special_flags=pygame.BLEND_ADD)
    sheet = pygame.Surface((3 * width + 8, height))
    sheet.fill((255, 0, 255))
    for index, image in enumerate((expected, actual, difference)):
        sheet.blit(image, (index * (width + 4), 0))
    pygame.image.save(sheet, str(path))


REFERENCE_SCENES = {
    "mid_game": lambda: scene(pressed=frozenset({"end_turn"})),
    "hidden_help": lambda: scene(spymaster=None, help=True),
}


@pytest.mark.parametrize("size", SIZES[1:], ids=SIZE_IDS[1:])
@pytest.mark.parametrize("name", list(REFERENCE_SCENES))
def test_window_matches_its_reference_image(name, size, tr, tmp_path):
    surface, _ = drawn(REFERENCE_SCENES[name](), tr, size)
    path = REFERENCE / f"{name}-{size[0]}x{size[1]}.png"
    if UPDATE or not path.exists():
        REFERENCE.mkdir(exist_ok=True)
        pygame.image.save(surface, str(path))
        if not UPDATE:
            pytest.skip(f"created {path}: look at it, then commit it")
        return
    expected = pygame.image.load(str(path))
    difference = mean_difference(expected, surface)
    if difference >= TOLERANCE:
        sheet = tmp_path / f"{path.stem}-expected-actual-difference.png"
        side_by_side(expected, surface, sheet)
        pytest.fail(f"{path.name}: the window differs by {difference:.2f} per channel on average; see {sheet}")
