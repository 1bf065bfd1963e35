"""botkit: the Python 3 starter kit for the arena's games (one file, no dependencies).

The arena starts your bot as a process and talks to it over stdin/stdout. For Resource
Rush it first sends the map header from your point of view (your own start on line 2),
then one ``TICK t <opponent's last action>`` line per tick; you answer each with exactly
one line, ``WAIT`` or ``MOVE x y``. This module does all of that for you:

- :class:`GameState` tracks the map (collected cells become ``"0"``), both players'
  positions, scores, multipliers and Jump, and the ticks left, exactly as the referee does,
  in duels and in the single-player tests (``RR_MODE=test``);
- :func:`move_error` and :func:`resolve` are the rules the referee enforces;
- :meth:`GameState.legal_moves`, :meth:`GameState.path_to`,
  :meth:`GameState.distance_to` and :meth:`GameState.reach_from` find moves and shortest
  paths, planning through picking up a ``J`` on the way;
- :func:`run` owns the loop: it reads stdin, calls your bot, prints and flushes each answer.

A complete bot::

    import botkit

    def act(state):
        # Go to the final by a shortest path (through a J if that is shorter).
        return state.step_towards(state.final)   # a Pos, or None to WAIT

    botkit.run(act)

Coordinates: ``x`` is the row, ``y`` the column, both from 0. A cell is the map token as
the protocol writes it: ``"0"``, ``"1"``..``"99"``, ``"E"``, ``"W"``, ``"F"``, ``"J"``,
``"D"`` or ``"T"``.

Atoms (:func:`run_atoms`, :class:`AtomsView`) and OOPtimal Tactics (:func:`run_tactics`,
:class:`TacticsView`) have their protocol parsing and answer loop here too.

Print debug output to stderr only: stdout is the protocol. With ``RR_DEBUG=1`` in the
environment the loop prints its view of every settled tick to stderr (see :func:`run`).

Processes (``multiprocessing``, ``concurrent.futures.ProcessPoolExecutor``): where the arena
counts a bot's memory without a cgroup (a plain bot, or a box of an arena that is not root)
it refuses ``sendmsg``, through which the ``forkserver`` start method, Python 3.14's default
on Linux, hands descriptors to its server: it fails there with ``OSError: [Errno 38]`` (at
``reduction.sendfds``), or, in a plain bot, which may make no unix socket of its own, earlier
with ``OSError: [Errno 97]`` (its server's listener). Call ``multiprocessing.set_start_method("fork")`` once, first thing
(or pass ``mp_context=multiprocessing.get_context("fork")`` to a pool).
"""

import os
import sys
from collections import deque, namedtuple

__all__ = [
    "Pos", "Player", "GameState", "Reach", "ProtocolError", "DUEL", "TEST",
    "parse_cell", "is_walkable", "is_collectable", "resource_value", "move_error",
    "resolve", "parse_action", "format_action", "parse_tick", "run", "run_io",
    "AtomsView", "run_atoms", "TacticsView", "run_tactics",
]

MAX_SIDE = 50
"""Largest number of rows or columns a map may have."""

I64_MAX = 2 ** 63 - 1
"""Scores and multipliers stop here instead of growing further, as in the referee."""

DUEL = "duel"
"""A duel: both moves of a tick happen at once; ``TICK t`` reports the opponent's move of tick t-1."""

TEST = "test"
"""A single-player test: ``TICK t`` carries the scripted opponent's move of tick t, applied first."""

PLAYING, FINISHED, FORFEIT = "playing", "finished", "forfeit"
"""A player's status: still answering, reached the final, or out of the game (score 0)."""

_OFFSETS = ((-1, 0), (0, 1), (1, 0), (0, -1))


class ProtocolError(Exception):
    """A line from the arena that the kit could not understand (says which and why)."""


class Pos(namedtuple("Pos", "x y")):
    """A cell position: ``x`` is the row, ``y`` the column. Ordered by row, then column."""

    __slots__ = ()

    def __str__(self):
        return "({}, {})".format(self.x, self.y)

    def manhattan(self, other):
        """Manhattan distance to ``other``."""
        return abs(self.x - other.x) + abs(self.y - other.y)


# ---------------------------------------------------------------------------------------
# Cells


def parse_cell(token):
    """The canonical cell for a map token (``"07"`` is ``"7"``), or None if it is not one."""
    if token in ("E", "W", "F", "J", "D", "T"):
        return token
    if 1 <= len(token) <= 3 and token.isdigit() and token.isascii():
        value = int(token)
        if value <= 99:
            return str(value)
    return None


