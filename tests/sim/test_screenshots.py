"""The README's simulator screenshots: replayed from their script and compared with the committed pictures."""

import os
import shutil
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

HERE = Path(__file__).parent
SCRIPT = HERE / "readme_game.txt"
TOLERANCE = 2.0  # mean absolute difference per channel, 0-255
SHOTS = ["sim-guessing-1280x720.png", "sim-hidden-1920x1080.png"]


def mean_difference(expected, actual):
    width, height = expected.get_size()
    total = 0
    for x in range(0, width, 3):
        for y in range(0, height, 3):
            a, b = expected.get_at((x, y)), actual.get_at((x, y))
            total += abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b)
    return total / (3 * len(range(0, width, 3)) * len(range(0, height, 3)))


@pytest.fixture(scope="module")
def replayed(tmp_path_factory, run_cli_module):
    folder = tmp_path_factory.mktemp("readme")
    shutil.copy(SCRIPT, folder / SCRIPT.name)
    result = run_cli_module("sim", "--headless", "--seed", 7, "--script", folder / SCRIPT.name)
    assert result.returncode == 0, result.stderr
    return folder / "reference"


@pytest.mark.parametrize("name", SHOTS)
def test_the_readme_screenshot_is_what_the_script_makes(replayed, name, tmp_path):
    expected = pygame.image.load(str(HERE / "reference" / name))
    actual = pygame.image.load(str(replayed / name))
    assert actual.get_size() == expected.get_size() == tuple(int(part) for part in name[:-4].rsplit("-", 1)[1].split("x"))
    difference = mean_difference(expected, actual)
    if difference >= TOLERANCE:
        side_by_side = pygame.Surface((expected.get_width() * 2, expected.get_height()))
        side_by_side.blit(expected, (0, 0))
        side_by_side.blit(actual, (expected.get_width(), 0))
        pygame.image.save(side_by_side, str(tmp_path / f"diff-{name}"))
        pytest.fail(
            f"{name} differs by {difference:.2f} (expected | actual in {tmp_path / f'diff-{name}'}); if the change is "
            f"wanted, remake it: codenames-board sim --headless --seed 7 --script tests/sim/readme_game.txt"
        )
