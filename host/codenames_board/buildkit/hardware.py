"""The hardware folder (``hardware/``): the parts list, the power budget and the enclosure's renders.

``hardware/bom.csv`` is the parts list (part, quantity, example, notes);
``hardware/README.md`` shows it as a table and carries the power budget
(``power.py``) between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->``
markers. ``python -m codenames_board.buildkit.hardware`` rewrites those
sections; ``--check`` says whether they are up to date; ``--picture`` renders
``hardware/table.png`` and ``--stl FOLDER`` every printable part of
``hardware/enclosure.scad`` with OpenSCAD.

The folder is a checkout's (a git clone or the unpacked sdist), not the
installed package's: the wheel carries no ``hardware/``. Run from a checkout,
the command finds its own; run from an installed package, it takes
``./hardware`` (or ``--folder``) and otherwise says in one line where to get one.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..config import Config, parse
from . import power

COMMAND = "python -m codenames_board.buildkit.hardware"
BOM_COLUMNS = ("part", "quantity", "example", "notes")
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


def bom_markdown(parts: list[Part]) -> str:
    lines = ["| part | quantity | example | notes |", "|---|---|---|---|"]
    for p in parts:
        cells = (p.part, str(p.quantity) if p.quantity else "optional", p.example, p.notes)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return (
        f"From [`bom.csv`](bom.csv) (written by `{COMMAND}`). Quantities are for the default build: "
        "the buttons, 25 tiles, the LED counts in `firmware/board.py` and the enclosure's defaults.\n\n"
        + "\n".join(lines)
        + "\n"
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
    """``hardware/`` of the checkout this module runs from, else ``./hardware``, else None (an installed package)."""
    for folder in (Path(__file__).resolve().parents[3] / "hardware", (cwd or Path.cwd()) / "hardware"):
        if (folder / "bom.csv").is_file():
            return folder
    return None


NO_FOLDER = (
    "no hardware/ folder here: this command checks and rewrites hardware/README.md of a codenames-board "
    f"checkout (a git clone, or the sdist codenames_board-{__version__}.tar.gz unpacked), which the "
    "installed package does not carry: run it in one, or pass --folder DIR"
)


def readme(folder: Path, config: Config | None = None) -> str:
    """``hardware/README.md`` as it should be: its generated sections from bom.csv and the power budget."""
    config = parse("") if config is None else config
    bom_path = folder / "bom.csv"
    parts = read_bom(bom_path.read_text("utf-8"), str(bom_path))
    sections = {"bom": bom_markdown(parts), "power": power.markdown(power.power_budget(config), config)}
    return replace_sections((folder / "README.md").read_text("utf-8"), sections, str(folder / "README.md"))


# --- OpenSCAD


def openscad() -> str | None:
    return shutil.which("openscad")


def scad_command(scad: Path, output: Path, *defines: str) -> list[str]:
    """OpenSCAD writing ``output`` (its kind by the suffix) with ``-D`` defines such as ``part="hood"``."""
    command = [openscad() or "openscad", "-o", str(output)]
    for define in defines:
        command += ["-D", define]
    return [*command, str(scad)]


def picture_command(scad: Path, output: Path) -> list[str]:
    """The whole table from the spymasters' corner (OpenSCAD's preview renderer: needs a display or xvfb-run)."""
    command = scad_command(scad, output, 'part="all"', "show_cards=true")
    command[1:1] = ["--imgsize", f"{PICTURE_SIZE[0]},{PICTURE_SIZE[1]}", "--colorscheme", "Tomorrow"]
    if shutil.which("xvfb-run") and not _has_display():
        command[:0] = ["xvfb-run", "-a"]
    return command


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def echoes(scad: Path, *defines: str) -> str:
    """What the model prints (its sizes and any WARNING lines), from a quick 2D render."""
    with tempfile.TemporaryDirectory() as scratch:
        result = subprocess.run(
            scad_command(scad, Path(scratch) / "ledboard.svg", 'part="ledboard_2d"', *defines),
            capture_output=True, text=True, check=True,
        )
    return "\n".join(line for line in (result.stdout + result.stderr).splitlines() if line.startswith("ECHO:"))


def printable_parts(scad: Path) -> list[tuple[str, list[str]]]:
    """(file name, OpenSCAD defines) for every printed part: the plate's pieces and the hood."""
    match = re.search(r"pieces: (\d+) x (\d+)", echoes(scad))
    if not match:
        raise RuntimeError(f"{scad}: OpenSCAD printed no 'pieces:' line")
    columns, rows = int(match[1]), int(match[2])
    parts = [(f"top-{i}-{j}.stl", ['part="top_piece"', f"piece=[{i},{j}]"]) for j in range(rows) for i in range(columns)]
    return [*parts, ("hood.stl", ['part="hood"'])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description="Rewrite the generated sections of hardware/README.md (parts list, power budget); render the enclosure.",
    )
    parser.add_argument("--check", action="store_true", help="only say whether hardware/README.md is up to date (exit 1 if not)")
    parser.add_argument("--picture", action="store_true", help="render hardware/table.png with OpenSCAD")
    parser.add_argument("--stl", metavar="FOLDER", type=Path, help="render every printable part into FOLDER with OpenSCAD (several minutes)")
    parser.add_argument("--folder", metavar="DIR", type=Path, help="the hardware/ folder (default: the checkout's, else ./hardware)")
    args = parser.parse_args(argv)
    folder = args.folder or default_folder()
    if folder is None:
        print(f"{COMMAND}: {NO_FOLDER}", file=sys.stderr)
        return 2
    try:
        text = readme(folder)
    except (OSError, BomError) as error:
        print(f"{COMMAND}: {error}", file=sys.stderr)
        return 2
    path = folder / "README.md"
    if args.check:
        if path.read_text("utf-8") != text:
            print(f"{path}: out of date: run `{COMMAND}`", file=sys.stderr)
            return 1
        print(f"{path}: up to date")
    else:
        path.write_text(text, "utf-8")
        print(path)
    scad = folder / "enclosure.scad"
    if (args.picture or args.stl) and openscad() is None:
        print(f"{COMMAND}: OpenSCAD is not installed: sudo apt install openscad", file=sys.stderr)
        return 2
    if args.picture:
        subprocess.run(picture_command(scad, folder / "table.png"), check=True)
        print(folder / "table.png")
    if args.stl:
        args.stl.mkdir(parents=True, exist_ok=True)
        for name, defines in printable_parts(scad):
            print(f"{args.stl / name} ...", flush=True)
            subprocess.run(scad_command(scad, args.stl / name, *defines), check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
