"""Player-facing text in the players' language.

Catalogs are TOML files in ``locale/`` (one per language, English the
reference): tables flatten to dotted message ids, values are
:meth:`str.format` templates with named fields. A message missing from a
catalog falls back to English, so a new string never shows up blank.
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
import tomllib
from functools import cache
from importlib import resources
from typing import Mapping

LANGUAGES = ("en", "de", "da", "et", "id")
DEFAULT = "en"
# Parameters whose values are words of the game (team names, word packs) get translated too.
_TRANSLATED_PARAMS = {"team": "team", "winner": "team", "loser": "team", "start": "team", "pack": "pack"}


def _flatten(table: Mapping, prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for name, value in table.items():
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{prefix}{name}."))
        else:
            flat[f"{prefix}{name}"] = value
    return flat


@cache
def catalog(language: str) -> dict[str, str]:
    """The messages of one language, by message id."""
    if language not in LANGUAGES:
        raise ValueError(language)
    text = resources.files(__package__).joinpath("locale", f"{language}.toml").read_text("utf-8")
    return _flatten(tomllib.loads(text))


class Translator:
    """``tr("console.prompt", team="red")`` gives that message in this translator's language."""

    def __init__(self, language: str = DEFAULT) -> None:
        if language not in LANGUAGES:
            raise ValueError(language)
        self.language = language

    def __repr__(self) -> str:
        return f"<Translator {self.language}>"

    def __call__(self, msgid: str, **params: object) -> str:
        template = catalog(self.language).get(msgid)
        if template is None:
            template = catalog(DEFAULT)[msgid]
        if "{cmd}" in template and "cmd" not in params:
            params["cmd"] = command_name()
        for name, section in _TRANSLATED_PARAMS.items():
            value = params.get(name)
            if isinstance(value, str) and f"{section}.{value}" in catalog(DEFAULT):
                params[name] = self(f"{section}.{value}")
        return template.format(**params)

    def has(self, msgid: str) -> bool:
        return msgid in catalog(DEFAULT)

    def error(self, error: Exception) -> str:
        """A rules or record error, said in this language."""
        msgid = getattr(error, "msgid", None)
        if msgid is None:
            return str(error)
        return self(f"error.{msgid}", **error.params)

    def disk(self, error: OSError) -> str:
        """Why a file could not be written, in the players' words ("the disk is full"); the
        system's own text for a cause without a message of ours."""
        name = errno.errorcode.get(error.errno or 0, "").lower()
        msgid = f"notice.why_{name}"
        return self(msgid) if name and self.has(msgid) else (error.strerror or str(error))

    def words(self, msgid: str) -> list[str]:
        """A comma-separated list of words (e.g. the accepted spellings of a console command)."""
        words = {word.strip().lower() for word in self(msgid).split(",")}
        words |= {word.strip().lower() for word in Translator(DEFAULT)(msgid).split(",")}
        return sorted(word for word in words if word)


COMMAND_VARIABLE = "CODENAMES_BOARD_COMMAND"  # set by host/quickstart.py: how to start this command there


def command_name(environ: Mapping[str, str] | None = None, argv0: str | None = None) -> str:
    """How the user starts this command, for the messages that name it (``{cmd}``).

    ``codenames-board`` where that name on PATH is this very program (the Pi's setup links it into
    /usr/local/bin) or where it was started as ``python -m codenames_board``; what the quick start
    says it is (``python3 host/quickstart.py``) when the quick start started it; otherwise the path
    it was started by (``.venv/bin/codenames-board``), so that a hint always names a command that works.
    """
    environ = os.environ if environ is None else environ
    argv0 = sys.argv[0] if argv0 is None else argv0
    if environ.get(COMMAND_VARIABLE):
        return environ[COMMAND_VARIABLE]
    name = os.path.basename(argv0)
    if name.split(".")[0] != "codenames-board":  # python -m codenames_board, a test, an embedding program
        return "codenames-board"
    on_path = shutil.which("codenames-board", path=environ.get("PATH"))
    try:
        if on_path is not None and os.path.samefile(on_path, argv0):
            return "codenames-board"
    except OSError:
        pass
    try:
        shown = os.path.relpath(argv0)
    except ValueError:  # another drive (Windows)
        shown = argv0
    if not shown.startswith(".."):
        shown = os.path.join(".", shown) if os.sep not in shown else shown
    else:
        shown = os.path.abspath(argv0)
    if os.name != "nt":
        import shlex

        shown = shlex.quote(shown)  # a folder with a space in its name
    return shown


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: CODENAMES_BOARD_LANG, then the usual locale variables, then English."""
    environ = os.environ if environ is None else environ
    for variable in ("CODENAMES_BOARD_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in environ.get(variable, "").split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
            if code == "in":  # the old code for Indonesian
                return "id"
    return DEFAULT
