"""greedy: the Python starter kit's sample Resource Rush bot.

Each tick it goes for the best value per tick of distance among the resources and power-ups
it can still afford, always keeping enough ticks to reach the final, then goes there. Paths
plan through picking up a J when that is shorter (so on maps where the final can only be
reached by jumping, it fetches a J first). It prefers what the opponent does not reach
first: two players arriving at once cancel the item. When both stand on one cell it waits
on every other tick (the two players on opposite ticks) so that they split up.

Run it with ``python3`` and this file (the arena starts it for you).
"""

import botkit


NOTHING = ("0", "E", "W", "F")
"""Cells never worth going to."""


def worth(cell, multiplier, jump):
    """What a cell is worth to a player with this multiplier and Jump (0 for nothing)."""
    m = float(multiplier)
    value = botkit.resource_value(cell)
    if value:
        return value * m
    if cell == "D":
        return 20.0 * m
    if cell == "T":
        return 40.0 * m
    if cell == "J" and not jump:
        return 15.0
    return 0.0


def act(s):
    """This tick's move: a Pos, or None to WAIT."""
    me, opp = s.me, s.opponent
    budget = s.ticks_left()
    here = s.reach_from(me.pos, me.jump)
    home = s.distances_to(s.final)
    rival = s.reach_from(opp.pos, opp.jump)
    opponent_done = opp.status != botkit.PLAYING
    i_lead = s.starts[0] <= s.starts[1]
    to_final = home.get(me.pos, me.jump)
    spare = to_final is None or to_final < budget
    if not opponent_done and opp.pos == me.pos and spare and (s.tick % 2 == 0) == i_lead:
        return None
    # The best uncontested target, and the best at all (when everything is contested).
    best = best_any = None
    for p in s.positions():
        cell = s.grid[p.x][p.y]
        if cell in NOTHING:
            continue
        value = worth(cell, me.multiplier, me.jump)
        if value <= 0:
            continue
        # The quickest arrival (with or without a J picked up) that still leaves time to finish.
        choice = None
        for jump in (False, True):
            d, back = here.dist(p, jump), home.get(p, jump)
            if d is None or back is None or d == 0 or d + back > budget:
                continue
            if choice is None or (d, back) < choice[:2]:
                choice = (d, back, jump)
        if choice is None:
            continue
        d, _, jump = choice
        theirs = rival.best(p)
        contested = not opponent_done and theirs is not None and (theirs < d or (theirs == d and not i_lead))
        score = value / d
        if best_any is None or score > best_any[0]:
            best_any = (score, p, jump)
        if not contested and (best is None or score > best[0]):
            best = (score, p, jump)
    pick = best or best_any
    if pick is not None:
        path = here.path(pick[1], pick[2])
    else:
        jump = here.best_jump(s.final)
        path = None if jump is None else here.path(s.final, jump)
    return path[0] if path else None


if __name__ == "__main__":
    botkit.run(act)
