"""The configuration: defaults, user files, and one clear line per mistake."""

import tomllib
from pathlib import Path

import pytest

from codenames_board import config as config_module
from codenames_board.config import (
    SYSTEM_CONFIG,
    ConfigErrors,
    config_candidates,
    default_text,
    find_config,
    load,
    parse,
)


def problems(text):
    with pytest.raises(ConfigErrors) as caught:
        parse(text)
    return [(error.msgid, error.params) for error in caught.value.errors]


def test_the_defaults_are_a_complete_valid_config():
    config = parse("")
    assert config.source == "defaults"
    assert (config.tiles.timer_leds, config.tiles.turn_leds) == (10, 2)
    assert config.colours.red == (0xFF, 0x1A, 0x00)
    assert config.display.size == (480, 320)
    assert config.active_pins() == {
        "sand_timer": 5, "end_turn": 6, "undo": 16, "new_game": 20,
        "clue_down": 13, "clue_up": 19, "clue_confirm": 26, "buzzer": 12, "status_led": 21,
    }


def test_the_schema_and_the_default_file_name_the_same_settings():
    defaults = tomllib.loads(default_text())

    def keys(table, prefix=""):
        # An empty table of the defaults ([tiles.thresholds]) is one setting whose names the user chooses.
        return {f"{prefix}{name}" if not isinstance(value, dict) or not value else None for name, value in table.items()} | {
            key for name, value in table.items() if isinstance(value, dict) for key in keys(value, f"{name}.")
        }

    assert keys(defaults) - {None} == keys(config_module.SCHEMA) - {None}


def test_a_user_file_changes_only_what_it_names():
    config = parse('variant = "duo"\n[timer]\nmode = "strict"\n[pins]\nbuzzer = false\n')
    assert (config.variant, config.timer.mode, config.pins.buzzer) == ("duo", "strict", None)
    assert config.timer.clue_seconds == 120 and config.pins.undo == 16


def test_the_encoder_uses_its_own_pins_and_frees_the_clue_buttons():
    config = parse('[controls]\nclue_input = "encoder"\n[pins]\nclue_down = false\nclue_up = false\nclue_confirm = false\n')
    assert {"encoder_a", "encoder_b", "encoder_push"} <= set(config.active_pins())
    assert not {"clue_down", "clue_up", "clue_confirm"} & set(config.active_pins())


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[display]\nsise = [1, 2]\n", [("config.unknown_key_hint", {"key": "[display] sise", "hint": "size"})]),
        ("wobble = 1\n", [("config.unknown_key", {"key": "wobble"})]),
        ("display = 3\n", [("config.table", {"key": "display"})]),
        ('[timer]\nclue_seconds = "two"\n', [("config.number", {"key": "[timer] clue_seconds", "value": "two", "low": 0, "high": 3600})]),
        ("[timer]\nclue_seconds = 9000\n", [("config.range", {"key": "[timer] clue_seconds", "value": 9000, "low": 0, "high": 3600})]),
        ('[timer]\nmode = "relaxed"\n', [("config.choice", {"key": "[timer] mode", "value": "relaxed", "options": "advisory, strict"})]),
        ("[display]\nrotate = 1\n", [("config.bool", {"key": "[display] rotate", "value": 1})]),
        ('[colours]\nred = "red"\n', [("config.colour", {"key": "[colours] red", "value": "red"})]),
        ("[display]\nsize = [100, 50]\n", [("config.size", {"key": "[display] size", "value": [100, 50]})]),
        ('[pins]\nundo = "GPIO5"\n', [("config.pin_type", {"key": "[pins] undo", "value": "GPIO5"})]),
        ("[pins]\nundo = 40\n", [("config.pin_missing", {"key": "[pins] undo", "value": 40})]),
        ("[pins]\nundo = 1\n", [("config.pin_missing", {"key": "[pins] undo", "value": 1})]),
        ("[pins]\nundo = 5\n", [("config.pin_twice", {"key": "[pins] undo", "value": 5, "other": "[pins] sand_timer"})]),
        ("[pins]\nend_turn = false\n", [("config.pin_required", {"key": "[pins] end_turn"})]),
        ('[tiles]\nport = ""\n', [("config.text", {"key": "[tiles] port", "value": ""})]),
        ('language = "fr"\n', [("config.choice", {"key": "language", "value": "fr", "options": "auto, en, de, da, et, id"})]),
    ],
)
def test_each_mistake_is_named_with_its_key(text, expected):
    assert problems(text) == expected


