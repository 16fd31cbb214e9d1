"""The status panel's icons, drawn rather than set in type: pygame's default font has no arrows or symbols."""

from __future__ import annotations

import math

import pygame

from .layout import WARNING, WARNING_TEXT, Colour


def draw_warning_icon(surface: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.polygon(surface, WARNING_TEXT, [(rect.centerx, rect.top), rect.bottomright, rect.bottomleft])
    stroke = max(2, rect.width // 8)
    x, height = rect.centerx, rect.height
    pygame.draw.line(surface, WARNING, (x, rect.top + height * 0.35), (x, rect.top + height * 0.68), stroke)
    pygame.draw.circle(surface, WARNING, (x, rect.top + height * 0.83), max(1, stroke // 2 + 1))


def draw_muted_icon(surface: pygame.Surface, rect: pygame.Rect, colour: Colour) -> None:
    x, y, w, h = rect

    def at(px: float, py: float) -> tuple[float, float]:
        return x + px * w, y + py * h

    speaker = [(0, 0.35), (0.22, 0.35), (0.5, 0.1), (0.5, 0.9), (0.22, 0.65), (0, 0.65)]
    pygame.draw.polygon(surface, colour, [at(px, py) for px, py in speaker])
    stroke = max(2, w // 9)
    pygame.draw.line(surface, colour, at(0.64, 0.32), at(0.98, 0.68), stroke)
    pygame.draw.line(surface, colour, at(0.64, 0.68), at(0.98, 0.32), stroke)


def draw_arrow(surface: pygame.Surface, rect: pygame.Rect, colour: Colour) -> None:
    neck = rect.right - (rect.height // 2 + 1)
    pygame.draw.line(surface, colour, (rect.left, rect.centery), (neck, rect.centery), max(2, rect.height // 4))
    pygame.draw.polygon(surface, colour, [(neck, rect.top), (rect.right, rect.centery), (neck, rect.bottom)])


def draw_infinity(surface: pygame.Surface, rect: pygame.Rect, colour: Colour) -> None:
    """A lemniscate, the sign for an unlimited clue."""
    stroke = max(2, rect.height // 6)
    half_width, half_height = (rect.width - stroke) / 2, (rect.height - stroke) / 2 * 2.8
    points = []
    for step in range(49):
        angle = 2 * math.pi * step / 48
        scale = 1 + math.sin(angle) ** 2
        x = rect.centerx + half_width * math.cos(angle) / scale
        points.append((x, rect.centery + half_height * math.sin(angle) * math.cos(angle) / scale))
    pygame.draw.lines(surface, colour, True, points, stroke)
    for point in points[::4]:  # round the joints of the thick line
        pygame.draw.circle(surface, colour, point, stroke / 2)
