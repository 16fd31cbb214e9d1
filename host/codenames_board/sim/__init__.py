"""``codenames-board sim``: the table on a laptop, with the same runtime as the Pi."""

from ..pygame_import import load as _load_pygame

_load_pygame()  # before any of our modules imports pygame