def test_every_mistake_in_a_file_is_reported_not_just_the_first():
    found = problems('[pins]\nundo = 40\nend_turn = 5\n[timer]\nmode = "x"\n')
    assert [msgid for msgid, _ in found] == ["config.choice", "config.pin_missing", "config.pin_twice"]


def test_broken_toml_is_one_problem_with_the_place():
    ((msgid, params),) = problems("[pins\nundo = 5\n")
    assert msgid == "config.toml" and "line 1" in params["why"]


def test_config_is_found_in_the_usual_places(tmp_path):
    user = tmp_path / "xdg" / "codenames-board" / "config.toml"
    assert find_config(environ={"XDG_CONFIG_HOME": str(tmp_path / "xdg")}) in (None, find_config(environ={"XDG_CONFIG_HOME": str(tmp_path / "xdg")}))
    user.parent.mkdir(parents=True)
    user.write_text('variant = "duo"\n')
    assert find_config(environ={"XDG_CONFIG_HOME": str(tmp_path / "xdg")}) == user
    assert find_config(environ={"CODENAMES_BOARD_CONFIG": "/x.toml", "XDG_CONFIG_HOME": str(tmp_path / "xdg")}).name == "x.toml"
    assert find_config("/y.toml").name == "y.toml"
    assert load(environ={"XDG_CONFIG_HOME": str(tmp_path / "xdg")}).variant == "duo"


def test_a_file_that_is_not_utf8_is_refused(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'variant = "\xff"\n')
    with pytest.raises(ConfigErrors) as caught:
        load(path)
    assert caught.value.errors[0].msgid == "config.encoding"


# --- the command


def test_config_check_prints_one_line_per_problem_and_exits_2(tmp_path, run_cli):
    path = tmp_path / "config.toml"
    path.write_text("[pins]\nundo = 5\n[display]\nsise = [1, 2]\n")
    result = run_cli("config", "--check", "--config", path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f'{path}: [display] sise: unknown setting; did you mean "size"?',
        f"{path}: [pins] undo = 5 is already used by [pins] sand_timer: give each device its own GPIO",
    ]


def test_config_check_of_a_good_file_says_so(tmp_path, run_cli):
    path = tmp_path / "config.toml"
    path.write_text('[timer]\nmode = "strict"\n')
    result = run_cli("config", "--check", "--config", path)
    assert (result.returncode, result.stdout.strip()) == (0, f"{path}: the configuration is fine.")


def test_config_check_of_a_missing_file_is_one_line(tmp_path, run_cli):
    result = run_cli("config", "--check", "--config", tmp_path / "nope.toml")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"{tmp_path / 'nope.toml'}: cannot read the file: No such file or directory"]


def test_config_default_prints_a_file_that_checks(tmp_path, run_cli):
    text = run_cli("config", "--default").stdout
    assert parse(text).tiles.brightness == 96
    assert "# " in text


def test_identities_may_not_share_a_colour():
    assert problems('[colours]\nassassin = "#0050ff"\n') == [
        ("config.colour_same", {"key": "[colours] assassin", "other": "[colours] blue"})
    ]


def test_xdg_config_dirs_are_searched_after_the_user_and_before_etc(tmp_path):
    def place(folder):
        path = tmp_path / folder / "codenames-board" / "config.toml"
        path.parent.mkdir(parents=True)
        path.write_text("")
        return path

    first, second = place("first"), place("second")
    environ = {"XDG_CONFIG_HOME": str(tmp_path / "home"), "XDG_CONFIG_DIRS": f"relative:{tmp_path / 'first'}:{tmp_path / 'second'}"}
    assert config_candidates(environ)[:3] == [tmp_path / "home" / "codenames-board" / "config.toml", first, second]
    assert config_candidates(environ)[-1] == SYSTEM_CONFIG
    assert find_config(environ=environ) == first
    assert find_config(environ={**environ, "XDG_CONFIG_DIRS": str(tmp_path / "second")}) == second
    user = place("home")
    assert find_config(environ=environ) == user


