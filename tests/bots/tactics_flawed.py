"""An OOPtimal Tactics bot with one flaw, named by its argument (`good` has none): `water`
places on field 3 3 (water on maps/tactics/config_01.txt), `swap` writes the row before the
column, `loop` never answers its first prompt while computing, `slow` computes 3 s (of CPU time) before its
first answer, `sleepy` sleeps 3 s (idle) before it, `noflush` never flushes stdout, `readall`
reads all of its input before it answers, `segv` is killed by SIGSEGV at its second prompt,
`raise` raises there, `syntax` does not compile; `extra` prints a debug line to stdout after
each answer (`going to C R`), and `mixed` does so as player A and, as player B, writes its
placements with commas (`place,1,2,3`), a malformed command."""

import io
import os
import signal
import sys
import time

MODE = sys.argv[1]
if MODE == "syntax":
    exec(compile("def act(view)\n    pass\n", "bot.py", "exec"))
if MODE == "noflush":
    # Block-buffered whatever PYTHONUNBUFFERED says, as stdout to a pipe normally is.
    sys.stdout = open(sys.stdout.fileno(), "w", buffering=8192, closefd=False)
if MODE == "readall":
    sys.stdin = io.StringIO(sys.stdin.read())


def say(line):
    print(line, flush=MODE != "noflush")


def main():
    me, phase, chips, rows, prompts = "A", "", 0, [], 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "TACTICS":
            me = words[4]
        elif words[0] == "ROUND":
            rows = []
        elif words[0] == "PHASE":
            phase = words[1]
        elif words[0] == "CHIPS":
            chips = int(words[1])
        elif words[0] != "END":
            rows.append(words)
        else:
            prompts += 1
            if MODE == "loop":
                while True:
                    pass
            if MODE == "sleepy" and prompts == 1:
                time.sleep(3)
            if MODE == "slow" and prompts == 1:
                # 3 s of CPU time, however loaded the machine (past the 2000 ms on either clock).
                end = time.process_time() + 3
                while time.process_time() < end:
                    pass
            if prompts == 2 and MODE == "segv":
                os.kill(os.getpid(), signal.SIGSEGV)
            if prompts == 2 and MODE == "raise":
                raise ValueError("no field left to think about")
            mine = [(c + 1, r + 1) for r, row in enumerate(rows) for c, f in enumerate(row) if f[0] == me]
            if phase == "PLACEMENT" and chips > 0 and mine:
                col, row = mine[0]
                if MODE == "water":
                    col, row = 3, 3
                elif MODE == "swap":
                    col, row = row, col
                if MODE == "mixed" and me == "B":
                    say("place,%d,%d,%d" % (chips, col, row))
                else:
                    say("place %d %d %d" % (chips, col, row))
            else:
                say("pass")
            if MODE == "extra" or (MODE == "mixed" and me == "A"):
                say("going to %d %d" % mine[0] if mine else "going nowhere")


main()
