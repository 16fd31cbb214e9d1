"""The documents say what the code does: the record format doc and the README's quick start."""

import json
import re
from pathlib import Path

from codenames_board.engine import ACTIONS, new_game
from codenames_board.record import HEADER_FIELDS, parse_record

ROOT = Path(__file__).resolve().parent.parent
RECORDS = (ROOT / "host" / "codenames_board" / "RECORDS.md").read_text("utf-8")
README = (ROOT / "README.md").read_text("utf-8")


def code_blocks(text, language=None):
    """The fenced code blocks of a Markdown text (only those of one language if given)."""
    blocks, current, fence_language = [], None, None
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current, fence_language = [], line[3:].strip()
            else:
                if language is None or fence_language == language:
                    blocks.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_records_doc_example_replays_to_the_state_it_shows():
    record_text = next(block for block in code_blocks(RECORDS, "") if block.startswith('{"format"'))
    shown_state = json.loads(next(block for block in code_blocks(RECORDS, "json") if block.startswith('{"variant"')))
    record = parse_record(record_text.encode())
    assert record.replay().state() == shown_state


def test_records_doc_example_header_is_a_valid_header():
    header_text = next(block for block in code_blocks(RECORDS, "json") if block.startswith('{"format"'))
    header = json.loads(header_text)
    header["words"] = [f"word{n}" for n in range(25)]
    record = parse_record((json.dumps(header) + "\n").encode())
    assert record.header.to_json() == header


def test_records_doc_lists_every_header_field_and_action():
    for name in HEADER_FIELDS:
        assert f"| `{name}` |" in RECORDS
    for name in ACTIONS:
        assert f'{{"action": "{name}"' in RECORDS


def test_records_doc_describes_every_state_field():
    record_text = next(block for block in code_blocks(RECORDS, "") if block.startswith('{"format"'))
    state = new_game(parse_record(record_text.encode()).header.key).state()
    for name in state:
        assert f"`{name}`" in RECORDS.split("`codenames-board replay game.jsonl --json` prints:")[1], name


def test_readme_quick_start_is_two_commands_and_ci_runs_the_test_one():
    quick_start = README.split("## Quick start")[1].split("##")[0]
    (block,) = code_blocks(quick_start, "sh")
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["python3 host/quickstart.py", "python3 host/quickstart.py test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 host/quickstart.py test" in ci.splitlines()[-1]


def test_firmware_readme_copies_exactly_the_firmware_files():
    readme = (ROOT / "firmware" / "README.md").read_text("utf-8")
    commands = [line.strip() for block in code_blocks(readme, "sh") for line in block.splitlines() if "mpremote cp" in line]
    assert commands, "the firmware README shows how to copy the files"
    files = {path.name for path in (ROOT / "firmware").glob("*.py")}
    for command in commands:
        listed = command.split("mpremote cp", 1)[1].split(":")[0].split()
        assert sorted(listed) == sorted(files)
        assert listed[-1] == "main.py"  # last, so a half-finished copy never boots into new code


def test_every_package_in_the_tree_is_in_pyproject_but_the_build_kit():
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(path.parent.relative_to(ROOT / "host").parts) for path in (ROOT / "host").rglob("__init__.py")
    }
    # but the build kit: the repository's tool, left out of the wheel on purpose (tests/test_packaging.py)
    build_kit = {name for name in found if name.split(".")[0] == "buildkit"}
    assert build_kit == {"buildkit"} and not {name for name in listed if "buildkit" in name.split(".")}
    assert found - build_kit <= listed, f"add {sorted(found - build_kit - listed)} to [tool.setuptools] packages"
    assert "codenames_firmware" in listed


def test_no_document_installs_codenames_board_from_the_package_index():
    # It is not published there: `pip install codenames-board[pi]` would fetch whatever someone
    # registered under that name. Every pip install of it names the clone ('.[pi]') or a wheel.
    documents = [path for path in ROOT.rglob("*.md") if not {".venv", "build", "dist"} & set(path.parts)]
    by_name = re.compile(r"pip install\s+(?:-\S+\s+)*['\"]?codenames[-_]board(?:\[|\s|['\"`]|$)", re.I)
    offending = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in documents
        for match in by_name.finditer(" ".join(path.read_text("utf-8").split()))
    ]
    assert offending == []