def test_without_xdg_config_dirs_etc_xdg_is_searched():
    environ = {"XDG_CONFIG_HOME": "/nowhere"}
    assert config_candidates(environ)[1:] == [Path("/etc/xdg/codenames-board/config.toml"), SYSTEM_CONFIG]


def test_config_init_makes_the_folder_and_never_overwrites(tmp_path, run_cli):
    result = run_cli("config", "--init")
    path = tmp_path / "state" / "config" / "codenames-board" / "config.toml"  # run_cli's XDG_CONFIG_HOME
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    assert result.stdout.startswith(f"{path}: the default configuration is written.")
    assert path.read_text("utf-8") == default_text()
    path.write_text('variant = "duo"\n')
    again = run_cli("config", "--init")
    assert again.returncode == 1
    assert again.stderr.splitlines() == [
        f"{path} exists already and is left as it is (codenames-board config --default prints the defaults)"
    ]
    assert path.read_text() == 'variant = "duo"\n'
    assert run_cli("config", "--check").stdout.strip() == f"{path}: the configuration is fine."


def test_config_init_writes_a_path_of_ones_own(tmp_path, run_cli):
    path = tmp_path / "deep" / "er" / "table.toml"
    result = run_cli("config", "--init", path, "--lang", "de")
    assert result.returncode == 0 and path.read_text("utf-8") == default_text()
    assert "Standardkonfiguration" in result.stdout
    blocked = tmp_path / "file"
    blocked.write_text("")
    result = run_cli("config", "--init", blocked / "config.toml")
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1 and str(blocked) in result.stderr



def test_touch_thresholds_are_checked_with_one_clear_line():
    from codenames_board.config import ConfigErrors
    from codenames_board.i18n import Translator

    config = parse("[tiles]\ntouch_threshold = 20\nrelease_threshold = 8\ntouch_debounce = 3\n")
    assert (config.tiles.touch_threshold, config.tiles.release_threshold, config.tiles.touch_debounce) == (20, 8, 3)
    with pytest.raises(ConfigErrors) as raised:
        parse("[tiles]\ntouch_threshold = 8\nrelease_threshold = 8\n")
    (error,) = raised.value.errors
    assert Translator("en")(error.msgid, **error.params) == (
        "[tiles] release_threshold: 8 must be below [tiles] touch_threshold (8): "
        "a pad counts as let go only under the release threshold"
    )
    with pytest.raises(ConfigErrors) as raised:
        parse("[tiles]\ntouch_debounce = 9\n")
    assert [error.key for error in raised.value.errors] == ["[tiles] touch_debounce"]


def test_config_check_warns_of_a_pin_an_spi_display_needs(tmp_path, run_cli):
    path = tmp_path / "config.toml"
    path.write_text('[display]\noutput = "framebuffer"\n[pins]\nundo = 24\nnew_game = 10\n')
    result = run_cli("config", "--check", "--config", path)
    assert result.returncode == 0  # a warning: the table still runs
    assert result.stderr.splitlines() == [
        f'{path}: warning: [pins] undo = 24 is piscreen DC, which the SPI display ([display] output = "framebuffer") '
        "needs: move it to a free GPIO (wiring/README.md, the display)",
        f'{path}: warning: [pins] new_game = 10 is SPI0 MOSI, which the SPI display ([display] output = "framebuffer") '
        "needs: move it to a free GPIO (wiring/README.md, the display)",
    ]


