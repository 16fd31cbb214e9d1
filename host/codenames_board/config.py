"""The table's configuration: one TOML file, checked before any hardware is touched.

The defaults ship with the package (default_config.toml); a user file only
needs what it changes. Every problem is one ConfigError naming the key and
the fix; ``codenames-board config --check`` prints them and exits with 2.
"""

from __future__ import annotations

import difflib
import ipaddress
import os
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .cluewords import MAX_TEAM_NAME, clean_name, same_names
from .engine import TILES, VARIANTS, tile_name
from .files import NotRegular, TooBig, read_regular
from .i18n import LANGUAGES
from .tileboard.base import COLOUR_ORDERS
from .words import PACKS, WordListError, choose_words

PI_GPIOS = range(2, 28)  # BCM GPIO 2-27 on the 40-pin header (0 and 1 belong to the HAT EEPROM)
BUTTON_PINS = ("clue_down", "clue_up", "clue_confirm")
ENCODER_PINS = ("encoder_a", "encoder_b", "encoder_push")
REQUIRED_PINS = ("sand_timer", "end_turn", "undo", "new_game")
# What an SPI display takes with output = "framebuffer": SPI0, and the pins of the piscreen overlay that
# drives the default ILI9486 3.5 inch display (Waveshare 3.5 inch LCD (A); wiring/README.md, the display).
SPI_DISPLAY_PINS = {
    7: "SPI0 CE1 (touch CS)", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
    17: "piscreen PENIRQ", 22: "piscreen LED", 24: "piscreen DC", 25: "piscreen RESET",
}  # fmt: skip


class ConfigError(ValueError):
    """One problem in a config file: ``msgid`` and ``params`` for the message, ``key`` as [table] name."""

    def __init__(self, msgid: str, key: str = "", **params: object) -> None:
        self.msgid = msgid
        self.key = key
        self.params = {"key": key, **params}
        super().__init__(f"{key}: {msgid} {params}")


# --- value checks: each returns the value or raises ConfigError


def _choice(*options):
    def check(key, value):
        if value not in options:
            raise ConfigError("config.choice", key, value=value, options=", ".join(map(str, options)))
        return value

    return check


def _number(low, high, kind=int):
    def check(key, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
            raise ConfigError("config.number" if kind is int else "config.decimal", key, value=value, low=low, high=high)
        if not low <= value <= high:
            raise ConfigError("config.range", key, value=value, low=low, high=high)
        return value

    return check


def _bool(key, value):
    if not isinstance(value, bool):
        raise ConfigError("config.bool", key, value=value)
    return value


def _text(key, value):
    if not isinstance(value, str) or not value:
        raise ConfigError("config.text", key, value=value)
    return value


def _address(key, value):
    """An IP address to listen on (not a host name: resolving one could wait on the network at start)."""
    try:
        ipaddress.ip_address(value if isinstance(value, str) else "")
    except ValueError:
        raise ConfigError("config.address", key, value=value) from None
    return value


def _port(key, value):
    """1024-65535 (a lower port needs root), or 0: any free port (said at start)."""
    if type(value) is not int or not (value == 0 or 1024 <= value <= 65535):
        raise ConfigError("config.port", key, value=value)
    return value


def _url(key, value):
    if value != "auto" and not (isinstance(value, str) and re.fullmatch(r"https?://[^\s/?#]+/?", value)):
        raise ConfigError("config.url", key, value=value)
    return value.rstrip("/")


def _team_name(key, value):
    """A team's name for the evening's tally; "" names the team by its colour."""
    if clean_name(value) != value:
        raise ConfigError("evening.config_name", key, value=value, most=MAX_TEAM_NAME)
    return value


def _png_file(key, value):
    value = _text(key, value)
    if not value.lower().endswith(".png"):  # pygame picks the format by the name: a.txt would be a Targa file
        raise ConfigError("config.png_name", key, value=value)
    return value


def _colour(key, value):
    if not isinstance(value, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ConfigError("config.colour", key, value=value)
    return tuple(int(value[index : index + 2], 16) for index in (1, 3, 5))


def _size(key, value):
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(part, int) and not isinstance(part, bool) and 160 <= part <= 4096 for part in value)
    ):
        raise ConfigError("config.size", key, value=value)
    return tuple(value)


