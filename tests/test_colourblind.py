"""The tiles' colours under the three common colour-vision deficiencies, measured (ΔE*ab, CIE76)."""

import pytest

from codenames_board.colourblind import KINDS, closest, difference, seen
from codenames_board.colours import COLOUR_BLIND, Palette, palette_of
from codenames_board.config import parse

IDENTITIES = ("red", "blue", "bystander", "assassin")


def identities(palette: Palette) -> dict:
    return {name: getattr(palette, name) for name in IDENTITIES}


def test_the_colour_blind_palette_keeps_every_identity_apart_under_every_kind_of_vision():
    palette = palette_of(parse('[colours]\npalette = "colourblind"\n').colours)
    worst, kind, first, second = closest({**identities(palette), "unrevealed": palette.idle})
    assert worst >= 40, f"{first} and {second} are only ΔE {worst:.1f} apart under {kind}"
    assert (palette.turn_red, palette.turn_blue) == (palette.red, palette.blue)


def test_the_standard_palette_is_the_one_a_deuteranope_confuses():
    worst, kind, first, second = closest(identities(Palette()))
    colour_blind = closest(COLOUR_BLIND)[0]
    assert kind == "deuteranopia" and {first, second} == {"red", "bystander"}
    assert worst < 20 and colour_blind > 2.5 * worst  # the reason the other palette exists


def test_the_simulation_leaves_greys_grey_and_the_difference_is_a_distance():
    for kind in KINDS:
        for grey in (0, 128, 255):
            assert all(abs(value - grey) < 2 for value in seen((grey, grey, grey), kind))
    assert difference((10, 20, 30), (10, 20, 30)) == 0
    red_green = difference(seen((255, 0, 0), "deuteranopia"), seen((0, 160, 0), "deuteranopia"))
    assert red_green < difference((255, 0, 0), (0, 160, 0)) / 2  # what the deficiency is


def test_the_standard_palette_is_the_default_and_a_typo_is_refused():
    assert palette_of(parse("").colours) == palette_of({**parse("").colours.as_dict()})
    with pytest.raises(ValueError):
        parse('[colours]\npalette = "colorblind"\n')
