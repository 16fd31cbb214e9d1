"""The touch model (buildkit/touch.py): every pad's light finger at twice its touch threshold by design."""

import math
from pathlib import Path

import pytest
from codenames_firmware import board

from buildkit import cables, mechanics, touch
from codenames_board.config import parse

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = parse("").tiles
TILES = [f"{row}{column}" for row in "ABCDE" for column in range(1, 6)]


@pytest.fixture(scope="module")
def routes():
    return {route: model() for route, model in touch.ROUTES.items()}


def test_the_shipped_thresholds_are_the_firmwares():
    assert (DEFAULTS.touch_threshold, DEFAULTS.release_threshold) == (board.TOUCH_THRESHOLD, board.RELEASE_THRESHOLD)


@pytest.mark.parametrize("route", sorted(touch.ROUTES))
@pytest.mark.parametrize("tile", TILES)
def test_a_light_flat_finger_gives_every_pad_twice_its_touch_threshold(routes, route, tile):
    (pad,) = [pad for pad in routes[route] if pad.tile == tile]
    assert pad.signal >= 2 * DEFAULTS.touch_threshold, (route, pad)


def test_the_untouched_noise_stays_well_under_the_release_threshold():
    assert DEFAULTS.release_threshold >= 2 * touch.NOISE_COUNTS
    assert touch.problems() == []


def test_the_model_follows_the_layouts_pad_wires(routes):
    wires = cables.pad_wire_lengths()
    assert [pad.wire_mm for pad in routes["printed"]] == wires
    assert [pad.wire_mm for pad in routes["mdf"]] == [wire + touch.ACRYLIC_T for wire in wires]
    # the longest wire gives the weakest pad
    for route in routes.values():
        assert min(route, key=lambda pad: pad.signal) == max(route, key=lambda pad: pad.wire_mm)


def test_a_thicker_cover_or_a_longer_wire_lowers_the_signal():
    def weakest(**kwargs):
        return min(pad.signal for pad in touch.pads(**kwargs))

    covers = [weakest(layers=touch.printed_stack(cover)) for cover in (1.6, 2, 2.5, 3, 4)]
    assert covers == sorted(covers, reverse=True)
    sheets = [weakest(layers=touch.mdf_stack(mdf)) for mdf in (3, 4, 6)]
    assert sheets == sorted(sheets, reverse=True)
    # the pads under the acrylic (the old way) lose a third of the signal
    assert weakest(layers=touch.mdf_stack(acrylic=3)) < 0.7 * weakest(layers=touch.mdf_stack())
    stack = touch.printed_stack()
    wires = [touch.pads(stack, wires_mm=[length])[0].signal for length in (200, 400, 800, 1600)]
    assert wires == sorted(wires, reverse=True)
    per_m = [touch.pads(stack, wires_mm=[500], wire_pf_m=touch.wire_pf_per_m(height))[0].signal for height in (1, 3, 10)]
    assert per_m == sorted(per_m)  # a wire farther from ground adds less
    # solid infill over the pads beats 15 %
    assert touch.finger_pf(touch.printed_stack(3, mechanics.Slicer(infill=1.0))) > touch.finger_pf(touch.printed_stack(3))


def test_the_model_is_the_datasheets_charge_formula():
    # V = I T / C read as counts of VDD: a finger adding dC to C lowers the reading by baseline x dC / (C + dC)
    (pad,) = touch.pads(touch.printed_stack(), wires_mm=[0.0], wire_pf_m=0.0)
    c = touch.pad_pf() + touch.INPUT_PF
    assert pad.c_pf == pytest.approx(c)
    assert pad.signal == pytest.approx(touch.BASELINE * (1 - c / (c + pad.finger_pf)))
    assert touch.BASELINE == pytest.approx(0.9 * (3.3 - 0.7) / 3.3 * 1024, abs=6)  # TL = 0.9 USL at VDD 3.3 V
    assert 20 < touch.wire_pf_per_m() < 35  # a loose single wire: tens of pF per metre, not a coax's hundred


