"""The hardware folder (``hardware/``): the parts list, the power budget and the enclosure's renders.

``hardware/bom.csv`` is the parts list (part, quantity, example, notes);
``hardware/costs.csv`` gives each of its parts a price (of what a builder buys:
a pack, a spool, a sheet) and where the figure comes from.
``hardware/README.md`` (the build guide's main path) shows the list short, a
part, how many, an example and its cost; ``hardware/appendix-parts.md`` shows it
whole, with each part's notes and the totals (the table without the Pi, the Pi,
the game), and carries the power budget (``power.py``). The guide's pages
(``GUIDE_PAGES``) hold these between ``<!-- generated: NAME -->`` and
``<!-- end: NAME -->`` markers, each section on one page. ``python host/buildkit hardware`` rewrites those
sections; ``--check`` says whether they are up to date; ``--picture`` renders
``hardware/table.png``, ``--steps`` the build guide's step pictures (``steps.py``) and ``--stl FOLDER`` every
printable part of ``hardware/enclosure.scad`` with OpenSCAD (those three only render); ``--define NAME=VALUE`` (again for each)
sets a model parameter for both, as OpenSCAD's ``-D`` does.

The folder is a checkout's (a git clone or the unpacked sdist), as the build
kit is: neither is in the wheel. Run as ``host/buildkit`` of a checkout, the
command finds that checkout's ``hardware/``; a copy of the kit elsewhere takes
``./hardware`` (or ``--folder``) and otherwise says in one line where to get one.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from codenames_board import __version__
from codenames_board.config import Config, parse
from . import power, steps

COMMAND = "python host/buildkit hardware"
BOM_COLUMNS = ("part", "quantity", "example", "notes")
COST_COLUMNS = ("part", "price", "pack", "sold_as", "currency", "checked", "basis")
#: the Pi and what only it needs: left out of the kit without a Pi
PI_PARTS = ("Raspberry Pi", "microSD card", "Pi power supply")
#: the game itself: its cards lie on the tiles, but it is no part of the kit
GAME_PARTS = ("Codenames game",)
#: The faster route (an MDF top): its own rows are named "... for the MDF route (optional)"; these rows of the
#: printed route it leaves out (the plate's PLA, the hood's inserts: nuts under the sheet instead).
MDF_ROUTE = "for the MDF route"
MDF_DROPS = ("top plate", "threaded insert M3")
#: The build guide's pages, in reading order: the main path first, then its appendices.
GUIDE_PAGES = ("README.md", "appendix-parts.md", "appendix-design.md", "appendix-mdf-route.md", "appendix-variants.md",
               "appendix-steps.md", "appendix-checks.md", "appendix-troubleshooting.md")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
PICTURE_SIZE = (1200, 900)


class BomError(ValueError):
    """A problem in bom.csv: the line and what to do about it."""


@dataclass(frozen=True)
class Part:
    part: str
    quantity: int
    example: str
    notes: str


def read_bom(text: str, source: str = "bom.csv") -> list[Part]:
    """The parts of a bom.csv text; BomError names the first bad line and the fix."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(cell.strip() for cell in rows[0]) != BOM_COLUMNS:
        raise BomError(f"{source}:1: the header must be {','.join(BOM_COLUMNS)}")
    parts = []
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(BOM_COLUMNS):
            raise BomError(f"{source}:{number}: {len(row)} fields, expected {len(BOM_COLUMNS)}: quote a field that has a comma")
        part, quantity, example, notes = (cell.strip() for cell in row)
        if not part:
            raise BomError(f"{source}:{number}: the part is empty: name it")
        if not quantity.isdigit():
            raise BomError(f"{source}:{number}: quantity {quantity!r} is not a whole number: write e.g. 1 (0 for an optional part)")
        parts.append(Part(part, int(quantity), example, notes))
    return parts


