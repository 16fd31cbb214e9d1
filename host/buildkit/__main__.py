"""The build kit's commands, run from a checkout's folder with the checkout's environment:

    .venv/bin/python host/buildkit wiring       rewrite wiring/ from the pin tables
    .venv/bin/python host/buildkit hardware     rewrite hardware/README.md's generated sections
    .venv/bin/python host/buildkit power        print the LED power budget of a config
    .venv/bin/python host/buildkit touch        print each pad's predicted touch signal, both routes

Each takes ``--help``. ``python -m buildkit COMMAND`` is the same where ``host/`` is on the
path (the tests). Run as a folder, ``host/buildkit`` puts ``host/`` first on the path instead
of itself, so ``buildkit`` and ``codenames_board`` are the checkout's, each imported once.
"""

import sys
from importlib import import_module
from pathlib import Path

if not __package__:  # python host/buildkit
    _KIT = Path(__file__).resolve().parent
    sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _KIT]
    sys.path.insert(0, str(_KIT.parent))

PROG = "python host/buildkit"
COMMANDS = {
    "wiring": "write wiring/: the tables, the diagrams and the netlist, from the pin tables",
    "hardware": "rewrite the build guide's parts lists and power budget; --picture, --steps, --stl DIR render the enclosure",
    "power": "print the LED power budget of a config (--config FILE; the shipped defaults without it)",
    "touch": "print each pad's predicted touch signal on both routes against a config's thresholds (--config FILE)",
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"usage: {PROG} {{{','.join(COMMANDS)}}} ...", "", "commands (each takes --help):"]
    return "\n".join(lines + [f"  {name:<{width}}  {says}" for name, says in COMMANDS.items()]) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(usage())
        return 0
    if not argv or argv[0] not in COMMANDS:
        given = f"unknown command {argv[0]!r}" if argv else "no command"
        sys.stderr.write(f"{usage()}{PROG}: {given}: choose one of {', '.join(COMMANDS)}\n")
        return 2
    return import_module(f"buildkit.{argv[0]}").main(argv[1:])


if __name__ == "__main__":
    from codenames_board.clibase import run_guarded

    sys.exit(run_guarded(main))