def resource_value(cell):
    """The points a resource cell is worth (before the multiplier), 0 for any other cell."""
    return int(cell) if cell.isdigit() else 0


def is_walkable(cell):
    """Whether a player may stand on ``cell``: ground, resources and power-ups (not E, W, F)."""
    return cell not in ("E", "W", "F")


def is_collectable(cell):
    """Whether moving onto ``cell`` collects something: a resource or a power-up."""
    return cell in ("J", "D", "T") or (cell.isdigit() and cell != "0")


# ---------------------------------------------------------------------------------------
# Actions and the rules


def parse_action(tokens):
    """``["WAIT"]`` is None; ``["MOVE", x, y]`` is a Pos. Raises ValueError otherwise."""
    if tokens == ["WAIT"]:
        return None
    if len(tokens) == 3 and tokens[0] == "MOVE":
        try:
            return Pos(int(tokens[1]), int(tokens[2]))
        except ValueError:
            raise ValueError("coordinates must be integers, found `{}`".format(" ".join(tokens)))
    raise ValueError("expected `WAIT` or `MOVE x y`, found `{}`".format(" ".join(tokens)))


def format_action(action):
    """The answer line for an action: None is ``WAIT``, a Pos ``MOVE x y``."""
    if action is None:
        return "WAIT"
    return "MOVE {} {}".format(action[0], action[1])


def parse_tick(line):
    """``TICK t WAIT`` or ``TICK t MOVE x y`` as ``(t, action)``. Raises ProtocolError."""
    tokens = line.split()
    if len(tokens) < 3 or tokens[0] != "TICK":
        raise ProtocolError("bad TICK line `{}`: expected `TICK t <action>`".format(line.strip()))
    try:
        tick = int(tokens[1])
    except ValueError:
        tick = -1
    # (As the C and C++ kits: a tick is a whole number from 0 to 2^31 - 1.)
    if not 0 <= tick <= 2**31 - 1:
        raise ProtocolError("bad TICK line `{}`: `{}` is not a tick number".format(line.strip(), tokens[1]))
    try:
        return tick, parse_action(tokens[2:])
    except ValueError as e:
        raise ProtocolError("bad TICK line `{}`: {}".format(line.strip(), e))


def move_error(grid, frm, to, has_jump):
    """Why the move ``frm`` -> ``to`` is invalid on ``grid`` (a list of rows), or None if it is
    valid. Entering fire is valid (and fatal). This is the referee's check, word for word."""
    rows, cols = len(grid), len(grid[0])
    if not (0 <= to[0] < rows and 0 <= to[1] < cols):
        return "{} is off the map".format(Pos(*to))
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    size = (abs(dx), abs(dy))
    if size == (0, 0):
        return "{} is where the player already is (answer WAIT to stay)".format(Pos(*to))
    jump = False
    if size in ((1, 0), (0, 1)):
        pass
    elif size in ((2, 0), (0, 2)):
        if not has_jump:
            return "{} to {} is two cells away and the player has no Jump".format(Pos(*frm), Pos(*to))
        jump = True
    else:
        return "{} to {} is not a step or a straight two-cell jump".format(Pos(*frm), Pos(*to))
    dest = grid[to[0]][to[1]]
    if dest in ("W", "E"):
        return "{} is `{}`, which cannot be entered".format(Pos(*to), dest)
    if jump:
        mx, my = frm[0] + dx // 2, frm[1] + dy // 2
        if 0 <= mx < rows and 0 <= my < cols and grid[mx][my] == "F":
            return "cannot jump over the fire at {}".format(Pos(mx, my))
    return None


class Player:
    """One player as far as the protocol tells: position, score, multiplier, Jump, status."""

    __slots__ = ("pos", "score", "multiplier", "jump", "status")

    def __init__(self, pos):
        self.pos = pos
        self.score = 0
        self.multiplier = 1
        self.jump = False
        self.status = PLAYING

    def collect(self, cell):
        """Takes what ``cell`` holds (score, Jump or multiplier) and returns the points earned."""
        value = resource_value(cell)
        if value:
            points = min(value * self.multiplier, I64_MAX)
            self.score = min(self.score + points, I64_MAX)
            return points
        if cell == "J":
            self.jump = True
        elif cell == "D":
            self.multiplier = min(self.multiplier * 2, I64_MAX)
        elif cell == "T":
            self.multiplier = min(self.multiplier * 3, I64_MAX)
        return 0

    def __repr__(self):
        return "Player(pos={}, score={}, multiplier={}, jump={}, status={})".format(
            self.pos, self.score, self.multiplier, self.jump, self.status)


