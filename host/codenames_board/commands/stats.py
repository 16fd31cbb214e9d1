"""``codenames-board stats``: what the records of one folder say."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..clibase import EXIT_USAGE, add_config, add_lang, configured_translator, load_config
from ..config import GAME_FOLDERS, games_folder
from ..i18n import Translator


def add_parser(commands, tr: Translator) -> None:
    stats = commands.add_parser("stats", help=tr("cli.stats"), description=tr("cli.stats"))
    add_config(stats, tr)
    where = stats.add_mutually_exclusive_group()
    where.add_argument("--games", choices=list(GAME_FOLDERS), default=None, help=tr("cli.stats_games"))
    where.add_argument("--folder", type=Path, metavar="DIR", help=tr("cli.stats_folder"))
    stats.add_argument("--json", action="store_true", help=tr("cli.stats_json"))
    add_lang(stats, tr)
    stats.set_defaults(main=main)


def main(args: argparse.Namespace, tr: Translator) -> int:
    from ..stats import collect, count_records, report

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    games = args.games or "table"
    folder = args.folder or games_folder(config.state_dir, games)
    if (folder.exists() or args.folder) and not folder.is_dir():  # a default folder is made by the first game
        print(tr("stats.not_a_folder", path=str(folder)), file=sys.stderr)
        return EXIT_USAGE
    stats = collect(folder)
    if args.json:
        print(json.dumps({"folder": str(folder), **stats.to_json()}, ensure_ascii=False))
        return 0
    print("\n".join(report(stats, tr, folder)))
    if args.folder is None and args.games is None:  # where else games were played here, and how to see them
        for name in GAME_FOLDERS:
            count = count_records(games_folder(config.state_dir, name)) if name != games else 0
            if count:
                print(tr(f"stats.other_{name}", count=count))
    return 0