@dataclass(frozen=True)
class Cost:
    """What a builder pays for one purchase of a part: ``price`` cents for ``pack`` of the parts list's units."""

    part: str
    price: int  # cents
    pack: int  # how many of the part's quantity units one purchase holds (pieces, metres, a whole plate)
    sold_as: str
    currency: str
    checked: str  # YYYY-MM
    basis: str

    def packs(self, quantity: int) -> int:
        """Whole purchases for ``quantity`` (0 for an optional part: it is not counted)."""
        return math.ceil(quantity / self.pack) if quantity > 0 else 0

    def cost(self, quantity: int) -> int:
        return self.packs(quantity) * self.price


def _cents(text: str) -> int | None:
    match = re.fullmatch(r"(\d+)(?:\.(\d{1,2}))?", text)
    return None if match is None else int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))


def read_costs(text: str, source: str = "costs.csv") -> list[Cost]:
    """The prices of a costs.csv text; BomError names the first bad line and the fix."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(cell.strip() for cell in rows[0]) != COST_COLUMNS:
        raise BomError(f"{source}:1: the header must be {','.join(COST_COLUMNS)}")
    costs: list[Cost] = []
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(COST_COLUMNS):
            raise BomError(f"{source}:{number}: {len(row)} fields, expected {len(COST_COLUMNS)}: quote a field that has a comma")
        part, price, pack, sold_as, currency, checked, basis = (cell.strip() for cell in row)
        cents = _cents(price)
        if cents is None:
            raise BomError(f"{source}:{number}: price {price!r} is not an amount: write e.g. 7.95 (0 for a part counted with another)")
        if not pack.isdigit() or int(pack) == 0:
            raise BomError(f"{source}:{number}: pack {pack!r} is not a whole number of the part's units: write e.g. 10 for a bag of 10")
        if not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", checked):
            raise BomError(f"{source}:{number}: checked {checked!r} is not a month: write e.g. 2026-11")
        if not sold_as or not basis:
            raise BomError(f"{source}:{number}: say what is bought (sold_as) and what the price is based on (basis)")
        if costs and currency != costs[0].currency:
            raise BomError(f"{source}:{number}: currency {currency} differs from {costs[0].currency} above: give every price in one currency")
        costs.append(Cost(part, cents, int(pack), sold_as, currency, checked, basis))
    return costs


def priced(parts: list[Part], costs: list[Cost], source: str = "costs.csv") -> dict[str, Cost]:
    """Each part's price; BomError names a part without a price, a price without a part, a part priced twice."""
    by_part: dict[str, Cost] = {}
    for cost in costs:
        if cost.part in by_part:
            raise BomError(f"{source}: {cost.part!r} has two rows: keep one")
        by_part[cost.part] = cost
    names = [part.part for part in parts]
    for name in names:
        if name not in by_part:
            raise BomError(f"{source}: no price for {name!r} of bom.csv: add a row for it (0 if another row counts it)")
    for name in by_part:
        if name not in names:
            raise BomError(f"{source}: {name!r} is not in bom.csv: remove its row, or name the part exactly as bom.csv does")
    return by_part


@dataclass(frozen=True)
class Totals:
    """In cents: the table without the Pi (nor the game), the Pi with its card and supply, the game; the optional parts."""

    kit: int
    pi: int
    game: int
    optional: tuple[tuple[str, int], ...]  # (part, what it would add)

    @property
    def with_pi(self) -> int:
        return self.kit + self.pi


def totals(parts: list[Part], prices: dict[str, Cost]) -> Totals:
    sums = {"kit": 0, "pi": 0, "game": 0}
    for part in parts:
        group = "pi" if part.part in PI_PARTS else "game" if part.part in GAME_PARTS else "kit"
        sums[group] += prices[part.part].cost(part.quantity)
    optional = tuple((p.part, prices[p.part].price) for p in parts if p.quantity == 0)
    return Totals(sums["kit"], sums["pi"], sums["game"], optional)


