"""What each tile's pad gives for a light flat finger: the touch model the defaults are chosen by.

The MPR121 charges a pad with a current I for a time T and reads the voltage V = I T / C as 10-bit
counts of VDD (datasheet, "capacitance measurement"); auto-configuration picks I and T per pad so an
untouched pad reads near the target level TL (firmware/mpr121.py's _TL, x 4 for 10 bits). A finger
adds ΔC through the layers over the pad, so the reading falls by

    signal = baseline x ΔC / (C + ΔC)   counts, with C = pad to ground + pad wire + MPR121 input,

and ΔC = ε0 A / Σ(d_i / εr_i) for the finger's flat A over layers in series. Each tile's wire is
cables.pad_wire_lengths(): the model follows the tile board wherever the layout puts it. The stack's
thicknesses are the model's own (enclosure.scad's pad_cover, mdf_t, acrylic_t; the slicer's skins
and infill, mechanics.SLICER). Figures marked "assumption" are estimates, not measurements: the
maker's check stays the coupon and ``selftest --pads`` (firmware/TUNING.md). Pure functions.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from codenames_firmware import board, mpr121

from codenames_board.config import Config, parse
from codenames_board.engine.key import tile_name

from .cables import pad_wire_lengths
from .electrical import PAD, RIB_H
from .mechanics import SLICER, Slicer

COMMAND = "python host/buildkit touch"
E0 = 8.854e-12  # F/m

# --- the model's dimensions (mm): tests/buildkit/test_touch.py checks them against enclosure.scad's figures
PAD_COVER = 2  # the printed plate between card and pad ("pad_cover")
MDF_T = 4  # the MDF route's sheet ("mdf_t") ...
ACRYLIC_T = 3  # ... and its acrylic ("acrylic_t"); the pads lie between the two, so their wires are this much longer

# --- materials: relative permittivity near the MPR121's 0.5-32 µs charge (assumptions, from handbook ranges)
CARD = (0.3, 2.0)  # a codename card: 0.3 mm of card stock (paper and board: 2-3)
EPS_PLA = 2.7  # printed PLA, solid (2.7-3.1)
EPS_MDF = 2.5  # dry MDF (2-3.5; more when damp)
EPS_ACRYLIC = 2.7  # PMMA near 1 MHz (2.6-2.8; 3.6 at mains frequency)

# --- the finger and the circuit (assumptions)
FINGER_MM2 = 200  # a light flat fingertip: about 16 mm across, fringe field left out (more signal, not less)
WIRE_H_MM = 3  # a loose hook-up wire's height over the nearest ground (LED wires, other pad wires, the floor)
WIRE_R_MM = 0.255  # the parts list's 24 AWG (the thicker of its 26-24 AWG): 0.51 mm across its copper
WIRE_EPS = 1.4  # its PVC insulation (εr 3-4) fills part of the field: an effective εr between that and air
INPUT_PF = 5.0  # the MPR121's pin, the breakout's trace and header, the tile board's joint
NOISE_COUNTS = 2  # an untouched pad's filtered data wanders about this much (FFI 6, SFI 4: TUNING.md's figure)
BASELINE = mpr121._TL * 4  # counts: auto-configuration's target level, the top 8 of 10 bits
LIGHT_FINGER_MARGIN = 2  # every pad's signal at least this many times its touch threshold
NOISE_MARGIN = 2  # the release threshold at least this many times the noise


def wire_pf_per_m(height: float = WIRE_H_MM, radius: float = WIRE_R_MM, eps: float = WIRE_EPS) -> float:
    """A round wire over a ground plane: 2π ε0 εr / acosh(h / r), per metre (the textbook line over ground;
    24.7 pF/m for the defaults, a few pF per 10 cm as TUNING.md says)."""
    return 2 * math.pi * E0 * eps / math.acosh(height / radius) * 1e12


def pad_pf(pad: tuple[float, float] = PAD, gap: float = RIB_H) -> float:
    """The bare pad to ground: a plate over the LED board's wires a chamber's height below (as if a plane) plus
    an isolated disc of the pad's area (8 ε0 r): about 3 pF for 60 x 35 mm. An assumption, small beside the wire."""
    area = pad[0] * pad[1] * 1e-6
    return (E0 * area / (gap / 1000) + 8 * E0 * math.sqrt(area / math.pi)) * 1e12


def infill_eps(infill: float, eps: float = EPS_PLA) -> float:
    """Printed infill: its walls stand in the field's direction, so the parallel mix 1 + f (εr - 1)."""
    return 1 + infill * (eps - 1)


Layer = tuple[float, float]  # (mm, εr)