def _thresholds(key, value):
    """[tiles.thresholds]: tile name -> [touch, release]; gives {tile index: (touch, release)}."""
    names = {tile_name(tile): tile for tile in range(TILES)}
    thresholds = {}
    for name, pair in value.items():
        entry = f"[tiles.thresholds] {name}"
        tile = names.get(name.strip().upper())
        if tile is None:
            raise ConfigError("config.threshold_tile", entry, value=name)
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(part, int) and not isinstance(part, bool) for part in pair)
            and 0 < pair[1] < pair[0] <= 255
        ):
            raise ConfigError("config.threshold_value", entry, value=pair)
        thresholds[tile] = (pair[0], pair[1])
    return thresholds


def _led_order(key, value):
    if value not in COLOUR_ORDERS:
        raise ConfigError("config.led_order", key, value=value, options=", ".join(COLOUR_ORDERS[2:]))
    return value


def _word_pack(key, value):
    """A pack's name, or the path of a word file of the user's own: read now, so that ``config --check``
    says what is wrong with it (a folder, a pipe, too few words, not UTF-8) before a game is dealt."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError("words.config_pack", key, value=value, packs=", ".join(PACKS))
    if value in PACKS:
        return value
    try:
        choose_words(value, "en")
    except WordListError as error:
        if error.msgid == "words.pack_unknown":
            raise ConfigError("words.config_pack", key, value=value, packs=", ".join(PACKS)) from None
        raise ConfigError(error.msgid, key, **{**error.params, "path": f"{key} = {value}"}) from None
    return value


def _pin(key, value):
    if value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError("config.pin_type", key, value=value)
    if value not in PI_GPIOS:
        raise ConfigError("config.pin_missing", key, value=value)
    return value


SCHEMA: dict[str, Any] = {
    "language": _choice("auto", *LANGUAGES),
    "variant": _choice(*VARIANTS),
    "state_dir": _text,
    "tiles": {
        "driver": _choice("serial", "virtual"),
        "port": _text,
        "timer_leds": _number(0, 60),
        "turn_leds": _number(0, 8),
        "brightness": _number(0, 255),
        "max_current_ma": _number(100, 10000),
        "touch_threshold": _number(2, 255),  # sent to the board after each handshake (firmware/TUNING.md)
        "release_threshold": _number(1, 254),
        "touch_debounce": _number(0, 7),
        "thresholds": _thresholds,  # some tiles' own touch and release thresholds (TUNEPAD)
    },
    "leds": {"order": _led_order},  # the strip's colour order, sent to the board (ORDER)
    "colours": {
        name: _colour
        for name in (
            "red", "blue", "bystander", "assassin", "assassin_strobe", "idle", "refused",
            "timer", "timer_warning", "timer_expired",
        )
    } | {"palette": _choice("standard", "colourblind")},
    "display": {
        "output": _choice("window", "fullscreen", "framebuffer", "png"),
        "size": _size,
        "framebuffer": _text,
        "png": _png_file,
        "rotate": _bool,
    },
    "timer": {
        "clue_seconds": _number(0, 3600),
        "guess_seconds": _number(0, 3600),
        "mode": _choice("advisory", "strict"),
        "auto_start": _bool,
    },
    "game": {"clue_entry": _bool, "sound": _bool},
    "web": {"enabled": _bool, "address": _address, "port": _port, "url": _url},
    "evening": {"red": _team_name, "blue": _team_name, "new_after_hours": _number(0, 168, float)},
    "controls": {
        "clue_input": _choice("buttons", "encoder"),
        "new_game_hold_seconds": _number(0.5, 10.0, float),
        "bounce_ms": _number(0, 500),
    },
    "pins": {name: _pin for name in (*REQUIRED_PINS, *BUTTON_PINS, *ENCODER_PINS, "buzzer", "status_led")},
    "words": {"pack": _word_pack, "deal": _bool},
}


class Section:
    """A checked table of the config: attribute access, read only."""

    def __init__(self, name: str, values: dict) -> None:
        self._name = name
        self.__dict__.update(values)

    def __repr__(self) -> str:
        fields = ", ".join(f"{key}={value!r}" for key, value in self.__dict__.items() if not key.startswith("_"))
        return f"<[{self._name}] {fields}>"

    def as_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if not key.startswith("_")}


@dataclass(frozen=True)
class Config:
    source: str  # the user file read, or "defaults"
    language: str
    variant: str
    state_dir: Path
    tiles: Section
    leds: Section
    colours: Section
    display: Section
    timer: Section
    game: Section
    web: Section
    evening: Section
    controls: Section
    pins: Section
    words: Section

    def active_pins(self) -> dict[str, int]:
        """The pins in use with this config (the clue buttons or the encoder, not both)."""
        unused = ENCODER_PINS if self.controls.clue_input == "buttons" else BUTTON_PINS
        return {name: pin for name, pin in self.pins.as_dict().items() if pin is not None and name not in unused}


def default_text() -> str:
    return resources.files(__package__).joinpath("default_config.toml").read_text("utf-8")


def _merge(defaults: dict, user: dict, prefix: str, errors: list[ConfigError], top: dict | None = None) -> dict:
    top = defaults if top is None else top
    merged = dict(defaults)
    for name, value in user.items():
        key = f"{prefix}{name}"
        if name not in defaults:
            close = difflib.get_close_matches(name, list(defaults), n=1)
            elsewhere = [table for table, settings in top.items() if isinstance(settings, dict) and name in settings]
            if elsewhere and not isinstance(value, dict):  # [leds] brightness: a setting of another table
                errors.append(ConfigError("config.unknown_key_table", _key_name(key), table=elsewhere[0]))
            elif close:
                errors.append(ConfigError("config.unknown_key_hint", _key_name(key), hint=close[0]))
            else:
                errors.append(ConfigError("config.unknown_key", _key_name(key)))
            continue
        if isinstance(defaults[name], dict):
            if not isinstance(value, dict):
                errors.append(ConfigError("config.table", _key_name(key)))
                continue
            # An empty table of the defaults takes names of the user's choosing (its rule checks them).
            merged[name] = _merge(defaults[name], value, f"{key}.", errors, top) if defaults[name] else value
        else:
            merged[name] = value
    return merged


def _key_name(dotted: str) -> str:
    """``display.size`` -> ``[display] size`` (how the key looks in the file)."""
    table, _, name = dotted.rpartition(".")
    return f"[{table}] {name}" if table else name


def _check(values: dict, schema: dict, prefix: str, errors: list[ConfigError]) -> dict:
    checked = {}
    for name, rule in schema.items():
        key = f"{prefix}{name}"
        if isinstance(rule, dict):
            checked[name] = _check(values[name], rule, f"{key}.", errors)
            continue
        try:
            checked[name] = rule(_key_name(key), values[name])
        except ConfigError as error:
            errors.append(error)
    return checked


def _check_pins(pins: dict, clue_input: str, errors: list[ConfigError]) -> None:
    unused = ENCODER_PINS if clue_input == "buttons" else BUTTON_PINS
    owners: dict[int, str] = {}
    for name, pin in pins.items():
        if name in unused:
            continue
        if pin is None:
            if name in REQUIRED_PINS or name in (BUTTON_PINS if clue_input == "buttons" else ENCODER_PINS):
                errors.append(ConfigError("config.pin_required", f"[pins] {name}"))
            continue
        if pin in owners:
            errors.append(ConfigError("config.pin_twice", f"[pins] {name}", value=pin, other=f"[pins] {owners[pin]}"))
        else:
            owners[pin] = name


def pin_warnings(config: Config) -> list[ConfigError]:
    """Pins that work but clash with a configured SPI display: ``config --check`` prints them, nothing refuses them."""
    if config.display.output != "framebuffer":
        return []
    return [
        ConfigError("config.pin_display", f"[pins] {name}", value=pin, use=SPI_DISPLAY_PINS[pin])
        for name, pin in config.active_pins().items()
        if pin in SPI_DISPLAY_PINS
    ]


def _check_colours(colours: dict, errors: list[ConfigError]) -> None:
    """Identities must never look alike on the table (the assassin least of all)."""
    seen: dict[tuple, str] = {}
    for name in ("red", "blue", "bystander", "assassin", "idle"):
        colour = colours.get(name)
        if colour is None:
            continue
        if colour in seen:
            errors.append(ConfigError("config.colour_same", f"[colours] {name}", other=f"[colours] {seen[colour]}"))
        else:
            seen[colour] = name


def parse(text: str, source: str = "defaults") -> Config:
    """A Config from TOML text laid over the defaults. Raises ConfigErrors (the first; all in ``errors``)."""
    errors: list[ConfigError] = []
    defaults = tomllib.loads(default_text())
    try:
        user = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigErrors([ConfigError("config.toml", "", why=str(error))]) from error
    except RecursionError:  # arrays or tables nested thousands deep: no configuration looks like that
        raise ConfigErrors([ConfigError("config.toml_nested", "")]) from None
    values = _merge(defaults, user, "", errors)
    checked = _check(values, SCHEMA, "", errors)
    _check_colours(checked.get("colours", {}), errors)
    tiles = checked.get("tiles", {})
    if tiles.get("release_threshold", 0) >= tiles.get("touch_threshold", 256):  # the chip needs release < touch
        errors.append(ConfigError("selftest.config_release", "[tiles] release_threshold", value=tiles["release_threshold"], touch=tiles["touch_threshold"]))
    evening = checked.get("evening", {})
    if same_names(evening.get("red", ""), evening.get("blue", "")):
        errors.append(ConfigError("evening.same_names_config", "[evening] blue", value=evening["blue"]))
    if "pins" in checked and "controls" in checked and "clue_input" in checked["controls"]:
        _check_pins(checked["pins"], checked["controls"]["clue_input"], errors)
    if errors:
        raise ConfigErrors(errors)
    state_dir = checked["state_dir"]
    return Config(
        source=source,
        language=checked["language"],
        variant=checked["variant"],
        state_dir=default_state_dir() if state_dir == "auto" else Path(state_dir).expanduser(),
        **{
            name: Section(name, checked[name])
            for name in ("tiles", "leds", "colours", "display", "timer", "game", "web", "evening", "controls", "pins", "words")
        },
    )


class ConfigErrors(ValueError):
    """Every problem found in one config file."""

    def __init__(self, errors: list[ConfigError]) -> None:
        self.errors = errors
        super().__init__("; ".join(str(error) for error in errors))


def default_state_dir() -> Path:
    """Where games are kept: $XDG_STATE_HOME/codenames-board (~/.local/state/codenames-board); on
    Windows %LOCALAPPDATA%\\codenames-board. The one place that says so."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "codenames-board"
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative, which the XDG Base Directory spec says to ignore
        base = Path.home() / ".local" / "state"
    return Path(base) / "codenames-board"