def mdf_route(parts: list[Part], prices: dict[str, Cost]) -> int:
    """In cents: the table without a Pi on the faster route (its rows in, the printed top's out)."""
    kit = totals(parts, prices).kit
    dropped = sum(prices[p.part].cost(p.quantity) for p in parts if p.part in MDF_DROPS)
    added = sum(prices[p.part].price for p in parts if MDF_ROUTE in p.part)
    return kit - dropped + added


def money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def _month(checked: str) -> str:
    year, month = checked.split("-")
    return f"{MONTHS[int(month) - 1]} {year}"


def _cost_cell(part: Part, cost: Cost) -> tuple[str, str]:
    """(what is bought, its cost) for the table."""
    if part.quantity == 0:
        return f"not counted: {cost.sold_as}", f"({money(cost.price)})"
    if cost.price == 0:
        return cost.sold_as, money(0)
    packs = cost.packs(part.quantity)
    bought = cost.sold_as if packs == 1 else f"{packs} x {cost.sold_as}"
    return bought, money(cost.cost(part.quantity))


def bom_markdown(parts: list[Part], costs: list[Cost] | None = None) -> str:
    prices = priced(parts, costs) if costs is not None else None
    currency = costs[0].currency if costs else ""
    lines = ["| part | quantity | example | notes |" + (f" you buy | cost ({currency}) |" if prices else ""),
             "|---|---|---|---|" + ("---|---:|" if prices else "")]
    for p in parts:
        cells = [p.part, str(p.quantity) if p.quantity else "optional", p.example, p.notes]
        if prices:
            cells += _cost_cell(p, prices[p.part])
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    text = (
        f"From [`bom.csv`](bom.csv) (written by `{COMMAND}`). Quantities are for the default build: "
        "the buttons, 25 tiles, the LED counts in `firmware/board.py` and the enclosure's defaults."
        + (" Prices from [`costs.csv`](costs.csv), whose `basis` column says what each figure is based on." if prices else "")
        + "\n\n"
        + "\n".join(lines)
        + "\n"
    )
    return text + (costs_markdown(parts, costs, prices) if prices else "")


def shopping_markdown(parts: list[Part], costs: list[Cost]) -> str:
    """The parts list as the guide's main path shows it: what to buy, how many and what it costs; the notes and the
    MDF route's own parts are the appendix's."""
    prices = priced(parts, costs)
    lines = [f"| part | quantity | example | cost ({costs[0].currency}) |", "|---|---|---|---:|"]
    for p in (p for p in parts if MDF_ROUTE not in p.part):
        cost = _cost_cell(p, prices[p.part])[1]
        cells = [p.part, str(p.quantity) if p.quantity else "optional", p.example, cost]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    t = totals(parts, prices)
    return (
        "\n".join(lines) + "\n\n"
        f"**The table with a Pi: {money(t.with_pi)}** ({money(t.kit)} without the Pi, its card and its supply), "
        f"on the printed route, in whole packs; the game {money(t.game)} more. What each part is for, what to look "
        "for when you buy it, and the MDF route's parts: [the parts in full](appendix-parts.md#parts-with-their-notes).\n"
    )


