"""What every command shares, below the commands themselves (``cli.py`` and the command modules
beside it import this, never each other): exit codes, the configuration loaded with its one-line
messages, the language chosen, and output that survives a reader who stops reading.

Exit codes: 0 done; 1 a failure at run time; 2 a mistake to fix first; 130 stopped by Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import sys

from .i18n import LANGUAGES, Translator

EXIT_FAILURE = 1  # it went wrong at run time: a device, a screen
EXIT_USAGE = 2  # bad input the user can fix: bad file, bad option
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it


def add_lang(parser: argparse.ArgumentParser, tr: Translator, top: bool = False) -> None:
    """``--lang`` before the command or after it, the same option: a command's own ``--lang`` only
    sets the language when it is given (a default there would undo the one given before it)."""
    default = None if top else argparse.SUPPRESS
    parser.add_argument("--lang", choices=LANGUAGES, default=default, help=tr("cli.lang"))


def add_config(parser: argparse.ArgumentParser, tr: Translator):
    return parser.add_argument("--config", dest="config_file", metavar="FILE", help=tr("cli.config_file"))


def configured_translator(tr: Translator, args: argparse.Namespace, config) -> Translator:
    """The language once the configuration is read: ``--lang``, then ``$CODENAMES_BOARD_LANG``, then
    the configuration's ``language``, then the system's locale. Whatever is said on the command
    line or in the environment of this one run wins over a file."""
    if getattr(args, "lang", None) or os.environ.get("CODENAMES_BOARD_LANG", "").lower() in LANGUAGES:
        return tr
    if config is not None and config.language != "auto":
        return Translator(config.language)
    return tr


def config_error_lines(source: str, errors, tr: Translator) -> list[str]:
    """One line per problem: ``FILE: [table] key: what is wrong and the fix``."""
    return [f"{source}: {tr(error.msgid, **error.params)}" for error in errors]


def load_config(explicit: str | None, tr: Translator):
    """The checked config, or None after printing every problem (the caller exits with 2)."""
    from .config import ConfigErrors, find_config, load

    path = find_config(explicit)
    if path is not None and path.exists() and not path.is_file():  # a FIFO or /dev/zero would hang the read
        print(tr("error.not_a_file", path=str(path)), file=sys.stderr)
        return None
    try:
        return load(explicit)
    except ConfigErrors as problems:
        source = str(find_config(explicit))
        for line in config_error_lines(source, problems.errors, tr):
            print(line, file=sys.stderr)
    except OSError as error:
        print(tr("error.unreadable", path=str(find_config(explicit)), why=error.strerror or error), file=sys.stderr)
    return None


def stdout_gone() -> int:
    """Standard output's reader went away (``codenames-board replay --json FILE | head -c 10``): what
    was asked is done as far as anyone reads it. No traceback; Python's last flush of stdout at exit
    goes nowhere instead of failing again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind stdout (an embedding program)
        pass
    return EXIT_FAILURE
