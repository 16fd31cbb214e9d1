"""The ``codenames-board`` command.

Exit codes: 0 done; 1 a failure at run time (no tile board answered, no screen
to draw on, a self test that failed); 2 a usage mistake the user can fix (a
bad option, config, record or script; no command at all); 130 stopped by
Ctrl-C (SIGINT), after closing what was open and keeping the game. SIGTERM
(the service's stop) ends ``run`` with 0, any other command with 143, after
closing what it had open. Standard output that cannot be written (a reader
gone, a full disk) ends a command with 1 and no traceback.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import __version__
from .clibase import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, add_lang, refuse_contradictions, run_guarded, stop_on_sigterm
from .commands import bench, config, console, evening, firmware, replay, run, selftest, sim, stats
from .i18n import LANGUAGES, Translator, detect_language

__all__ = ["EXIT_FAILURE", "EXIT_INTERRUPTED", "EXIT_USAGE", "build_parser", "main"]

# In the order of --help: playing first, the table's own commands next.
COMMANDS = (console, replay, sim, run, selftest, stats, evening, config, firmware, bench)


def _language_from_argv(argv: list[str]) -> str | None:
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def build_parser(tr: Translator) -> argparse.ArgumentParser:
    """Every command's options, each from its own module (``commands/``), which also names the
    function that runs it. One name per idea across them: ``--config FILE``, ``--record FILE``,
    ``--folder DIR``, ``--seed N``; options that contradict each other are refused."""
    parser = argparse.ArgumentParser(prog="codenames-board", description=tr("cli.description"))
    parser.add_argument("--version", action="version", version=f"codenames-board {__version__}")
    add_lang(parser, tr, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands, tr)
    parser.command_parsers = commands.choices  # for errors in a command's own words (refuse_contradictions)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    language = _language_from_argv(argv)
    tr = Translator(language if language in LANGUAGES else detect_language())
    stop_on_sigterm()
    return run_guarded(lambda: _command(argv, tr), tr)


def _command(argv: list[str], tr: Translator) -> int:
    parser = build_parser(tr)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_usage(sys.stderr)
        print(tr("cli.no_command"), file=sys.stderr)
        return EXIT_USAGE
    refuse_contradictions(args, parser, tr)
    return args.main(args, tr)
