"""``codenames-board console``: the game in a terminal, without the table."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path

from ..clibase import (
    EXIT_INTERRUPTED, EXIT_USAGE, add_config, add_lang, add_words, chosen_words, configured_translator, hold_folder, load_config, seed,
)
from ..config import games_folder
from ..engine import BadKey, Key, VARIANTS
from ..i18n import Translator
from ..record import RecordError, error_line as record_error_line, read_record


def add_parser(commands, tr: Translator) -> None:
    console = commands.add_parser("console", help=tr("cli.console"), description=tr("cli.console"))
    add_config(console, tr)
    console.add_argument("--variant", choices=list(VARIANTS), help=tr("cli.variant"))
    deal = console.add_mutually_exclusive_group()
    deal.add_argument("--seed", type=seed(tr), metavar="N", help=tr("cli.seed"))
    deal.add_argument("--key", metavar="KEY", help=tr("cli.key"))
    console.add_argument("--record", type=Path, metavar="FILE", help=tr("cli.record"))
    add_words(console, tr)
    add_lang(console, tr)
    console.set_defaults(main=main)


def main(args: argparse.Namespace, tr: Translator) -> int:
    from ..console import Console
    from ..deal import Deal
    from ..words import place_name

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    if (args.seed is not None or args.key or args.variant) and args.record is not None and _is_record(args.record):
        print(tr("cli.record_dealt", path=str(args.record)), file=sys.stderr)  # they would be ignored
        return EXIT_USAGE
    if args.words is not None and args.record is not None and _is_record(args.record):
        print(tr("words.record_dealt", path=str(args.record)), file=sys.stderr)  # so would this
        return EXIT_USAGE
    chosen = chosen_words(config.words.pack if args.words is None else args.words, tr)
    if chosen is None:
        return EXIT_USAGE
    pack, words = chosen
    key = None
    if args.key:
        try:
            key = Key.from_text(args.key)
        except BadKey as error:
            print(tr("error.bad_key_option", why=tr.error(error)), file=sys.stderr)
            return EXIT_USAGE
    colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
    # The console's games are kept apart from the table's: `run` never resumes one of them.
    folder = games_folder(config.state_dir, "console")
    # The keys and words `sim --seed` and `run --seed` deal; unseeded, no word comes back across games.
    deal = Deal(args.seed, words, folder / place_name(pack, tr.language, words))  # the place: per language and pack
    from ..evening import Evening

    # Tonight's tally counts the games of the folder played in: the console's, or the record's.
    where = folder if args.record is None else args.record.parent
    evening = Evening(where, (config.evening.red, config.evening.blue), config.evening.new_after_hours)
    evening.load(args.record if args.record is not None else None)
    console = Console(tr, folder, args.variant or config.variant, colour=colour, deal=deal, pack=pack, evening=evening)
    if args.record is None:
        lock = hold_folder(folder, "console", tr, "console.state_unusable")
    elif not args.record.parent.is_dir():  # its folder is not made: a mistyped path would be
        print(tr("error.unwritable", path=str(args.record), why=os.strerror(errno.ENOENT)), file=sys.stderr)
        return EXIT_USAGE
    else:  # the folder the record is in: not while a table or another console plays there
        lock = hold_folder(args.record.parent, "console", tr, "error.unwritable", make=False)
    if isinstance(lock, int):
        return lock
    with lock:
        return _console(console, key, args, folder, tr)


def _console(console, key, args: argparse.Namespace, folder: Path, tr: Translator) -> int:
    import signal

    received: list[int] = []

    def interrupt(signum, frame):
        received.append(signum)
        raise KeyboardInterrupt  # the console saves and says where (as Python's own handler would)

    signal.signal(signal.SIGINT, interrupt)
    try:
        try:
            if args.record is not None and args.record.exists():
                console.resume(args.record)
            else:
                console.start_new(key, path=args.record)
        except RecordError as error:
            print(record_error_line(str(args.record), error, tr), file=sys.stderr)
            return EXIT_USAGE
        except OSError as error:
            if args.record is None:  # the console's folder in the state folder
                print(tr("console.state_unusable", path=str(error.filename or folder), why=error.strerror or error), file=sys.stderr)
            else:
                print(tr("error.unwritable", path=str(error.filename or args.record), why=error.strerror or error), file=sys.stderr)
            return EXIT_USAGE
        console.run()
    except KeyboardInterrupt:  # before the console's own loop caught it: end as that loop would
        import io

        console.run(io.StringIO())  # no more input: it says where the game is kept and closes it
    return EXIT_INTERRUPTED if received else 0


def _is_record(path: Path) -> bool:
    """A game record is there (not an empty file, not another kind of file: those are said as they are)."""
    try:
        read_record(path)
    except (RecordError, OSError):
        return False
    return True
