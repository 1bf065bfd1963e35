"""atoms_bot: a small Atoms bot on the Python starter kit.

It places where one more atom explodes its own cell, else on an empty corner, else on its own
cells, else anywhere legal (the first such cell, row by row).
Run: ``python3 atoms_bot.py``.
"""

import botkit


def place(view):
    """The cell (x, y) to place on."""
    def rank(xy):
        cell = view.cell(*xy)
        if cell is not None and cell[1] == view.limit(*xy) - 1:
            return 3
        if cell is None and view.limit(*xy) == 2:
            return 2
        return 1 if cell is not None else 0
    legal = view.legal()
    return max(legal, key=rank)  # max keeps the first of equal ranks


if __name__ == "__main__":
    botkit.run_atoms(place)
