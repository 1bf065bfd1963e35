"""tactics_bot: a small OOPtimal Tactics bot on the Python starter kit.

In the Placement Phase it puts all its chips on its field with the most neighbours that it
does not hold; in the Movement Phase it passes.
Run: ``python3 tactics_bot.py``.
"""

import botkit


def act(view):
    """This turn's command."""
    if view.movement or view.chips == 0:
        return botkit.TACTICS_PASS

    def exposure(field):
        col, row, _ = field
        return sum(1 for c, r in view.neighbours(col, row)
                   if not (isinstance(view.get(c, r), tuple) and view.get(c, r)[0] == view.me))
    mine = view.mine()
    if not mine:
        return botkit.TACTICS_PASS
    col, row, _ = max(mine, key=exposure)
    return botkit.tactics_place(view.chips, col, row)


if __name__ == "__main__":
    botkit.run_tactics(act)