def test_spi_pins_are_fine_without_an_spi_display_and_the_defaults_leave_them_free():
    from codenames_board.config import pin_warnings

    assert pin_warnings(parse('[pins]\nundo = 24\nnew_game = 10\n[display]\noutput = "fullscreen"\n')) == []
    assert pin_warnings(parse('[display]\noutput = "framebuffer"\n')) == []
    warned = pin_warnings(parse('[display]\noutput = "framebuffer"\n[pins]\nbuzzer = 7\n'))
    assert [(w.key, w.params["use"]) for w in warned] == [("[pins] buzzer", "SPI0 CE1 (touch CS)")]


def test_tiles_get_thresholds_of_their_own_by_name():
    config = parse("[tiles.thresholds]\nC3 = [8, 4]\na1 = [20, 10]\n")
    assert config.tiles.thresholds == {12: (8, 4), 0: (20, 10)}
    assert parse("").tiles.thresholds == {}


@pytest.mark.parametrize(
    "text, line",
    [
        ("[tiles.thresholds]\nF1 = [8, 4]\n", '[tiles.thresholds] F1: there is no tile "F1"; name tiles A1 to E5 (row letter A-E, column 1-5), as the display shows them'),
        ("[tiles.thresholds]\nC3 = [4, 8]\n", "[tiles.thresholds] C3 = [4, 8]: write [touch, release], two whole numbers with 0 < release < touch <= 255, for example [10, 5]"),
        ("[tiles.thresholds]\nC3 = 8\n", "[tiles.thresholds] C3 = 8: write [touch, release], two whole numbers with 0 < release < touch <= 255, for example [10, 5]"),
        ("[tiles.thresholds]\nC3 = [300, 4]\n", "[tiles.thresholds] C3 = [300, 4]: write [touch, release], two whole numbers with 0 < release < touch <= 255, for example [10, 5]"),
        ('[leds]\norder = "rgb"\n', '[leds] order: "rgb" is no colour order; use "GRB" (WS2812B pixels), "RGB" (most WS2811 12 mm strands) or RBG, GBR, BRG, BGR'),
    ],
)
def test_bad_tile_thresholds_and_led_orders_are_one_line_with_the_fix(text, line, tmp_path, run_cli):
    from codenames_board.i18n import Translator

    with pytest.raises(ConfigErrors) as raised:
        parse(text)
    (error,) = raised.value.errors
    assert Translator("en")(error.msgid, **error.params) == line
    path = tmp_path / "config.toml"
    path.write_text(text)
    result = run_cli("config", "--check", "--config", path)
    assert (result.returncode, result.stderr.splitlines()) == (2, [f"{path}: {line}"])


def test_the_led_colour_order_is_grb_unless_the_strip_takes_another():
    assert parse("").leds.order == "GRB"
    for order in ("RGB", "RBG", "GBR", "BRG", "BGR"):
        assert parse(f'[leds]\norder = "{order}"\n').leds.order == order


# --- [words]: the pack, and whether run deals words


def test_words_default_to_the_standard_pack_and_run_deals_none():
    config = parse("")
    assert (config.words.pack, config.words.deal) == ("standard", False)
    assert parse('[words]\npack = "hard"\ndeal = true\n').words.as_dict() == {"pack": "hard", "deal": True}


def test_a_word_file_of_ones_own_is_a_pack_too(tmp_path):
    path = tmp_path / "ours.txt"
    path.write_text("\n".join(f"ours{n}" for n in range(25)), "utf-8")
    assert parse(f'[words]\npack = "{path}"\n').words.pack == str(path)


def hostile_pack(tmp_path, kind):
    """What [words] pack may name by mistake: every kind of file that is not a word list."""
    import os

    path = tmp_path / "words"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "/dev/zero":
        return "/dev/zero"
    elif kind == "10 MB":
        path.write_bytes(b"word\n" * (2 * 1024 * 1024))
    elif kind == "24 words":
        path.write_text("\n".join(f"word{n}" for n in range(24)), "utf-8")
    elif kind == "bad UTF-8":
        path.write_bytes(b"caf\xe9\n" * 30)
    elif kind in ("", "esay"):
        return kind
    return str(path)