# Each way of playing keeps its games in its own folder of the state folder, so that none resumes
# another's: the table (run), the simulator (sim, which runs the table in state_dir/sim) and the console.
SIM_STATE = Path("sim")  # the simulator's own state folder inside the state folder: its games, its words
GAME_FOLDERS = {"table": Path("games"), "sim": SIM_STATE / "games", "console": Path("console")}


def games_folder(state_dir: Path, games: str = "table") -> Path:
    """The folder of one way of playing's game records (``table``, ``sim`` or ``console``)."""
    return state_dir / GAME_FOLDERS[games]


SYSTEM_CONFIG = Path("/etc/codenames-board/config.toml")


def user_config_file(environ: dict | None = None) -> Path:
    """The user's config file: $XDG_CONFIG_HOME/codenames-board/config.toml (~/.config/...)."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CONFIG_HOME")
    base = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return base / "codenames-board" / "config.toml"


def config_candidates(environ: dict | None = None) -> list[Path]:
    """Where a config file is looked for, first found first: the user's, each folder of
    $XDG_CONFIG_DIRS (default /etc/xdg) as the XDG Base Directory spec orders them, then /etc's."""
    environ = os.environ if environ is None else environ
    # The spec: relative paths in these variables are invalid and ignored.
    folders = [Path(part) for part in (environ.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(os.pathsep) if part]
    system = [folder / "codenames-board" / "config.toml" for folder in folders if folder.is_absolute()]
    candidates = [user_config_file(environ), *system, SYSTEM_CONFIG]
    return list(dict.fromkeys(candidates))


def find_config(explicit: str | os.PathLike | None = None, environ: dict | None = None) -> Path | None:
    """The config file to read: --config, $CODENAMES_BOARD_CONFIG, the first of
    :func:`config_candidates` that exists, or None (the defaults)."""
    environ = os.environ if environ is None else environ
    if explicit:
        return Path(explicit)
    if environ.get("CODENAMES_BOARD_CONFIG"):
        return Path(environ["CODENAMES_BOARD_CONFIG"])
    return next((candidate for candidate in config_candidates(environ) if candidate.is_file()), None)


def load(explicit: str | os.PathLike | None = None, environ: dict | None = None) -> Config:
    """Find, read and check the config. Raises ConfigErrors, or OSError for a file that cannot be read."""
    path = find_config(explicit, environ)
    if path is None:
        return parse("", "defaults")
    try:
        text = read_regular(path).decode("utf-8-sig")  # a byte order mark, as Windows editors write one, is no TOML error
    except UnicodeDecodeError as error:
        raise ConfigErrors([ConfigError("config.encoding", "")]) from error
    except TooBig as error:
        raise ConfigErrors([ConfigError("config.too_big", "", size=error.size, most=error.most)]) from None
    except NotRegular:  # a FIFO would hang the read, /dev/zero fill the memory
        raise ConfigErrors([ConfigError("error.not_a_regular_file", "")]) from None
    return parse(text, str(path))
