"""The Python kit's own tests: ``python3 -m unittest test_botkit`` in this folder. The C and C++
kits' tests (``make test``) check the same cases."""

import io
import unittest

import botkit
from botkit import Pos

# The final lies behind a wall: only a path through the J at (1, 1) gets there.
J_MAP = "ARENA 3 5 20\n1 0\n2 0\n1 4\nMAP\n0 0 0 W 0\n0 J 0 W 0\n0 0 0 W 0\nEND_MAP\nSTREAM\n"
# The plain shortest way to the 9 crosses the final at (0, 1).
FINAL_MAP = "ARENA 2 3 9\n0 0\n0 0\n0 1\nMAP\n0 0 9\n0 0 0\nEND_MAP\nSTREAM\n"
# Rows for collecting, cancelling and fire.
ROW_MAP = "ARENA 2 5 6\n0 1\n0 3\n0 4\nMAP\nF 0 9 0 0\n0 F 0 0 0\nEND_MAP\nSTREAM\n"


class Paths(unittest.TestCase):
    def test_path_to_plans_through_a_jump(self):
        s = botkit.GameState(J_MAP)
        self.assertEqual(s.path_to(Pos(1, 4)), [Pos(1, 1), Pos(1, 2), Pos(1, 4)])
        self.assertEqual(s.distance_to(Pos(1, 4)), 3)
        self.assertIsNone(s.reach_from(s.me.pos, False).dist(Pos(1, 4), False), "not without the J")
        self.assertEqual(s.distances_to(Pos(1, 4)).get(Pos(1, 0), False), 3)
        self.assertEqual(s.distances_to(Pos(1, 4)).get(Pos(1, 0), True), 2)
        self.assertEqual(s.distances_to(Pos(1, 4)).get(Pos(0, 0), False), 4)
        self.assertEqual(s.path_to(Pos(1, 0)), [])
        self.assertIsNone(s.path_to(Pos(0, 3)), "a wall is never reached")

    def test_paths_keep_off_the_final_unless_going_there(self):
        s = botkit.GameState(FINAL_MAP)
        self.assertEqual(s.path_to(Pos(0, 2)), [Pos(1, 0), Pos(1, 1), Pos(1, 2), Pos(0, 2)])
        self.assertEqual(s.distance_to(Pos(0, 1)), 1)
        self.assertEqual(s.distances_to(Pos(0, 2)).get(Pos(0, 0), False), 4)
        self.assertEqual(s.step_towards(Pos(0, 1)), Pos(0, 1))

    def test_moves_follow_the_referee(self):
        s = botkit.GameState(J_MAP)
        self.assertEqual(s.legal_moves(), [Pos(0, 0), Pos(1, 1), Pos(2, 0)])
        self.assertEqual(s.legal_moves(Pos(1, 2), True), [Pos(0, 2), Pos(2, 2), Pos(1, 1), Pos(1, 4), Pos(1, 0)])
        g = s.grid
        self.assertEqual(botkit.move_error(g, Pos(1, 2), Pos(1, 3), False), "(1, 3) is `W`, which cannot be entered")
        self.assertEqual(botkit.move_error(g, Pos(1, 0), Pos(1, 2), False),
                         "(1, 0) to (1, 2) is two cells away and the player has no Jump")
        self.assertEqual(botkit.move_error(g, Pos(1, 0), Pos(1, 0), False),
                         "(1, 0) is where the player already is (answer WAIT to stay)")
        self.assertEqual(botkit.move_error(g, Pos(0, 0), Pos(1, 1), True),
                         "(0, 0) to (1, 1) is not a step or a straight two-cell jump")
        self.assertEqual(botkit.move_error(g, Pos(0, 0), Pos(-1, 0), True), "(-1, 0) is off the map")
        r = botkit.GameState(ROW_MAP)
        self.assertEqual(botkit.move_error(r.grid, Pos(1, 0), Pos(1, 2), True), "cannot jump over the fire at (1, 1)")
        self.assertIsNone(botkit.move_error(r.grid, Pos(0, 1), Pos(0, 0), False), "fire is legal to enter")
        self.assertEqual(r.safe_moves(Pos(1, 0), False), [])


