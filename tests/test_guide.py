"""The build guide (hardware/README.md and its appendices): a main path a first-time builder reads in an evening,
a picture for every step, and links that land.

**The main path** is what a first-time builder reads from start to end on the printed route with the default
parts: the whole of hardware/README.md, the tables of wiring/README.md its steps send them to (a builder follows
their rows; the prose round them explains, and is read when a row raises a question), and the tables of the
multimeter checks and the whole text of the power-on stages in hardware/appendix-checks.md (each one is made). Words are counted
as whitespace-separated tokens of the text as written, leaving out fenced code blocks (commands are copied, not
read), HTML comments, and link targets (the text of a link counts, its address does not). Tables count, cell by
cell, but for a column headed "if not": what to do when a check fails is troubleshooting, looked up when needed. The appendices beyond that (the build in full detail, the parts' notes, the MDF route, the variants, the
design's reasoning, troubleshooting) are looked up, not read through.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
MAIN = HARDWARE / "README.md"
MAIN_PATH_WORDS = 10_000
#: (page, heading): the tables of these sections are on the main path (a section ends at the next heading)
MAIN_PATH_TABLES = (
    ("wiring/README.md", "## Perfboard layout and wire list"),
    ("wiring/README.md", "## Touch pads"),
    ("wiring/README.md", "## LED chain"),
    ("wiring/README.md", "### The chain's wires"),
    ("wiring/README.md", "## Raspberry Pi: 40-pin header"),
    ("wiring/README.md", "### Ground harnesses"),
    ("hardware/appendix-checks.md", "### Before the first power-on: the multimeter checks"),
)
#: prose read through on the main path besides hardware/README.md: the power-on stages (each one is made)
MAIN_PATH_PROSE = (("hardware/appendix-checks.md", "### The first power-on, in stages"),)


def words(text: str) -> int:
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return len(text.split())


def section(text: str, heading: str) -> str:
    """From ``heading`` to the next heading."""
    start = text.index(heading + "\n") + len(heading)
    end = re.search(r"^#{1,6} ", text[start:], re.M)
    return text[start:start + end.start()] if end else text[start:]


def tables(text: str) -> str:
    """The tables' rows, without a column headed "if not" (what to do when a check fails: troubleshooting, looked up)."""
    rows, skip = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            skip = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if skip is None:
            skip = cells.index("if not") if "if not" in cells else -1
        rows.append(" ".join(cell for i, cell in enumerate(cells) if i != skip))
    return "\n".join(rows)


def main_path() -> dict[str, int]:
    counts = {"hardware/README.md": words(MAIN.read_text("utf-8"))}
    for page, heading in MAIN_PATH_TABLES:
        counts[f"{page}: {heading.lstrip('# ')}"] = words(tables(section((ROOT / page).read_text("utf-8"), heading)))
    for page, heading in MAIN_PATH_PROSE:
        counts[f"{page}: {heading.lstrip('# ')}"] = words(section((ROOT / page).read_text("utf-8"), heading))
    return counts


def test_the_main_path_is_under_ten_thousand_words():
    counts = main_path()
    assert all(counts.values()), counts  # every named section is there and has its tables
    assert sum(counts.values()) <= MAIN_PATH_WORDS, counts


def test_the_guide_is_an_overview_the_parts_the_steps_the_wiring_the_software_and_playing():
    headings = re.findall(r"^## (.+)$", MAIN.read_text("utf-8"), re.M)
    order = ["How long it takes", "Safety", "Parts", "The build, step by step", "Wiring", "Software", "Playing"]
    assert [h for h in headings if h in order] == order


# --- a picture per step


def steps() -> list[tuple[int, str, str]]:
    """(number, title, its text) of each of the main path's steps."""
    text = MAIN.read_text("utf-8")
    found = list(re.finditer(r"^### Step (\d+): (.+)$", text, re.M))
    return [(int(m[1]), m[2], text[m.end():found[i + 1].start() if i + 1 < len(found) else text.index("\n## ", m.end())])
            for i, m in enumerate(found)]