PACK_LINES = {
    "": '[words] pack: "" is neither a word pack nor a file: name a pack (easy, standard, hard) or the path of a word file of your own',
    "esay": '[words] pack: "esay" is neither a word pack nor a file: name a pack (easy, standard, hard) or the path of a word file of your own',
    "folder": "[words] pack = {path}: a folder, not a word file: name a file in it (one word per line) or a pack (easy, standard, hard)",
    "fifo": "[words] pack = {path}: not a regular file (a pipe or a device): name a word list, one word per line",
    "/dev/zero": "[words] pack = {path}: not a regular file (a pipe or a device): name a word list, one word per line",
    "10 MB": "[words] pack = {path}: 10485760 bytes, larger than such a file can be (1048576 at most): name another file",
    "24 words": "[words] pack = {path}: a word list needs at least 25 different words, this one has 24: add words, one per line",
    "bad UTF-8": "[words] pack = {path}: the word list is not UTF-8 text: save it as UTF-8",
}


@pytest.mark.parametrize("kind", PACK_LINES)
def test_a_pack_that_is_no_word_list_is_one_line_with_the_fix_in_every_language(tmp_path, kind):
    from codenames_board.i18n import LANGUAGES, Translator

    path = hostile_pack(tmp_path, kind)
    with pytest.raises(ConfigErrors) as raised:
        parse(f'[words]\npack = "{path}"\n')
    (error,) = raised.value.errors
    assert Translator("en")(error.msgid, **error.params) == PACK_LINES[kind].format(path=path)
    for language in LANGUAGES:
        line = Translator(language)(error.msgid, **error.params)
        assert "\n" not in line and "[words] pack" in line and "{" not in line


@pytest.mark.parametrize("text, line", [
    ("[words]\npack = 3\n", '[words] pack: "3" is neither a word pack nor a file: name a pack (easy, standard, hard) or the path of a word file of your own'),
    ('[words]\ndeal = "yes"\n', '[words] deal: true or false is needed, not "yes"'),
    ('[words]\npacks = "hard"\n', '[words] packs: unknown setting; did you mean "pack"?'),
])
def test_other_mistakes_in_words_are_named_with_their_key(text, line):
    from codenames_board.i18n import Translator

    with pytest.raises(ConfigErrors) as raised:
        parse(text)
    (error,) = raised.value.errors
    assert Translator("en")(error.msgid, **error.params) == line


@pytest.mark.parametrize("language", ["en", "de", "da", "et", "id"])
def test_config_check_says_a_pack_that_is_no_word_list_in_the_language_asked(tmp_path, run_cli, language):
    from codenames_board.i18n import Translator

    fifo = hostile_pack(tmp_path, "fifo")  # a pipe: said, not read (the check would hang on it)
    path = tmp_path / "config.toml"
    path.write_text(f'[words]\npack = "{fifo}"\n')
    result = run_cli("--lang", language, "config", "--check", "--config", path)
    key = f"[words] pack = {fifo}"
    assert (result.returncode, result.stderr.splitlines()) == (2, [f"{path}: {Translator(language)('error.words_not_a_file', path=key)}"])


# The display kinds the parts list may name, and the output each needs.
DISPLAY_OUTPUTS = {"SPI TFT": "framebuffer", "HDMI": "fullscreen", "DSI": "fullscreen"}


def test_the_shipped_display_output_is_the_parts_lists_display():
    import csv

    from codenames_board.config import pin_warnings

    root = Path(__file__).resolve().parents[1]
    with open(root / "hardware" / "bom.csv", newline="", encoding="utf-8") as file:
        display = next(row for row in csv.DictReader(file) if row["part"] == "spymaster display")
    kind = next(kind for kind in DISPLAY_OUTPUTS if kind in display["example"])  # the first one the row names
    assert kind == "SPI TFT"
    # what `config --default` writes, `config --init` installs and `run` uses with no config at all
    assert parse("").display.output == DISPLAY_OUTPUTS[kind]
    assert tomllib.loads(default_text())["display"]["output"] == DISPLAY_OUTPUTS[kind]
    assert pin_warnings(parse("")) == []  # the default pins leave the SPI display's alone
