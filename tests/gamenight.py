"""A whole game night, scripted: ten games (classic and duo, rematches, a word re-dealt, a word pack and a
list of the group's own, a strict time-up, a penalty) for the simulator and the same evening for the console.

The scripts are written from the keys the seeds deal (``Key.generate(seed + n)`` for a run's game n), so each
game ends as planned; ``EXPECTED`` is the evening's score they add up to. ``tests/sim/test_game_night.py``
plays them and checks the score, the records and ``replay``. Run as a program, this writes the scripts into a
folder and plays them there, making the README's pictures of the evening::

    .venv/bin/python tests/gamenight.py DIR      # DIR/sim-*.txt, DIR/shots/*.png, the games in DIR/state
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

HOST = Path(__file__).resolve().parents[1] / "host"
if str(HOST) not in sys.path:
    sys.path.insert(0, str(HOST))

from codenames_board.engine import Key, Team, tile_name  # noqa: E402

SIZE = "1280x720"
OWN_WORDS = """# The group's own words: in-jokes and places of the evening's friends (any list of 25 or more works)
lighthouse
harbour
ferry
bicycle
sauna
lantern
garden
kettle
blanket
marmalade
compass
orchard
violin
chimney
meadow
anchor
pancake
telescope
puzzle
waffle
scooter
greenhouse
mitten
bonfire
hammock
pebble
raincoat
teapot
"""


@dataclass
class Run:
    """One start of the simulator (or the console) in the evening's folder, and the games it plays."""

    name: str
    seed: int
    variant: str = "classic"
    words: str | None = None  # a pack's name, or "own" for OWN_WORDS
    strict: bool = False  # the strict sand timer, 10 s to guess
    games: list = field(default_factory=list)  # (script lines, console lines, winner or duo score)


def _agents(key: Key, team: Team) -> list[int]:
    return key.agents(team)


def _names(tiles) -> list[str]:
    return [f"touch {tile_name(tile)}" for tile in tiles]


def _console(tiles) -> list[str]:
    return [tile_name(tile) for tile in tiles]


def assassin_game(key: Key) -> tuple[list[str], list[str], object]:
    """The start team's first guess is the assassin: the other team wins."""
    assassin = key.letters.index("A")
    return ["clue 1", f"touch {tile_name(assassin)}"], ["1", tile_name(assassin)], key.start.other


def sweep_game(key: Key) -> tuple[list[str], list[str], object]:
    """The start team finds all its agents on an unlimited clue."""
    own = _agents(key, key.start)
    return ["clue unlimited", *_names(own)], ["u", *_console(own)], key.start


def redealt_game(key: Key) -> tuple[list[str], list[str], object]:
    """A disliked word dealt again before the first clue; two agents, a bystander; the other team sweeps."""
    own, other = _agents(key, key.start), _agents(key, key.start.other)
    bystander = key.letters.index("N")
    sim = ["redeal A1", "screenshot shots/evening-1-redealt.png", "clue 2", *_names(own[:2]), f"touch {tile_name(bystander)}",
           "clue unlimited", *_names(other)]
    console = ["2", *_console(own[:2]), tile_name(bystander), "u", *_console(other)]
    return sim, console, key.start.other


def penalty_game(key: Key) -> tuple[list[str], list[str], object]:
    """An illegal clue: the turn ends at once, the other team covers one of its agents and then sweeps."""
    own, other = _agents(key, key.start), _agents(key, key.start.other)
    sim = ["clue 3", *_names(own[:1]), "hold end_turn 3", "screenshot shots/evening-2-penalty.png", "press clue_confirm",
           f"touch {tile_name(other[0])}", "clue unlimited", *_names(other[1:])]
    console = ["3", *_console(own[:1]), "penalty", tile_name(other[0]), "u", *_console(other[1:])]
    return sim, console, key.start.other


def duo_win(key: Key, first: int, end_turn: bool) -> tuple[list[str], list[str], object]:
    """The players find ``first`` agents, end their turn (END TURN or a bystander), cover one shadow agent,
    then find the rest: a win scoring 7 (one of 8 shadow agents covered)."""
    own, shadow = _agents(key, key.start), _agents(key, key.start.other)
    bystander = key.letters.index("N")
    stop_sim, stop_console = (["press end_turn"], ["end"]) if end_turn else ([f"touch {tile_name(bystander)}"], [tile_name(bystander)])
    sim = [f"clue {first}", *_names(own[:first]), *stop_sim, f"touch {tile_name(shadow[0])}", "clue unlimited", *_names(own[first:])]
    console = [str(first), *_console(own[:first]), *stop_console, tile_name(shadow[0]), "u", *_console(own[first:])]
    return sim, console, 7