def test_every_step_has_a_picture_that_exists_a_check_and_its_detail():
    from buildkit import mechanics

    found = steps()
    assert [n for n, _, _ in found] == list(range(1, len(mechanics.STEPS) + 1))
    assert [title for _, title, _ in found] == [title for title, _ in mechanics.STEPS]
    for number, title, text in found:
        pictures = re.findall(r"!\[[^\]]{20,}\]\(([^)]+)\)", text)
        assert pictures, f"step {number} ({title}) shows no picture"
        assert all((HARDWARE / picture).is_file() for picture in pictures), (number, pictures)
        assert "**Check:**" in text, f"step {number} ({title}) says no check"
        assert f"appendix-steps.md#step-{number})" in text, f"step {number} links no detail"


def test_every_step_picture_the_generator_draws_is_committed_and_shown():
    from buildkit import steps as step_pictures

    shown = {picture for _, _, text in steps() for picture in re.findall(r"\]\((steps/[^)]+)\)", text)}
    drawn = {f"steps/{name}" for name in step_pictures.PICTURES}
    assert shown == drawn
    assert all((HARDWARE / picture).is_file() for picture in drawn)


# --- links


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text("utf-8"), flags=re.S | re.M)
    found, seen = set(re.findall(r'<a id="([^"]+)"></a>', text)), {}
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(path: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text("utf-8"), flags=re.S | re.M)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no such heading")
    return broken


def test_every_link_of_the_guide_and_into_it_lands():
    pages = [*sorted(HARDWARE.glob("*.md")), ROOT / "wiring" / "README.md", ROOT / "firmware" / "TUNING.md",
             ROOT / "firmware" / "README.md"]
    broken = {str(page.relative_to(ROOT)): links for page in pages if (links := broken_links(page))}
    assert broken == {}


# --- the time estimate: its counts are the model's, its total the rows' sum


def time_section() -> str:
    return section(MAIN.read_text("utf-8"), "## How long it takes")


def test_the_time_estimate_states_the_models_counts():
    from buildkit import effort

    text, tile, chain = time_section(), effort.tile_board(), effort.chain()
    assert f"({tile.joints} joints, {tile.jumpers} jumpers)" in text
    assert f"{chain.leds} LEDs, {chain.links} links, {chain.joints} joints" in text
    assert f"the pads ({effort.pad_joints()} joints)" in text  # each wire's pad end in step 8 ...
    assert f"the pad wires into the tile board ({effort.pad_joints()} joints)" in text  # ... its board end in step 10
    assert f"{effort.dupont_contacts()} Dupont ends, {effort.spades()} spades" in text
    counted = section((MAIN.parent / "appendix-steps.md").read_text("utf-8"), "## How the time is counted")
    assert f"{effort.printed_grams() / 1000:g} kg of PLA" in counted
    assert f"{effort.PRINT_RATE:g} mm³/s" in counted
    low, high = (f"{rate:g}" for rate in effort.PRINT_RATES)
    assert f"{low}-{high} mm³/s on ordinary" in counted
    low, high = (round(effort.print_hours(rate)) for rate in reversed(effort.PRINT_RATES))
    assert f"about {round(effort.print_hours())} hours of printing** ({low}-{high} on" in text
    assert f"| {low}-{high} h printing" in text


def test_the_time_estimates_total_is_its_rows_sum_and_the_headline_agrees():
    text = time_section()
    rows = re.findall(r"^\| (?!stage|---|\*\*total)[^|]+\| [\d-]+ \| (\d+)-(\d+) h \| ([^|]*)\|$", text, re.M)
    assert len(rows) == 10
    low, high = sum(int(r[0]) for r in rows), sum(int(r[1]) for r in rows)
    printing = [re.search(r"(?:(\d+)-)?(\d+) h printing", r[2]) for r in rows]
    wait_low = sum(int(m[1] or m[2]) for m in printing if m)
    wait_high = sum(int(m[2]) for m in printing if m)
    assert f"**total** | | **{low}-{high} h** | **{wait_low}-{wait_high} h** |" in text
    assert f"hands-on work** ({low}-{high})" in text
    headline = int(re.search(r"about \*\*(\d+) hours of\s+hands-on", text)[1])
    assert abs(headline - (low + high) / 2) <= 2.5
