"""An Atoms bot with one flaw, named by its argument (`good` has none): `swap` writes y before x,
`one` counts columns and rows from 1. It places on the last legal cell, row by row; `late`
places on the first, from (0, 0), as a beginner's does, and crashes at its fifth prompt; `segv`
is killed by SIGSEGV at its second prompt; `second` raises at its second prompt, the same error
in every seat, and `colour` there too, an error that names its colour (another in each seat);
`library` fails there inside Python's library, the same error and library line, from a line
of its own for red and another for the other colours. `extra` prints a debug line to stdout
after each answer (`going to X Y`); `mixed` does so as red and, as any other colour, writes its
answers with a comma (`PLACE 1,2`), a malformed answer."""

import os
import random
import signal
import sys


def red_plan():
    return random.choice([])


def other_plan():
    return random.choice([])


MODE = sys.argv[1]
me, rows, prompts = "R", [], 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ATOMS":
        me = words[4]
    elif words[0] == "TURN":
        rows = []
    elif words[0] != "END":
        rows.append(words)
    else:
        prompts += 1
        if MODE == "late" and prompts == 5:
            raise RuntimeError("a bug that shows at the fifth prompt")
        if MODE == "second" and prompts == 2:
            raise RuntimeError("a bug that shows at the second prompt")
        if MODE == "colour" and prompts == 2:
            raise RuntimeError("no plan for colour " + me)
        if MODE == "library" and prompts == 2:
            red_plan() if me == "R" else other_plan()
        if MODE == "segv" and prompts == 2:
            os.kill(os.getpid(), signal.SIGSEGV)
        legal = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == ".." or c[0] == me]
        x, y = legal[0] if MODE == "late" else legal[-1]
        if MODE == "swap":
            x, y = y, x
        elif MODE == "one":
            x, y = x + 1, y + 1
        if MODE == "mixed" and me != "R":
            print("PLACE %d,%d" % (x, y), flush=True)
        else:
            print("PLACE %d %d" % (x, y), flush=True)
        if MODE == "extra" or (MODE == "mixed" and me == "R"):
            print("going to %d %d" % (x, y), flush=True)