def costs_markdown(parts: list[Part], costs: list[Cost], prices: dict[str, Cost]) -> str:
    t = totals(parts, prices)
    months = sorted({cost.checked for cost in costs})
    when = _month(months[0]) if len(months) == 1 else f"{_month(months[0])} to {_month(months[-1])}"
    optional = "; ".join(f"the {name.removesuffix(' (optional)')} would add {money(price)}" for name, price in t.optional
                         if MDF_ROUTE not in name)  # fmt: skip
    mdf = [p.part.removesuffix(" (optional)").removesuffix(f" {MDF_ROUTE}") for p in parts if MDF_ROUTE in p.part]
    mdf_row = (
        f"| the faster route instead (an MDF top, below): the table without a Pi, with its {len(mdf)} rows ("
        + ", ".join(mdf) + f") and without the {' and the '.join(MDF_DROPS)} | {money(mdf_route(parts, prices))} |\n"
        if mdf else ""
    )
    pi = ", ".join(PI_PARTS[:-1]) + " and " + PI_PARTS[-1]
    return (
        f"\n### What it costs\n\n"
        f"In {costs[0].currency}, approximate, as checked in {when}: prices move (memory has pushed the Pi's up "
        "since 2025), so check your shop. Each part costs what you pay for it: whole packs, spools and sheets "
        "at their price (a box of 100 screws for 20 of them, two 1 kg spools of PLA for a plate of over a kilogram, one "
        "hardboard sheet for the LED board and the floor), and the leftovers stay in your drawer. The printed "
        f"route; optional parts are not counted ({optional or 'none'}).\n\n"
        "| | cost |\n|---|---:|\n"
        f"| the table without a Pi: every part above but the {pi}, and the game | {money(t.kit)} |\n"
        f"| the {pi} | {money(t.pi)} |\n"
        f"| **the table with a Pi** | **{money(t.with_pi)}** |\n"
        + mdf_row
        + f"| the Codenames game, bought separately (its word cards lie on the tiles) | {money(t.game)} |\n"
    )


def _section(name: str, body: str) -> str:
    return f"<!-- generated: {name} -->\n{body}<!-- end: {name} -->"


def replace_sections(text: str, sections: dict[str, str], source: str = "README.md") -> str:
    """``text`` with each generated section's body replaced; a missing marker is an error."""
    for name, body in sections.items():
        pattern = re.compile(rf"<!-- generated: {re.escape(name)} -->\n.*?<!-- end: {re.escape(name)} -->", re.S)
        if len(pattern.findall(text)) != 1:
            raise BomError(f"{source}: needs one '<!-- generated: {name} -->' ... '<!-- end: {name} -->' pair")
        text = pattern.sub(lambda _: _section(name, body), text)
    return text


def default_folder(cwd: Path | None = None) -> Path | None:
    """``hardware/`` of the checkout this module runs from, else ``./hardware``, else None (a kit away from a checkout)."""
    for folder in (Path(__file__).resolve().parents[2] / "hardware", (cwd or Path.cwd()) / "hardware"):
        if (folder / "bom.csv").is_file():
            return folder
    return None


NO_FOLDER = (
    "no hardware/ folder here: this command checks and rewrites hardware/README.md of a codenames-board "
    f"checkout (a git clone, or the sdist codenames_board-{__version__}.tar.gz unpacked), and finds none around "
    "it or in the current folder: run the checkout's own (python host/buildkit hardware there), or pass --folder DIR"
)


def pages(folder: Path, config: Config | None = None) -> dict[str, str]:
    """The guide's pages as they should be (name: text): their generated sections from bom.csv, costs.csv and the
    power budget, each section on the one page that carries it."""
    config = parse("") if config is None else config
    bom_path, costs_path = folder / "bom.csv", folder / "costs.csv"
    parts = read_bom(bom_path.read_text("utf-8"), str(bom_path))
    costs = read_costs(costs_path.read_text("utf-8"), str(costs_path))
    priced(parts, costs, str(costs_path))  # names the file in a missing or extra row's message
    sections = {"shopping": shopping_markdown(parts, costs), "bom": bom_markdown(parts, costs),
                "power": power.markdown(power.power_budget(config), config)}
    texts = {name: (folder / name).read_text("utf-8") for name in GUIDE_PAGES if (folder / name).is_file()}
    if "README.md" not in texts:
        raise BomError(f"{folder / 'README.md'}: not found")
    result = {}
    for name, text in texts.items():
        here = {key: body for key, body in sections.items() if f"<!-- generated: {key} -->" in text}
        result[name] = replace_sections(text, here, str(folder / name))
        sections = {key: body for key, body in sections.items() if key not in here}
    if sections:
        missing = ", ".join(f"'<!-- generated: {key} -->'" for key in sections)
        raise BomError(f"{folder}: no page of the guide has {missing} ... '<!-- end: NAME -->': put it back on one")
    return result