def resolve(grid, players, moves):
    """Applies one tick of already validated moves at once, as the referee does.

    ``moves[i]`` is the destination of player ``i`` or None (waited, done). Two players moving
    onto the same item cancel it (nobody gets it, the cell becomes ``"0"``). Returns the events
    as tuples: ``("collected", i, pos, cell, points)``, ``("cancelled", pos, cell)``,
    ``("fire", i, pos)``.
    """
    events = []
    rows, cols = len(grid), len(grid[0])
    for i, dest in enumerate(moves):
        if dest is None:
            continue
        players[i].pos = Pos(*dest)
        if not (0 <= dest[0] < rows and 0 <= dest[1] < cols):
            continue
        cell = grid[dest[0]][dest[1]]
        if cell == "F":
            events.append(("fire", i, dest))
            continue
        if not is_collectable(cell):
            continue
        if any(j != i and d == dest for j, d in enumerate(moves)):
            if moves.index(dest) == i:
                events.append(("cancelled", dest, cell))
            continue
        events.append(("collected", i, dest, cell, players[i].collect(cell)))
    for event in events:
        if event[0] == "collected":
            grid[event[2][0]][event[2][1]] = "0"
        elif event[0] == "cancelled":
            grid[event[1][0]][event[1][1]] = "0"
    return events


# ---------------------------------------------------------------------------------------
# The header


def _header_lines(text):
    """(line number, tokens) of every non-blank line, comments and CR removed."""
    for number, raw in enumerate(text.splitlines(), 1):
        tokens = raw.split("#", 1)[0].split()
        if tokens:
            yield number, tokens


class _Header:
    def __init__(self, text):
        lines = _header_lines(text)

        def expect(what):
            item = next(lines, None)
            if item is None:
                raise ProtocolError("bad header: unexpected end, expected {}".format(what))
            return item

        def fail(number, why):
            raise ProtocolError("bad header: line {}: {}".format(number, why))

        def ints(what, count):
            number, tokens = expect(what)
            try:
                if len(tokens) != count:
                    raise ValueError
                return number, [int(t) for t in tokens]
            except ValueError:
                fail(number, "expected {}, found `{}`".format(what, " ".join(tokens)))

        number, head = expect("`ARENA N M ROUNDS`")
        if len(head) != 4 or head[0] != "ARENA":
            fail(number, "expected `ARENA N M ROUNDS`, found `{}`".format(" ".join(head)))
        try:
            self.rows, self.cols, self.rounds = int(head[1]), int(head[2]), int(head[3])
        except ValueError:
            fail(number, "expected `ARENA N M ROUNDS`, found `{}`".format(" ".join(head)))
        if not (1 <= self.rows <= MAX_SIDE and 1 <= self.cols <= MAX_SIDE) or self.rounds < 1:
            fail(number, "map size or rounds out of range")
        places = []
        for what in ("your start `X Y`", "the opponent's start `X Y`", "the final `X Y`"):
            number, (x, y) = ints(what, 2)
            places.append((number, what, Pos(x, y)))
        number, tokens = expect("`MAP`")
        if tokens != ["MAP"]:
            fail(number, "expected `MAP`, found `{}`".format(" ".join(tokens)))
        self.grid = []
        for r in range(self.rows):
            number, tokens = expect("map row {}".format(r))
            if len(tokens) != self.cols:
                fail(number, "map row {} has {} cells, expected {}".format(r, len(tokens), self.cols))
            row = [parse_cell(t) for t in tokens]
            if None in row:
                fail(number, "bad cell `{}` in map row {}".format(tokens[row.index(None)], r))
            self.grid.append(row)
        for word in ("END_MAP", "STREAM"):
            number, tokens = expect("`{}`".format(word))
            if tokens != [word]:
                fail(number, "expected `{}`, found `{}`".format(word, " ".join(tokens)))
        for number, what, p in places:
            if not (0 <= p.x < self.rows and 0 <= p.y < self.cols) or not is_walkable(self.grid[p.x][p.y]):
                fail(number, "{} {} is not a walkable cell of the map".format(what, p))
        self.starts = (places[0][2], places[1][2])
        self.final = places[2][2]


# ---------------------------------------------------------------------------------------
# Paths


