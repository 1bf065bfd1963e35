# A plain Resource Rush bot written without any kit (it walks a shortest path to the final,
# stepping only), with one flaw a student's bot often has, chosen by the first argument:
#   good       none (the control)
#   noflush    never flushes stdout
#   stopflush  flushes its first two answers only
#   comma      answers `MOVE x,y`
#   extra      prints a debug line to stdout after each answer
#   debugfirst prints a debug line to stdout before each answer
#   mixed      debugfirst, but answers `MOVE x,y` in test mode (`RR_MODE=test`): two problems
#   worded     debugfirst, but its debug line has other words in test mode: one problem
#   slow       takes 3 s before its first answer
#   crlfcrash  splits lines on ' ', so a `\r` at the end of a map row crashes it
#   crlfwait   compares the header's lines with only the `\n` stripped, so it never sees `STREAM\r`
#   seats      takes line 3 of the header for its own start
#   slowtick   thinks too long at tick 37 (1.5 s of CPU time)
#   loop       loops forever at tick 2 (the CPU busy, nothing printed)
#   loop1      loops forever at tick 1 (the CPU busy, nothing printed)
#   readall    reads all of its input before it answers (idle, nothing printed until its input ends),
#              as a bot written for `./bot < test1.txt` does
#   readexit   reads all of its input, then exits without answering
#   owncrash   raises an error of its own logic at tick 2 (its input read well)
#   spam       writes 100 kB of debug output to stderr each tick
#   tickcrash  misreads the TICK line at tick 2 (`int()` of `WAIT`): a crash while reading
import io
import os
import sys
import time
from collections import deque

flaw = sys.argv[1] if len(sys.argv) > 1 else "good"
if flaw == "mixed":
    flaw = "comma" if os.environ.get("RR_MODE") == "test" else "debugfirst"
if flaw in ("noflush", "stopflush"):
    # Block-buffered whatever PYTHONUNBUFFERED says, as stdout to a pipe normally is.
    sys.stdout = open(sys.stdout.fileno(), "w", buffering=8192, closefd=False)


answered = 0


def say(line):
    global answered
    sys.stdout.write(line + "\n")
    answered += 1
    if flaw != "noflush" and (flaw != "stopflush" or answered <= 2):
        sys.stdout.flush()


def cell(token):
    if flaw == "crlfcrash":
        return token if token in ("E", "W", "F", "J", "D", "T") else str(int(token))
    return token.strip()


if flaw == "slow":
    time.sleep(3)
if flaw == "readexit":
    sys.stdin.read()
    sys.exit(0)
if flaw == "readall":
    sys.stdin = io.StringIO(sys.stdin.read())
header = []
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    header.append(line)
    if (line.rstrip("\n") if flaw == "crlfwait" else line.strip()) == "STREAM":
        break
rows = [l for l in header if l.strip()]
n, m = int(rows[0].split()[1]), int(rows[0].split()[2])
me = tuple(int(v) for v in rows[2 if flaw == "seats" else 1].split())
final = tuple(int(v) for v in rows[3].split())
grid = [[cell(t) for t in (r.rstrip("\n").split(" ") if flaw == "crlfcrash" else r.split())] for r in rows[5:5 + n]]


def first_step(frm, to):
    prev = {frm: None}
    queue = deque([frm])
    while queue:
        p = queue.popleft()
        if p == to:
            while prev[p] != frm and prev[p] is not None:
                p = prev[p]
            return p if p != frm else None
        for dx, dy in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            q = (p[0] + dx, p[1] + dy)
            if 0 <= q[0] < n and 0 <= q[1] < m and grid[q[0]][q[1]] not in ("E", "W", "F") and q not in prev:
                prev[q] = p
                queue.append(q)
    return None


while True:
    line = sys.stdin.readline()
    if not line:
        break
    if not line.startswith("TICK"):
        continue
    if flaw == "slowtick" and line.split()[1] == "37":
        busy_until = time.process_time() + 1.5
        while time.process_time() < busy_until:
            pass
    while (flaw == "loop" and line.split()[1] == "2") or (flaw == "loop1" and line.split()[1] == "1"):
        pass
    if flaw == "spam":
        sys.stderr.write("debug: thinking hard\n" * 5000)
    if flaw == "owncrash" and line.split()[1] == "2":
        raise ValueError("no plan for tick 2")
    if flaw == "tickcrash" and line.split()[1] == "2":
        opponent_x = int(line.split()[2])
    step = first_step(me, final)
    if flaw == "debugfirst":
        say("debug: tick {}".format(line.split()[1]))
    if flaw == "worded":
        say("debug: going to the final" if os.environ.get("RR_MODE") == "test" else "debug: tick 1")
    if step is None:
        say("WAIT")
    else:
        me = step
        say("MOVE {},{}".format(*step) if flaw == "comma" else "MOVE {} {}".format(*step))
    if flaw == "extra":
        say("debug: now at {} {}".format(*me))