def readme(folder: Path, config: Config | None = None) -> str:
    """``hardware/README.md`` as it should be (the guide's main path; ``pages`` gives every page)."""
    return pages(folder, config)["README.md"]


def guide_text(folder: Path) -> str:
    """The whole guide as committed, its pages in reading order: what the tests look for a sentence in."""
    return "\n".join((folder / name).read_text("utf-8") for name in GUIDE_PAGES if (folder / name).is_file())


# --- OpenSCAD


def openscad() -> str | None:
    return shutil.which("openscad")


def scad_command(scad: Path, output: Path, *defines: str) -> list[str]:
    """OpenSCAD writing ``output`` (its kind by the suffix) with ``-D`` defines such as ``part="hood"``."""
    command = [openscad() or "openscad", "-o", str(output)]
    for define in defines:
        command += ["-D", define]
    return [*command, str(scad)]


def picture_command(scad: Path, output: Path, *defines: str) -> list[str]:
    """The whole table from the spymasters' corner (OpenSCAD's preview renderer: needs a display or xvfb-run)."""
    command = scad_command(scad, output, 'part="all"', "show_cards=true", *defines)
    match = re.search(r'ECHO: "figure camera = \[([^\]]+)\]"', echoes(scad, *defines))
    if not match:
        raise RuntimeError(f"{scad}: OpenSCAD printed no 'figure camera' line")
    camera = ",".join(f"{float(n):g}" for n in match[1].split(","))
    command[1:1] = ["--imgsize", f"{PICTURE_SIZE[0]},{PICTURE_SIZE[1]}", "--colorscheme", "Tomorrow", f"--camera={camera}"]
    if needs_xvfb():
        command[:0] = ["xvfb-run", "-a"]
    return command


def step_commands(folder: Path | PurePosixPath) -> dict[str, list[str]]:
    """OpenSCAD's command for each step picture (steps.PICTURES), drawing enclosure.scad in ``folder`` into its steps/."""
    scad = folder / "enclosure.scad"
    return {name: steps.command(scad_command(scad, folder / "steps" / name, 'part="step"', f"step={step}"), step, camera)
            for name, (step, camera) in steps.PICTURES.items()}


def step_manifest(folder: Path) -> str:
    """hardware/steps/SOURCES as the step pictures and the model in ``folder`` are now (no OpenSCAD needed)."""
    return steps.manifest(folder, {name: argv[1:] for name, argv in step_commands(PurePosixPath()).items()})


def needs_xvfb() -> bool:
    """OpenSCAD's preview renderer needs a display: xvfb-run gives it one where there is none."""
    return bool(shutil.which("xvfb-run")) and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def echoes(scad: Path, *defines: str) -> str:
    """What the model prints (its sizes and any WARNING lines), from a quick 2D render."""
    with tempfile.TemporaryDirectory() as scratch:
        result = subprocess.run(
            scad_command(scad, Path(scratch) / "ledboard.svg", 'part="ledboard_2d"', *defines),
            capture_output=True, text=True, check=True,
        )
    return "\n".join(line for line in (result.stdout + result.stderr).splitlines() if line.startswith("ECHO:"))


def printable_parts(scad: Path, *defines: str) -> list[tuple[str, list[str]]]:
    """(file name, OpenSCAD defines) for every printed part: the plate's pieces and the hood, each with ``defines``
    (``clue_input="encoder"``) after its own."""
    match = re.search(r"pieces: (\d+) x (\d+)", echoes(scad, *defines))
    if not match:
        raise RuntimeError(f"{scad}: OpenSCAD printed no 'pieces:' line")
    columns, rows = int(match[1]), int(match[2])
    parts = [(f"top-{i}-{j}.stl", ['part="top_piece"', f"piece=[{i},{j}]", *defines]) for j in range(rows) for i in range(columns)]
    return [*parts, ("hood.stl", ['part="hood"', *defines])]