def duo_loss(key: Key) -> tuple[list[str], list[str], object]:
    sim, console, _ = assassin_game(key)
    return sim, console, None


def strict_game(key: Key) -> tuple[list[str], list[str], object]:
    """The strict sand timer runs out on the start team's guesses; the other team sweeps."""
    own, other = _agents(key, key.start), _agents(key, key.start.other)
    sim = ["clue 2", *_names(own[:1]), "press sand_timer", "wait 10.5", "screenshot shots/evening-4-time-up.png",
           "clue unlimited", *_names(other)]
    console = ["2", *_console(own[:1]), "timeout", "u", *_console(other)]
    return sim, console, key.start.other


def evening() -> list[Run]:
    """The ten games, in three runs: classic, then duo with the easy pack, then classic on the group's words."""
    plans = [
        Run("1-classic", 101, games=[redealt_game, penalty_game, assassin_game, sweep_game]),
        Run("2-duo", 201, "duo", "easy", games=[lambda key: duo_win(key, 4, False), duo_loss, lambda key: duo_win(key, 3, True)]),
        Run("3-own-words", 301, "classic", "own", strict=True, games=[strict_game, assassin_game, sweep_game]),
    ]
    for run in plans:
        run.games = [plan(Key.generate(run.seed + number)) for number, plan in enumerate(run.games)]
    return plans


def expected(runs: list[Run]) -> dict:
    """The score the evening adds up to: classic wins per team, duo played, won, best, streak."""
    wins, duo = {"red": 0, "blue": 0}, []
    for run in runs:
        for _, _, result in run.games:
            if run.variant == "duo":
                duo.append(result)
            else:
                wins[result.value] += 1
    streak = 0
    for score in duo:
        streak = streak + 1 if score is not None else 0
    won = [score for score in duo if score is not None]
    return {"wins": wins, "duo": {"played": len(duo), "won": len(won), "best": max(won, default=None), "streak": streak}}


def sim_script(run: Run, last: bool) -> str:
    """The run's games, a rematch (NEW GAME held) between them and a picture of the score after each run."""
    lines = [f"# Game night, part {run.name}: {len(run.games)} games (tests/gamenight.py writes this)"]
    for number, (sim, _, _) in enumerate(run.games):
        if number:
            lines += ["hold new_game 3"]
        lines += sim + ["wait 3"]  # the sweep of the key after the game
    lines.append(f"screenshot shots/evening-score-{run.name}.png {SIZE}")
    if last:
        lines += ["spymaster hide", f"screenshot shots/evening-10-tiles-{run.name}.png {SIZE}"]
    return "\n".join(lines) + "\n"


def console_input(run: Run) -> str:
    lines = []
    for number, (_, console, _) in enumerate(run.games):
        if number:
            lines.append("new")
        lines += console
    return "\n".join([*lines, "score", "quit"]) + "\n"


def config_text(run: Run, state: Path) -> str:
    text = f'state_dir = "{state}"\n'
    if run.strict:
        text += '[timer]\nmode = "strict"\nguess_seconds = 10\nclue_seconds = 0\n'
    return text


def write(folder: Path, state: Path) -> list[tuple[Run, Path, Path]]:
    """The scripts, configs and the group's own list in ``folder``: (run, script, config) per run."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "own-words.txt").write_text(OWN_WORDS)
    runs = evening()
    made = []
    for index, run in enumerate(runs):
        script, config = folder / f"sim-{run.name}.txt", folder / f"config-{run.name}.toml"
        script.write_text(sim_script(run, index == len(runs) - 1))
        config.write_text(config_text(run, state))
        made.append((run, script, config))
    return made


def sim_args(run: Run, script: Path, config: Path, state: Path) -> list:
    args = ["sim", "--headless", "--seed", run.seed, "--variant", run.variant, "--script", script, "--keep", state,
            "--config", config, "--size", SIZE]
    if run.words:
        args += ["--words", script.parent / "own-words.txt" if run.words == "own" else run.words]
    return args


def console_args(run: Run, folder: Path, config: Path) -> list:
    args = ["console", "--seed", run.seed, "--variant", run.variant, "--config", config]
    if run.words:
        args += ["--words", folder / "own-words.txt" if run.words == "own" else run.words]
    return args


if __name__ == "__main__":
    import subprocess

    out = Path(sys.argv[1]).resolve()
    state = out / "state"
    for run, script, config in write(out, state):
        command = [sys.executable, "-m", "codenames_board", *map(str, sim_args(run, script, config, state))]
        subprocess.run(command, check=True, env={**__import__("os").environ, "PYTHONPATH": str(HOST)})
    print(f"pictures in {out / 'shots'}; score: {expected(evening())}")
