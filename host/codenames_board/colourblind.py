"""How the tiles' colours look to players with the three common colour-vision deficiencies.

``seen(colour, kind)`` simulates full protanopia, deuteranopia or tritanopia on an sRGB colour
(Machado, Oliveira and Fernandes 2009: one 3x3 matrix per deficiency, applied in linear RGB);
``difference(a, b)`` is the CIE76 colour difference (ΔE*ab) between two sRGB colours: about 2.3
is just noticeable, 10 clearly different, 25 and more a different colour at a glance.
``closest(colours)`` is the smallest difference between any two of them as each kind of vision
sees them: what a palette's weakest pair is, for the tests and for choosing the palette.
"""

from __future__ import annotations

from itertools import combinations

RGB = tuple[int, int, int]

KINDS = ("normal", "protanopia", "deuteranopia", "tritanopia")
_MATRICES = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(value: float) -> float:
    value /= 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> float:
    value = min(1.0, max(0.0, value))
    return 255 * (value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055)


def seen(colour: RGB, kind: str) -> tuple[float, float, float]:
    """``colour`` as a viewer of ``kind`` (one of KINDS) sees it, in sRGB."""
    if kind == "normal":
        return tuple(float(value) for value in colour)  # type: ignore[return-value]
    linear = [_linear(value) for value in colour]
    return tuple(_encoded(sum(weight * part for weight, part in zip(row, linear))) for row in _MATRICES[kind])  # type: ignore[return-value]


def _lab(colour) -> tuple[float, float, float]:
    r, g, b = (_linear(value) for value in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def difference(a, b) -> float:
    """CIE76 ΔE*ab between two sRGB colours."""
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b))) ** 0.5


def closest(colours: dict[str, RGB]) -> tuple[float, str, str, str]:
    """The smallest difference between two of ``colours`` under any kind of vision: (ΔE, kind, name, name)."""
    worst = (float("inf"), "", "", "")
    for kind in KINDS:
        for (first, a), (second, b) in combinations(colours.items(), 2):
            gap = difference(seen(a, kind), seen(b, kind))
            worst = min(worst, (gap, kind, first, second))
    return worst