def define(text: str) -> str:
    """``--define``'s value: ``NAME=VALUE`` as OpenSCAD's ``-D`` takes it (a string in double quotes)."""
    name, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z_]\w*", name.strip()) or not value.strip():
        raise argparse.ArgumentTypeError(
            f"{text!r}: give NAME=VALUE, a string in double quotes: --define 'clue_input=\"encoder\"'")
    return f"{name.strip()}={value.strip()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description="Rewrite the generated sections of hardware/README.md (parts list, power budget); with --stl or "
                    "--picture, render the enclosure instead (the README is left as it is).",
    )
    parser.add_argument("--check", action="store_true", help="only say whether hardware/README.md is up to date (exit 1 if not)")
    parser.add_argument("--picture", action="store_true", help="render hardware/table.png with OpenSCAD")
    parser.add_argument("--steps", action="store_true", help="render the build guide's step pictures into hardware/steps/ with OpenSCAD")
    parser.add_argument("--stl", metavar="DIR", type=Path, help="render every printable part into DIR with OpenSCAD (several minutes)")
    parser.add_argument("--folder", metavar="DIR", type=Path, help="the hardware/ folder (default: the checkout's, else ./hardware)")
    parser.add_argument("--define", metavar="NAME=VALUE", type=define, action="append", default=[],
                        help="""set a parameter of enclosure.scad for --stl and --picture, as OpenSCAD's -D does (again for each): --define 'clue_input="encoder"'""")
    args = parser.parse_args(argv)
    renders = args.picture or args.stl or args.steps
    if args.check and renders:
        parser.error("--check does not go with --picture, --steps or --stl (they render, --check reads the README)")
    if args.define and not renders:
        parser.error("--define only goes with --picture or --stl (the README's sections take no parameters)")
    folder = args.folder or default_folder()
    if folder is None:
        print(f"{COMMAND}: {NO_FOLDER}", file=sys.stderr)
        return 2
    if args.check or not renders:  # --picture and --stl only render: the README is left as it is
        try:
            texts = pages(folder)
        except (OSError, BomError) as error:
            print(f"{COMMAND}: {error}", file=sys.stderr)
            return 2
        stale = [folder / name for name, text in texts.items() if (folder / name).read_text("utf-8") != text]
        if args.check:
            for path in stale:
                print(f"{path}: out of date: run `{COMMAND}`", file=sys.stderr)
            if stale:
                return 1
            print(f"{folder / 'README.md'}: up to date")
        else:
            for path in stale:
                path.write_text(texts[path.name], "utf-8")
                print(path)
    scad = folder / "enclosure.scad"
    if renders and openscad() is None:
        print(f"{COMMAND}: OpenSCAD is not installed: sudo apt install openscad", file=sys.stderr)
        return 2
    if args.picture:
        subprocess.run(picture_command(scad, folder / "table.png", *args.define), check=True)
        print(folder / "table.png")
    if args.steps:
        (folder / "steps").mkdir(exist_ok=True)
        for name, run in step_commands(folder).items():
            subprocess.run(["xvfb-run", "-a", *run] if needs_xvfb() else run, check=True, capture_output=True)
            print(folder / "steps" / name)
        subprocess.run(picture_command(scad, folder / steps.TABLE), check=True)
        print(folder / steps.TABLE)
        (folder / "steps" / steps.MANIFEST).write_text(step_manifest(folder), "utf-8")
        print(folder / "steps" / steps.MANIFEST)
        print(f"{len(steps.PICTURES)} step pictures, {steps.TABLE} and the list of what they are drawn from ({steps.MANIFEST}) "
              f"written into {folder}: look at each one before you commit them")
    if args.stl:
        args.stl.mkdir(parents=True, exist_ok=True)
        for name, defines in printable_parts(scad, *args.define):
            print(f"{args.stl / name} ...", flush=True)
            subprocess.run(scad_command(scad, args.stl / name, *defines), check=True)
    return 0