def printed_stack(cover: float = PAD_COVER, slicer: Slicer = SLICER) -> list[Layer]:
    """Card, then the plate's cover: solid skins at both faces (the top printed as bottom layers), infill between."""
    skins = min(cover, 2 * slicer.skin)
    return [CARD, (skins, EPS_PLA), (cover - skins, infill_eps(slicer.infill))]


def mdf_stack(mdf: float = MDF_T, acrylic: float | None = None) -> list[Layer]:
    """Card and sheet; with ``acrylic`` (mm), the pads under the acrylic as well (the old way)."""
    return [CARD, (mdf, EPS_MDF)] + ([(acrylic, EPS_ACRYLIC)] if acrylic else [])


def finger_pf(layers: list[Layer], area_mm2: float = FINGER_MM2) -> float:
    """ΔC of a flat finger through layers in series: ε0 A / Σ(d / εr)."""
    return E0 * area_mm2 * 1e-6 / (sum(d / eps for d, eps in layers) / 1000) * 1e12


@dataclass(frozen=True)
class Pad:
    tile: str
    wire_mm: float
    c_pf: float  # the pad, its wire and the input
    finger_pf: float
    signal: float  # counts

    def ratio(self, threshold: int) -> float:
        return self.signal / threshold


def pads(layers: list[Layer], wires_mm: list[float] | None = None, extra_mm: float = 0.0,
         wire_pf_m: float | None = None) -> list[Pad]:
    """Every tile's predicted light-finger signal, tile order (A1..E5)."""
    wires_mm = pad_wire_lengths() if wires_mm is None else wires_mm
    per_m = wire_pf_per_m() if wire_pf_m is None else wire_pf_m
    delta = finger_pf(layers)
    out = []
    for tile, wire in enumerate(wires_mm):
        c = pad_pf() + (wire + extra_mm) / 1000 * per_m + INPUT_PF
        out.append(Pad(tile_name(tile), wire + extra_mm, c, delta, BASELINE * delta / (c + delta)))
    return out


#: each route's pads; a keyword (``wire_pf_m``, ``wires_mm``) varies the model
ROUTES = {
    "printed": lambda **vary: pads(printed_stack(), **vary),
    "mdf": lambda **vary: pads(mdf_stack(), extra_mm=ACRYLIC_T, **vary),
}


def problems(config: Config | None = None) -> list[str]:
    """What the model says against a configuration's thresholds (the shipped defaults without one), a tile's own
    where it has them: a pad under LIGHT_FINGER_MARGIN x its touch threshold on either route, or a release
    threshold within NOISE_MARGIN x the untouched noise. Empty when the touch works by design."""
    tiles = (config or parse("")).tiles
    pairs = [tiles.thresholds.get(tile, (tiles.touch_threshold, tiles.release_threshold)) for tile in range(board.TILES)]
    out = []
    for route, model in ROUTES.items():
        for pad, (touch, _) in zip(model(), pairs):
            if pad.signal < LIGHT_FINGER_MARGIN * touch:
                out.append(f"{route} route, {pad.tile}: a light finger gives {pad.signal:.0f} counts, under "
                           f"{LIGHT_FINGER_MARGIN} x its touch threshold {touch}")
    for tile, (_, release) in enumerate(pairs):
        if release < NOISE_MARGIN * NOISE_COUNTS:
            out.append(f"{tile_name(tile)}: release threshold {release} within {NOISE_MARGIN} x an untouched pad's "
                       f"{NOISE_COUNTS} counts of noise")
    return out


def table(route: str, touch: int = board.TOUCH_THRESHOLD) -> list[str]:
    """The route's pads as text rows: tile, wire, C, signal, its ratio to the touch threshold."""
    rows = [f"{'tile':4} {'wire mm':>7} {'C pF':>6} {'ΔC pF':>6} {'counts':>6} {'x thr':>5}"]
    for pad in ROUTES[route]():
        rows.append(f"{pad.tile:4} {pad.wire_mm:7.0f} {pad.c_pf:6.1f} {pad.finger_pf:6.2f} {pad.signal:6.1f} "
                    f"{pad.ratio(touch):5.2f}")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description="Print every tile's predicted light-finger signal on "
                                     "both routes and say which pads the configured thresholds leave short (exit 1).")
    parser.add_argument("--config", metavar="FILE", help="a config file (default: the shipped defaults)")
    args = parser.parse_args(argv)
    config = parse("")
    if args.config:
        from codenames_board.clibase import load_config
        from codenames_board.i18n import Translator, detect_language

        config = load_config(args.config, Translator(detect_language()))
        if config is None:
            return 2
    for route in ROUTES:
        print(f"{route} route, touch threshold {config.tiles.touch_threshold}:")
        print("\n".join("  " + row for row in table(route, config.tiles.touch_threshold)))
    found = problems(config)
    print("\n".join(found) if found else f"every pad at {LIGHT_FINGER_MARGIN} x its touch threshold or more")
    return 1 if found else 0