class Tracking(unittest.TestCase):
    def test_a_duel_settles_a_tick_when_the_opponents_move_arrives(self):
        s = botkit.GameState(ROW_MAP)
        s.on_tick(1, None)
        self.assertEqual(s.ticks_left(), 6)
        s.commit(Pos(0, 2))
        s.on_tick(2, Pos(0, 2))  # both stepped onto the 9: cancelled
        self.assertEqual((s.me.pos, s.me.score, s.opponent.score, s.grid[0][2]), (Pos(0, 2), 0, 0, "0"))
        self.assertEqual(s.ticks_left(), 5)

    def test_an_opponent_in_fire_forfeits_and_one_on_the_final_finishes(self):
        s = botkit.GameState(ROW_MAP.replace("0 1\n0 3", "0 3\n0 1"))
        s.on_tick(1, None)
        s.commit(None)
        s.on_tick(2, Pos(0, 0))
        self.assertEqual((s.opponent.status, s.opponent.score), (botkit.FORFEIT, 0))
        t = botkit.GameState(ROW_MAP)
        t.on_tick(1, None)
        t.on_tick(2, Pos(0, 4))
        self.assertEqual(t.opponent.status, botkit.FINISHED)

    def test_in_a_test_the_scripted_opponent_takes_first_and_scores_nothing(self):
        s = botkit.GameState(ROW_MAP, botkit.TEST)
        s.on_tick(1, Pos(0, 2))
        self.assertEqual((s.grid[0][2], s.opponent.score), ("0", 0))
        s.commit(Pos(0, 2))
        self.assertEqual((s.me.pos, s.me.score), (Pos(0, 2), 0))

    def test_multipliers_multiply_and_scores_saturate(self):
        p = botkit.Player(Pos(0, 0))
        for cell in ("D", "T", "9"):
            p.collect(cell)
        self.assertEqual((p.multiplier, p.score), (6, 54))
        for _ in range(100):
            p.collect("T")
        p.collect("99")
        self.assertEqual((p.multiplier, p.score), (botkit.I64_MAX, botkit.I64_MAX))


class Loop(unittest.TestCase):
    def test_crlf_input_reads_like_lf_and_every_answer_is_one_line(self):
        ticks = "TICK 1 WAIT\n\nTICK 2 MOVE 2 1\nTICK 3 WAIT\n"
        answers = []
        for text in (J_MAP + ticks, (J_MAP + ticks).replace("\n", "\r\n")):
            out = io.StringIO()
            botkit.run_io(lambda s: s.step_towards(s.final), io.StringIO(text), out)
            answers.append(out.getvalue())
        self.assertEqual(answers[0], "MOVE 1 1\nMOVE 1 2\nMOVE 1 4\n")
        self.assertEqual(answers[1], answers[0])

    def test_bad_lines_are_named(self):
        with self.assertRaisesRegex(botkit.ProtocolError, "bad TICK line `TICK x WAIT`"):
            botkit.run_io(lambda s: None, io.StringIO(J_MAP + "TICK x WAIT\n"), io.StringIO())
        with self.assertRaisesRegex(botkit.ProtocolError, "bad cell `Q`"):
            botkit.GameState(J_MAP.replace("0 J 0", "0 Q 0"))

    def test_atoms_and_tactics_loops_answer_each_prompt(self):
        out = io.StringIO()
        botkit.run_atoms(lambda v: v.legal()[0], io.StringIO("ATOMS 2 3 2 G\r\nTURN 2\r\nR1 .. ..\r\n.. .. ..\r\nEND\r\n"), out)
        self.assertEqual(out.getvalue(), "PLACE 1 0\n")
        out = io.StringIO()
        text = "TACTICS 2 3 2 B\nROUND 1/2\nPHASE PLACEMENT\nCHIPS 2\nA1 ~~ ..\n.. .. B12\nEND\n"

        def act(v):
            col, row, _ = v.mine()[0]
            return botkit.tactics_place(v.chips, col, row)
        botkit.run_tactics(act, io.StringIO(text), out)
        self.assertEqual(out.getvalue(), "place 2 3 2\n")


if __name__ == "__main__":
    unittest.main()