def test_thresholds_too_high_for_the_model_are_reported():
    found = touch.problems(parse("[tiles]\ntouch_threshold = 30\nrelease_threshold = 10\n"))
    assert any(line.startswith("mdf route, E1:") for line in found)
    assert any(line.startswith("printed route, E1:") for line in found)
    # a tile's own threshold counts for that tile only
    found = touch.problems(parse("[tiles.thresholds]\nA4 = [40, 20]\n"))
    assert found == [line for line in found if ", A4:" in line] and len(found) == 2
    # a release threshold inside the noise
    assert touch.problems(parse("[tiles]\ntouch_threshold = 6\nrelease_threshold = 3\n"))[0].startswith("A1: release")


def test_the_touch_command_prints_both_routes_and_fails_on_a_short_pad(tmp_path, capsys):
    assert touch.main([]) == 0
    out = capsys.readouterr().out
    assert "printed route, touch threshold 10:" in out and "mdf route" in out and out.count("E5 ") == 2
    config = tmp_path / "config.toml"
    config.write_text("[tiles]\ntouch_threshold = 40\nrelease_threshold = 20\n")
    assert touch.main(["--config", str(config)]) == 1
    assert "under 2 x its touch threshold 40" in capsys.readouterr().out


def test_the_models_stack_is_the_enclosures(need_tool):
    need_tool("openscad")
    figs = mechanics.figures(ROOT / "hardware" / "enclosure.scad")
    cover, mdf, acrylic, hole = figs["pad_stack"]
    assert (cover, mdf, acrylic) == (touch.PAD_COVER, touch.MDF_T, touch.ACRYLIC_T)
    assert list(figs["pad"]) == list(touch.PAD)
    # the acrylic's wire hole lies wholly under the pad's corner, hidden under the card's place
    assert hole <= min(touch.PAD) / 4 and touch.PAD[0] < figs["card"][0] and touch.PAD[1] < figs["card"][1]


def worst_wire_pf_m(route: str) -> float:
    """The largest wire capacitance per metre (to 1 pF/m) at which the route still gives every pad twice the threshold."""
    per_m = 1
    while min(pad.signal for pad in touch.ROUTES[route](wire_pf_m=per_m + 1)) >= 2 * DEFAULTS.touch_threshold:
        per_m += 1
    return per_m


def test_the_tuning_pages_worked_example_is_the_models(routes):
    page = " ".join((ROOT / "firmware" / "TUNING.md").read_text(encoding="utf-8").split())
    threshold = DEFAULTS.touch_threshold
    for route, pads in routes.items():
        weak, strong = min(pads, key=lambda p: p.signal), max(pads, key=lambda p: p.signal)
        row = (f"| {weak.finger_pf:.2f} pF | {weak.tile}: {weak.wire_mm:.0f} mm wire, {weak.c_pf:.1f} pF, "
               f"{weak.signal:.0f} counts | {strong.tile}: {strong.wire_mm:.0f} mm, {strong.c_pf:.1f} pF, "
               f"{strong.signal:.0f} counts | {weak.ratio(threshold):.1f} to {strong.ratio(threshold):.1f} |")
        assert row in page, (route, row)
    wires = cables.pad_wire_lengths()
    per_m = touch.wire_pf_per_m()
    assert (f"{min(wires) / 1000 * per_m:.0f}-{max(wires) / 1000 * per_m:.0f} pF for the "
            f"{math.ceil(min(wires) / 10)}-{math.ceil(max(wires) / 10)} cm wires") in page
    assert f"The MDF route keeps every pad at twice the threshold up to {worst_wire_pf_m('mdf')} pF/m of wire" in page
    assert f"the printed route up to {worst_wire_pf_m('printed')} pF/m" in page
    weakest = {route: min(pad.ratio(threshold) for pad in pads) for route, pads in routes.items()}
    assert f"Every pad reaches {min(weakest.values()):.1f} times the touch threshold" in page
    guide = {name: " ".join((ROOT / "hardware" / name).read_text(encoding="utf-8").split())
             for name in ("appendix-mdf-route.md", "appendix-design.md")}
    assert f"({weakest['mdf']:.1f} times the threshold against {weakest['printed']:.1f})" in guide["appendix-mdf-route.md"]
    assert f"every pad at {min(weakest.values()):.1f} times its touch threshold" in guide["appendix-design.md"]
