"""``codenames-board run``: the table (what the service starts on the Pi)."""

from __future__ import annotations

import argparse
import os
import sys

from ..clibase import (
    no_screen, EXIT_INTERRUPTED, EXIT_USAGE, add_config, add_lang, add_words, chosen_words, configured_translator, hold_folder,
    load_config, seed,
)
from ..config import games_folder
from ..i18n import Translator


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def add_parser(commands, tr: Translator) -> None:
    run = commands.add_parser("run", help=tr("cli.run"), description=tr("cli.run"))
    add_config(run, tr)
    run.add_argument("--seed", type=seed(tr), metavar="N", help=tr("cli.run_seed"))
    add_words(run, tr, "words.cli_run")
    add_lang(run, tr)
    run.set_defaults(main=main)


def _log_level(tr: Translator) -> int:
    """CODENAMES_BOARD_LOG as a logging level; a word that is none of them is info, with a warning."""
    import logging

    value = os.environ.get("CODENAMES_BOARD_LOG", "info")
    if value.strip().lower() in LOG_LEVELS:
        return getattr(logging, value.strip().upper())
    print(tr("run.log_level", value=value, levels=", ".join(LOG_LEVELS)), file=sys.stderr)
    return logging.INFO


def _on_signals(stop) -> list[int]:
    """SIGTERM and SIGINT call ``stop()`` (in the main thread, between two of its steps) instead of
    ending the process mid-step; the list they return fills with the signals received."""
    import signal

    received: list[int] = []

    def handler(signum, frame) -> None:
        received.append(signum)
        stop()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    return received


def _interrupted(received: list[int]) -> int:
    import signal

    return EXIT_INTERRUPTED if signal.SIGINT in received else 0


def main(args: argparse.Namespace, tr: Translator) -> int:
    from ..screencheck import no_display

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    chosen = None  # the cards lie on the tiles
    if args.words is not None or config.words.deal:  # the table deals words: checked before anything starts
        chosen = chosen_words(config.words.pack if args.words is None else args.words, tr)
        if chosen is None:
            return EXIT_USAGE
    if config.display.output == "window" and no_display():
        print(tr("display.no_display_run"), file=sys.stderr)
        return EXIT_USAGE
    if config.display.output == "png":  # before anything is dealt or opened: no game left behind
        from ..display.outputs import png_frame_path, png_problem

        problem = png_problem(png_frame_path(str(config.display.png), 0))  # its folder made, as the display would
        if problem is not None:
            print(tr.error(problem), file=sys.stderr)
            return EXIT_USAGE
    lock = hold_folder(games_folder(config.state_dir), "run", tr, "run.state_unusable")
    if isinstance(lock, int):
        return lock  # before the tile board or the pins are touched: the table that holds them plays on
    with lock:
        return _run(config, args, tr, chosen)


def _run(config, args: argparse.Namespace, tr: Translator, chosen: tuple[str, list[str]] | None) -> int:
    import logging

    logging.basicConfig(level=_log_level(tr), format="%(levelname)s %(name)s: %(message)s")
    import warnings

    from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

    warnings.simplefilter("ignore", PinFactoryFallback)  # the one line below says what to do

    from ..controller import Runtime, prepare_mock_pins
    from ..screenworker import ScreenWorker
    from ..web import CannotListen

    # A thread waiting for the GIL (a touch arriving while the display renders) gets it within
    # 0.2 ms instead of Python's default 5 ms.
    sys.setswitchinterval(0.0002)

    def open_screen():
        # On the display's own thread, once the tiles are lit: pygame's import and the
        # output's opening take longer than everything the first LED frame needs.
        from ..display import SpymasterScreen, open_output

        output = open_output(config.display.output, config.display.size, config.display.framebuffer, config.display.png)
        return SpymasterScreen(output, tr, rotate=config.display.rotate)

    from ..deal import Deal
    from ..words import place_name

    # The keys `sim --seed` and `console --seed` deal, and with words, theirs too; unseeded, the dealer
    # keeps its place per language and pack, so no word comes back across restarts.
    pack, words = chosen if chosen is not None else (None, None)
    deal = Deal(args.seed, words, config.state_dir / place_name(pack, tr.language, words) if words else None)
    screen = ScreenWorker(open_screen)
    prepare_mock_pins()
    try:
        runtime = Runtime(
            config, tr, display=screen, deal_words=deal.words if words else None, another_word=deal.another if words else None
        )
    except BadPinFactory:
        screen.close()
        print(tr("run.no_gpio"), file=sys.stderr)
        return EXIT_USAGE
    except GPIOZeroError as error:
        screen.close()
        print(tr("run.gpio_error", why=error), file=sys.stderr)
        return EXIT_USAGE
    except CannotListen as error:
        screen.close()
        print(tr("run.web_unusable", address=error.address, port=error.port, why=error.why), file=sys.stderr)
        return EXIT_USAGE
    received = _on_signals(runtime.controller.stop)
    if args.seed is not None:
        runtime.table.new_seed = deal.key_seed
    runtime.table.word_pack = pack
    if words:  # a phone may choose the next games' pack
        runtime.table.choose_pack = lambda name: deal.choose(name, tr.language)
    try:
        runtime.start(resume=args.seed is None, wait_display=lambda: screen.start().wait_open())
    except Exception as error:
        from ..display import DisplayError, NoScreen

        runtime.close()
        if isinstance(error, NoScreen):
            return no_screen(error, tr)
        if isinstance(error, DisplayError):
            print(tr.error(error), file=sys.stderr)
            return EXIT_USAGE
        if isinstance(error, OSError):  # no game can be kept: a full, read-only or missing state folder
            where = error.filename or config.state_dir
            print(tr("run.state_unusable", path=str(where), why=error.strerror or error), file=sys.stderr)
            return EXIT_USAGE  # the service does not retry this one (RestartPreventExitStatus=2)
        raise
    if runtime.web is not None:
        logging.getLogger(__name__).info("web page: %s", runtime.web.url)
    runtime.serve()
    return _interrupted(received)