class Reach:
    """Shortest paths from one source over (cell, holds Jump) states: a path may pick up a
    ``J`` on the way and jump from then on. Made by :meth:`GameState.reach_from`."""

    def __init__(self, cols, dist, parent):
        self._cols = cols
        self._dist = dist
        self._parent = parent

    def _index(self, p, jump):
        n = len(self._dist) // 2
        if p[0] < 0 or p[1] < 0 or p[1] >= self._cols or p[0] * self._cols + p[1] >= n:
            return -1
        return (n if jump else 0) + p[0] * self._cols + p[1]

    def dist(self, p, jump):
        """Ticks to reach ``p`` holding Jump (``jump`` True) or not; None when impossible."""
        s = self._index(p, jump)
        if s < 0 or self._dist[s] < 0:
            return None
        return self._dist[s]

    def best(self, p):
        """Ticks to reach ``p`` either way (None when unreachable)."""
        found = [d for d in (self.dist(p, False), self.dist(p, True)) if d is not None]
        return min(found) if found else None

    def best_jump(self, p):
        """Which arrival at ``p`` is quickest: False (without Jump) unless only the arrival
        holding Jump is quicker. None when unreachable."""
        a, b = self.dist(p, False), self.dist(p, True)
        if a is None and b is None:
            return None
        return b is not None and (a is None or b < a)

    def path(self, p, jump):
        """The cells of a shortest path to ``p`` (arriving with Jump as given), the source
        excluded and ``p`` included: ``[]`` at the source, None when unreachable."""
        s = self._index(p, jump)
        if s < 0 or self._dist[s] < 0:
            return None
        n = len(self._dist) // 2
        out = []
        while self._parent[s] >= 0:
            i = s % n
            out.append(Pos(i // self._cols, i % self._cols))
            s = self._parent[s]
        out.reverse()
        return out


class _ToTarget:
    """Ticks from every (cell, holds Jump) state to one target; see GameState.distances_to."""

    def __init__(self, cols, dist):
        self._cols = cols
        self._dist = dist

    def get(self, p, jump):
        """Ticks from ``p`` holding Jump (``jump`` True) or not to the target; None if impossible."""
        n = len(self._dist) // 2
        if p[0] < 0 or p[1] < 0 or p[1] >= self._cols or p[0] * self._cols + p[1] >= n:
            return None
        d = self._dist[(n if jump else 0) + p[0] * self._cols + p[1]]
        return d if d >= 0 else None


# ---------------------------------------------------------------------------------------
# The game state


class GameState:
    """The game as your bot sees it, updated by the loop after every TICK line.

    Attributes: ``rows``, ``cols``, ``rounds``; ``grid`` (a list of rows of cells, collected
    cells are ``"0"``); ``final`` (a Pos); ``starts`` (your start, the opponent's); ``me`` and
    ``opponent`` (:class:`Player`); ``tick`` (the tick being answered, 0 before the first);
    ``mode`` (:data:`DUEL` or :data:`TEST`).

    In a test, the scripted opponent takes what lies where it goes but scores nothing (as the
    referee counts it). An opponent that entered fire is ``FORFEIT`` with score 0; one that
    reached the final is ``FINISHED``. (An opponent that forfeits for a bad answer just shows
    as waiting: the protocol does not tell.)
    """

    def __init__(self, header_text, mode=DUEL):
        h = _Header(header_text)
        self.rows, self.cols, self.rounds = h.rows, h.cols, h.rounds
        self.grid = h.grid
        self.starts = h.starts
        self.final = h.final
        self.me = Player(h.starts[0])
        self.opponent = Player(h.starts[1])
        self.tick = 0
        self.mode = mode
        self._pending = None
        # Walls, voids and fire never change, so the safe moves from every cell are fixed.
        n = self.rows * self.cols
        self._moves = [[], []]
        for jump in (False, True):
            for i in range(n):
                frm = (i // self.cols, i % self.cols)
                self._moves[jump].append([q[0] * self.cols + q[1] for q in self._safe_from(frm, jump)])

    # -- the map --------------------------------------------------------------------------

    def in_bounds(self, p):
        """Whether ``p`` lies on the map."""
        return 0 <= p[0] < self.rows and 0 <= p[1] < self.cols

    def cell(self, p):
        """The cell at ``p`` (``"0"`` once collected), or None off the map."""
        return self.grid[p[0]][p[1]] if self.in_bounds(p) else None

    def positions(self):
        """Every position, row by row."""
        return [Pos(x, y) for x in range(self.rows) for y in range(self.cols)]

    def ticks_left(self):
        """Ticks still to play, the current one included."""
        return max(self.rounds + 1 - max(self.tick, 1), 0)

    # -- moves and paths ------------------------------------------------------------------

    def _legal_from(self, frm, jump):
        out = []
        for k in ((1, 2) if jump else (1,)):
            for dx, dy in _OFFSETS:
                to = Pos(frm[0] + dx * k, frm[1] + dy * k)
                if move_error(self.grid, frm, to, jump) is None:
                    out.append(to)
        return out

    def _safe_from(self, frm, jump):
        return [p for p in self._legal_from(frm, jump) if self.grid[p.x][p.y] != "F"]

    def legal_moves(self, frm=None, jump=None):
        """Valid destinations (fire included: valid, but fatal) from ``frm`` (default: your
        position) holding Jump or not (default: whether you do). Steps first, then jumps, each
        clockwise from up."""
        return self._legal_from(self.me.pos if frm is None else frm, self.me.jump if jump is None else jump)

    def safe_moves(self, frm=None, jump=None):
        """Like :meth:`legal_moves`, without the moves into fire."""
        frm = self.me.pos if frm is None else frm
        return self._safe_from(frm, self.me.jump if jump is None else jump)

    def _jump_cells(self):
        """A byte per cell: 1 where a J still lies."""
        return bytearray(c == "J" for row in self.grid for c in row)

    def reach_from(self, frm, jump):
        """Shortest paths from ``frm`` (holding Jump or not) to everywhere over safe moves,
        picking up any ``J`` on the way. Paths do not go on through the final (reaching it
        ends your game) unless they start there."""
        cols, n = self.cols, self.rows * self.cols
        dist = [-1] * (2 * n)
        parent = [-1] * (2 * n)
        if not self.in_bounds(frm):
            return Reach(cols, dist, parent)
        stop = self.final.x * cols + self.final.y
        src = (n if jump else 0) + frm[0] * cols + frm[1]
        dist[src] = 0
        queue = deque([src])
        is_j, moves = self._jump_cells(), self._moves
        while queue:
            s = queue.popleft()
            holds = s >= n
            i = s - n if holds else s
            if i == stop and s != src:
                continue
            d = dist[s] + 1
            for q in moves[holds][i]:
                t = n + q if holds or is_j[q] else q
                if dist[t] < 0:
                    dist[t] = d
                    parent[t] = s
                    queue.append(t)
        return Reach(cols, dist, parent)

    def distances_to(self, target):
        """Ticks from every cell, holding Jump or not, to ``target`` over safe moves, picking up
        any ``J`` on the way, on paths that do not cross the final before their end. Returns an
        object with ``get(pos, jump)``."""
        cols, n = self.cols, self.rows * self.cols
        dist = [-1] * (2 * n)
        if not self.in_bounds(target) or not is_walkable(self.cell(target)):
            return _ToTarget(cols, dist)
        t = target[0] * cols + target[1]
        stop = self.final.x * cols + self.final.y
        dist[t] = dist[n + t] = 0
        queue = deque([t, n + t])
        is_j, without, with_jump = self._jump_cells(), self._moves[0], self._moves[1]
        while queue:
            s = queue.popleft()
            d = dist[s] + 1
            # Predecessors: states whose move lands in this one (moves are symmetric). Landing
            # on a J means holding Jump after it, whether held before or not.
            if s >= n:
                q = s - n
                for p in with_jump[q]:
                    if p != stop and dist[n + p] < 0:
                        dist[n + p] = d
                        queue.append(n + p)
                if not is_j[q]:
                    continue
            else:
                q = s
                if is_j[q]:
                    continue
            for p in without[q]:
                if p != stop and dist[p] < 0:
                    dist[p] = d
                    queue.append(p)
        return _ToTarget(cols, dist)

    def path_to(self, target):
        """The cells of a shortest safe path from you to ``target`` (yours excluded, the target
        included), through a ``J`` when picking it up makes the way shorter, never crossing the
        final before the end. ``[]`` when you are there, None when it is unreachable."""
        reach = self.reach_from(self.me.pos, self.me.jump)
        jump = reach.best_jump(target)
        return None if jump is None else reach.path(target, jump)

    def distance_to(self, target):
        """Ticks to ``target`` along :meth:`path_to` (None when unreachable)."""
        return self.reach_from(self.me.pos, self.me.jump).best(target)

    def step_towards(self, target):
        """The first move of :meth:`path_to`, or None when there is none (or you are there)."""
        path = self.path_to(target)
        return path[0] if path else None

    # -- following the game ---------------------------------------------------------------

    def on_tick(self, tick, opponent_action):
        """Takes in ``TICK tick <opponent action>``; the loop calls it before your bot acts."""
        opp = None if opponent_action is None else Pos(*opponent_action)
        if self.mode == TEST:
            # The scripted opponent moves first, unchecked, and takes what lies there.
            if opp is not None:
                self.opponent.pos = opp
                if self.in_bounds(opp) and is_collectable(self.cell(opp)):
                    self.grid[opp.x][opp.y] = "0"
        else:
            mine, self._pending = self._pending, None
            players = [self.me, self.opponent]
            moves = [mine, opp if self.opponent.status == PLAYING else None]
            for event in resolve(self.grid, players, moves):
                if event[0] == "fire" and event[1] == 1:
                    self.opponent.status = FORFEIT
                    self.opponent.score = 0
            if self.opponent.status == PLAYING and self.opponent.pos == self.final and tick > 1:
                self.opponent.status = FINISHED
        self.tick = tick

    def commit(self, action):
        """Records your answer for the current tick; the loop calls it after your bot acts."""
        if self.mode == TEST:
            if action is not None:
                resolve(self.grid, [self.me, self.opponent], [Pos(*action), None])
        else:
            self._pending = None if action is None else Pos(*action)

    def view_line(self, frame):
        """One line describing the state after tick ``frame`` (what ``RR_DEBUG`` prints):
        ``RR_VIEW frame`` then x y score multiplier jump for you and the opponent, then the
        number of items left on the map and the sum of the resources left."""
        parts = ["RR_VIEW", str(frame)]
        for p in (self.me, self.opponent):
            parts += [str(p.pos.x), str(p.pos.y), str(p.score), str(p.multiplier), "1" if p.jump else "0"]
        items = sum(1 for row in self.grid for c in row if is_collectable(c))
        value = sum(resource_value(c) for row in self.grid for c in row)
        return " ".join(parts + [str(items), str(value)])


# ---------------------------------------------------------------------------------------
# The loop


def _mode_from_env():
    return TEST if os.environ.get("RR_MODE") == "test" else DUEL


def _call(bot, method, *args):
    """``bot.method(*args)`` for an object, ``bot(*args)`` for a plain function (act only)."""
    if callable(getattr(bot, method, None)):
        return getattr(bot, method)(*args)
    if method in ("act", "place") and callable(bot):
        return bot(*args)
    return None


def run(bot):
    """Plays Resource Rush on stdin/stdout until the arena closes stdin.

    ``bot`` is a function ``act(state)`` or an object with ``act(state)`` (and optionally
    ``start(state)``, called once after the header); ``act`` returns the Pos to move to, or
    None to WAIT. The mode comes from ``RR_MODE`` (``test`` in the single-player tests). With
    ``RR_DEBUG`` set, the state after every settled tick goes to stderr (:meth:`GameState.view_line`).
    A bad line from the arena is reported on stderr and ends the program with status 1.
    """
    debug = bool(os.environ.get("RR_DEBUG"))
    _guarded(lambda: run_io(bot, sys.stdin, sys.stdout, _mode_from_env(), sys.stderr if debug else None))


def _guarded(loop):
    """Runs ``loop``; a bad line from the arena is reported on stderr and exits with status 1."""
    try:
        loop()
    except ProtocolError as e:
        sys.stderr.write("botkit: {}\n".format(e))
        sys.exit(1)
    except BrokenPipeError:
        pass


def _check_on_map(state, line, opponent):
    """Refuses an opponent's move off the map, as the Rust SDK does. The arena never sends one
    (it tells an invalid move as ``WAIT``, and a test file's scripted moves are on its map), so
    such a line was typed or piped by hand: stopping says so, where the kit would have put the
    opponent off its map (or, with a negative coordinate, on a cell counted from the far end)."""
    if opponent is not None and not state.in_bounds(opponent):
        raise ProtocolError(
            "bad TICK line `{}`: the opponent's move to ({}, {}) is off the {} x {} map "
            "(the arena never sends one)".format(line.strip(), opponent[0], opponent[1], state.rows, state.cols))


def run_io(bot, input, output, mode=DUEL, debug=None):
    """:func:`run` on any text streams; ``debug`` is a stream for the view lines, or None."""
    header = []
    while True:
        line = input.readline()
        if not line:
            return
        header.append(line)
        if line.split("#", 1)[0].strip() == "STREAM":
            break
    state = GameState("".join(header), mode)
    _call(bot, "start", state)
    while True:
        line = input.readline()
        if not line:
            return
        if not line.strip():
            continue
        tick, opponent = parse_tick(line)
        _check_on_map(state, line, opponent)
        state.on_tick(tick, opponent)
        if debug is not None and mode == DUEL:
            debug.write(state.view_line(tick - 1) + "\n")
            debug.flush()
        action = _call(bot, "act", state)
        state.commit(action)
        if debug is not None and mode == TEST:
            debug.write(state.view_line(tick) + "\n")
            debug.flush()
        output.write(format_action(action) + "\n")
        output.flush()


# ---------------------------------------------------------------------------------------
# Atoms


def atoms_limit(width, height, x, y):
    """The explosion limit of (x, y): 2 in a corner, 3 on an edge, 4 inside."""
    return 4 - (x == 0 or x == width - 1) - (y == 0 or y == height - 1)


def atoms_neighbours(width, height, x, y):
    """The neighbours of (x, y), clockwise from the one above (the order atoms are handed out)."""
    out = []
    if y > 0:
        out.append((x, y - 1))
    if x + 1 < width:
        out.append((x + 1, y))
    if y + 1 < height:
        out.append((x, y + 1))
    if x > 0:
        out.append((x - 1, y))
    return out


class AtomsView:
    """What an Atoms bot sees at its turn: ``players``, ``width``, ``height``, ``me`` (your
    letter), ``turn`` (the move number) and ``cells`` (row by row: None when empty, else
    ``(owner letter, atoms)``). ``x`` is the column, ``y`` the row."""

    def __init__(self, players, width, height, me, turn, cells):
        self.players, self.width, self.height, self.me, self.turn, self.cells = (
            players, width, height, me, turn, cells)

    def cell(self, x, y):
        """None when (x, y) is empty, else (owner letter, atoms)."""
        return self.cells[y * self.width + x]

    def limit(self, x, y):
        """The explosion limit at (x, y)."""
        return atoms_limit(self.width, self.height, x, y)

    def neighbours(self, x, y):
        """The neighbours of (x, y), clockwise from the one above."""
        return atoms_neighbours(self.width, self.height, x, y)

    def legal(self):
        """The cells you may place on (empty or yours), row by row."""
        return [(x, y) for y in range(self.height) for x in range(self.width)
                if self.cell(x, y) is None or self.cell(x, y)[0] == self.me]


def _read_intro(input, shape):
    """The intro line ``KEYWORD a b c letter`` (Atoms, Tactics) as (a, b, c, letter); None at the
    end of input. ``shape`` is the expected line, for the error."""
    line = input.readline()
    if not line:
        return None
    head = line.split()
    try:
        if len(head) != 5 or head[0] != shape.split()[0] or int(head[2]) < 1 or int(head[3]) < 1:
            raise ValueError
        return int(head[1]), int(head[2]), int(head[3]), head[4][0]
    except ValueError:
        raise ProtocolError("bad line `{}`: expected `{}`".format(line.strip(), shape))


def _read_board(input, width, height, field):
    cells = []
    for _ in range(height):
        line = input.readline()
        for token in line.split():
            value = field(token)
            if value is False:
                raise ProtocolError("bad line `{}`: bad cell `{}`".format(line.strip(), token))
            cells.append(value)
    line = input.readline()
    if line.strip() != "END" or len(cells) != width * height:
        raise ProtocolError("bad line `{}`: expected the board then `END`".format(line.strip()))
    return cells


def _atoms_cell(token):
    if token.startswith("."):
        return None
    if len(token) >= 2 and token[1:].isdigit():
        return (token[0], int(token[1:]))
    return False


def run_atoms(bot, input=None, output=None):
    """Plays Atoms on stdin/stdout (or the given streams) until the arena closes stdin.
    ``bot`` is a function ``place(view)`` or an object with ``place(view)``, returning (x, y).
    On stdin, a bad line is reported on stderr and exits with status 1; on a given stream it
    raises :class:`ProtocolError`."""
    if input is None:
        return _guarded(lambda: run_atoms(bot, sys.stdin, output or sys.stdout))
    output = output or sys.stdout
    intro = _read_intro(input, "ATOMS players width height letter")
    if intro is None:
        return
    players, width, height, me = intro
    while True:
        line = input.readline()
        if not line:
            return
        words = line.split()
        if len(words) != 2 or words[0] != "TURN" or not words[1].isdigit():
            raise ProtocolError("bad line `{}`: expected `TURN n`".format(line.strip()))
        cells = _read_board(input, width, height, _atoms_cell)
        x, y = _call(bot, "place", AtomsView(players, width, height, me, int(words[1]), cells))
        output.write("PLACE {} {}\n".format(x, y))
        output.flush()


# ---------------------------------------------------------------------------------------
# OOPtimal Tactics


WATER = "~~"
"""A Tactics field nobody can ever hold."""


class TacticsView:
    """What a Tactics bot sees at its turn: ``rounds``, ``round``, ``movement`` (True in the
    Movement Phase, False in the Placement Phase), ``chips`` (your unplaced chips), ``me``
    (``"A"`` or ``"B"``), ``width``, ``height`` and ``fields`` row by row: None when empty,
    :data:`WATER`, or ``(owner letter, chips)``. Coordinates are 1-based (column, row)."""

    def __init__(self, rounds, round, movement, chips, me, width, height, fields):
        self.rounds, self.round, self.movement, self.chips = rounds, round, movement, chips
        self.me, self.width, self.height, self.fields = me, width, height, fields

    def get(self, col, row):
        """The field at 1-based (col, row); raises IndexError off the map."""
        if not (1 <= col <= self.width and 1 <= row <= self.height):
            raise IndexError("({}, {}) is off the map".format(col, row))
        return self.fields[(row - 1) * self.width + col - 1]

    def mine(self):
        """Your fields as (col, row, chips)."""
        return [(i % self.width + 1, i // self.width + 1, f[1]) for i, f in enumerate(self.fields)
                if isinstance(f, tuple) and f[0] == self.me]

    def neighbours(self, col, row):
        """The fields next to (col, row), diagonals included, that are not water."""
        out = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                c, r = col + dc, row + dr
                if (dc, dr) != (0, 0) and 1 <= c <= self.width and 1 <= r <= self.height:
                    if self.get(c, r) != WATER:
                        out.append((c, r))
        return out

    def claimed(self, letter):
        """How many fields the player with ``letter`` holds."""
        return sum(1 for f in self.fields if isinstance(f, tuple) and f[0] == letter)


def tactics_place(amount, col, row):
    """The command placing ``amount`` chips on your field (col, row)."""
    return "place {} {} {}".format(amount, col, row)


def tactics_move(amount, frm, to):
    """The command moving ``amount`` chips from your field ``frm`` to its neighbour ``to``."""
    return "move {} {} {} {} {}".format(amount, frm[0], frm[1], to[0], to[1])


TACTICS_PASS = "pass"
"""The command ending your part of the current phase."""


def _tactics_field(token):
    if token.startswith("."):
        return None
    if token.startswith("~"):
        return WATER
    if len(token) >= 2 and token[1:].isdigit():
        return (token[0], int(token[1:]))
    return False


def run_tactics(bot, input=None, output=None):
    """Plays OOPtimal Tactics on stdin/stdout (or the given streams) until the arena closes
    stdin. ``bot`` is a function ``act(view)`` or an object with ``act(view)``, returning a
    command line (:func:`tactics_place`, :func:`tactics_move` or :data:`TACTICS_PASS`). On
    stdin, a bad line is reported on stderr and exits with status 1; on a given stream it raises
    :class:`ProtocolError`."""
    if input is None:
        return _guarded(lambda: run_tactics(bot, sys.stdin, output or sys.stdout))
    output = output or sys.stdout
    intro = _read_intro(input, "TACTICS rounds width height letter")
    if intro is None:
        return
    rounds, width, height, me = intro
    while True:
        line = input.readline()
        if not line:
            return
        words = line.split()
        try:
            if len(words) != 2 or words[0] != "ROUND":
                raise ValueError
            round_ = int(words[1].split("/")[0])
        except ValueError:
            raise ProtocolError("bad line `{}`: expected `ROUND r/rounds`".format(line.strip()))
        line = input.readline()
        if line.strip() not in ("PHASE PLACEMENT", "PHASE MOVEMENT"):
            raise ProtocolError("bad line `{}`: expected `PHASE PLACEMENT` or `PHASE MOVEMENT`".format(line.strip()))
        movement = line.strip() == "PHASE MOVEMENT"
        line = input.readline()
        words = line.split()
        if len(words) != 2 or words[0] != "CHIPS" or not words[1].isdigit():
            raise ProtocolError("bad line `{}`: expected `CHIPS n`".format(line.strip()))
        fields = _read_board(input, width, height, _tactics_field)
        view = TacticsView(rounds, round_, movement, int(words[1]), me, width, height, fields)
        output.write(str(_call(bot, "act", view)) + "\n")
        output.flush()
