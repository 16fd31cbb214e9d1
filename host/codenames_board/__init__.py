"""codenames-board: a Raspberry Pi turns a table into a Codenames board."""

__version__ = "0.1.0"
