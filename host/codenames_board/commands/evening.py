"""``codenames-board evening``: tonight's tally, a new evening, tonight's team names."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone

from ..clibase import EXIT_USAGE, add_config, add_lang, configured_translator, load_config
from ..config import GAME_FOLDERS, games_folder
from ..i18n import Translator


def add_parser(commands, tr: Translator) -> None:
    evening = commands.add_parser("evening", help=tr("evening.cli"), description=tr("evening.cli"))
    add_config(evening, tr)
    evening.add_argument("--games", choices=list(GAME_FOLDERS), default="table", help=tr("evening.cli_games"))
    evening.add_argument("--new", action="store_true", help=tr("evening.cli_new"))
    evening.add_argument("--names", nargs=2, metavar=("RED", "BLUE"), help=tr("evening.cli_names"))
    evening.add_argument("--json", action="store_true", help=tr("cli.stats_json"))
    add_lang(evening, tr)
    evening.set_defaults(main=main)


def main(args: argparse.Namespace, tr: Translator) -> int:
    from ..cluewords import MAX_TEAM_NAME, clean_name, same_names
    from ..evening import Evening, tally_lines

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    names = None
    if args.names:
        names = tuple(clean_name(name) for name in args.names)
        if None in names:
            bad = next(name for name, clean in zip(args.names, names) if clean is None)
            print(tr("evening.bad_name", value=bad, most=MAX_TEAM_NAME), file=sys.stderr)
            return EXIT_USAGE
        if same_names(*names):
            print(tr("evening.same_names", name=names[0]), file=sys.stderr)
            return EXIT_USAGE
    folder = games_folder(config.state_dir, args.games)
    if folder.exists() and not folder.is_dir():
        print(tr("stats.not_a_folder", path=str(folder)), file=sys.stderr)
        return EXIT_USAGE
    evening = Evening(folder, (config.evening.red, config.evening.blue), config.evening.new_after_hours)
    evening.load()
    error, now = None, datetime.now(timezone.utc)
    # Names for tonight after a long pause name the new evening, not the one that ended.
    if args.new or names and evening.next_evening(now) != evening.started:
        error = evening.begin(now)
    if names and error is None:
        error = evening.set_names(*names)
    if error is not None:
        print(tr("evening.cannot_save", path=str(folder), why=tr.disk(error)), file=sys.stderr)
        return 1
    tally = evening.tally(None, None)
    if args.json:
        print(json.dumps({"folder": str(folder), "evening": tally.to_json() if tally else None}, ensure_ascii=False))
        return 0
    print(tr("stats.folder", path=str(folder)))
    print("\n".join(tally_lines(tally, tr)) if tally else tr("evening.not_yet", games="" if args.games == "table" else f" --games {args.games}"))
    if args.new or names:
        print(tr("evening.next_game"))
    return 0
