"""``codenames-board selftest``: every part of the table in turn, with a person to say what it saw."""

from __future__ import annotations

import argparse
import sys

from ..clibase import no_screen, EXIT_USAGE, add_config, add_lang, configured_translator, load_config, positive
from ..i18n import Translator


def add_parser(commands, tr: Translator) -> None:
    selftest = commands.add_parser("selftest", help=tr("cli.selftest"), description=tr("cli.selftest"))
    add_config(selftest, tr)
    selftest.add_argument("--yes", action="store_true", help=tr("cli.selftest_yes"))
    selftest.add_argument("--timeout", type=positive(float, tr, 3600), default=15.0, metavar="SECONDS", help=tr("cli.selftest_timeout"))
    selftest.add_argument("--pads", action="store_true", help=tr("selftest.cli_pads"))
    add_lang(selftest, tr)
    selftest.set_defaults(main=main)


def main(args: argparse.Namespace, tr: Translator) -> int:
    if args.pads:  # each pad's signal against its thresholds, live
        from .. import selftest_pads

        return selftest_pads.main(args, tr)
    import queue
    import warnings

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

    from ..controller import configure_tileboard, prepare_mock_pins
    from ..controls import Controls
    from ..display import DisplayError, NoScreen, open_output
    from ..selftest import SelfTest, PatternScreen
    from ..tileboard import open_tileboard

    warnings.simplefilter("ignore", PinFactoryFallback)
    prepare_mock_pins()
    events: queue.Queue = queue.Queue()
    try:
        controls = Controls(config, events.put)
    except BadPinFactory:
        print(tr("run.no_gpio"), file=sys.stderr)
        return EXIT_USAGE
    except GPIOZeroError as error:
        print(tr("run.gpio_error", why=error), file=sys.stderr)
        return EXIT_USAGE
    status_leds = config.tiles.timer_leds + config.tiles.turn_leds
    options = {"port": config.tiles.port} if config.tiles.driver == "serial" else {}
    board = open_tileboard(config.tiles.driver, on_event=events.put, status_leds=status_leds, **options)
    configure_tileboard(board, config)
    try:
        screen = PatternScreen(
            open_output(config.display.output, config.display.size, config.display.framebuffer, config.display.png)
        )
    except NoScreen as error:  # a window nobody sees would pass the display's test
        board.close()
        controls.close()
        return no_screen(error, tr)
    except DisplayError as error:  # as `run` would: a display test on a display that cannot show is none
        board.close()
        controls.close()
        print(tr.error(error), file=sys.stderr)
        return EXIT_USAGE
    yes_words = tr.words("selftest.yes_words")

    class NoAnswers(Exception):
        """Standard input ended: nobody is there to say what the LEDs, the buzzer and the screen did."""

    def ask(question: str) -> bool:
        if args.yes:
            return True
        try:
            return input(f"{question} {tr('selftest.question_hint')} ").strip().lower() in yes_words
        except EOFError:
            raise NoAnswers from None  # a "no" would report hardware faults nobody saw

    try:
        passed = SelfTest(config, tr, board, controls, events, screen, ask=ask, timeout=args.timeout).run()
    except NoAnswers:
        print(file=sys.stderr)
        print(tr("selftest.no_answers"), file=sys.stderr)
        return EXIT_USAGE
    finally:
        board.close()
        controls.close()
        if screen is not None:
            screen.close()
    return 0 if passed else 1
