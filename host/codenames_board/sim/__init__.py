"""``codenames-board sim``: the table on a laptop, with the same runtime as the Pi."""
