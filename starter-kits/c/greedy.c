/**
 * @file greedy.c
 * @brief The C starter kit's sample Resource Rush bot.
 *
 * Each tick it goes for the best value per tick of distance among the resources and power-ups
 * it can still afford, always keeping enough ticks to reach the final, then goes there. Paths
 * plan through picking up a J when that is shorter (so on maps where the final can only be
 * reached by jumping, it fetches a J first). It prefers what the opponent does not reach first:
 * two players arriving at once cancel the item. When both stand on one cell it waits on every
 * other tick (the two players on opposite ticks) so that they split up.
 *
 * Build it with `make` (the Makefile beside it names the program).
 */
#include "botkit.h"

/** What a cell is worth to a player with this multiplier and Jump (0 for nothing). */
static double worth(rr_cell c, long long multiplier, bool jump) {
    double m = (double)multiplier;
    switch (c.kind) {
        case 'R': return c.value * m;
        case 'D': return 20.0 * m;
        case 'T': return 40.0 * m;
        case 'J': return jump ? 0.0 : 15.0;
        default: return 0.0;
    }
}

/** Whether `a` comes before `b` (row, then column). */
static bool before(rr_pos a, rr_pos b) { return a.x != b.x ? a.x < b.x : a.y < b.y; }

/** The greedy strategy (see the file's description). */
static rr_action act(const rr_game *s, void *user) {
    /* Large tables: static, not on the stack. */
    static rr_reach here, rival;
    static rr_to_target home;
    static rr_pos path[2 * RR_MAX_CELLS];
    const rr_player *me = &s->me, *opp = &s->opponent;
    int budget = rr_ticks_left(s), to_final, x, y, len;
    bool opponent_done, i_lead, spare, have_best = false, have_any = false, best_jump = false, any_jump = false;
    double best_score = 0, any_score = 0;
    rr_pos best = me->pos, any = me->pos;
    (void)user;
    rr_reach_from(s, me->pos, me->jump, &here);
    rr_distances_to(s, s->final_pos, &home);
    rr_reach_from(s, opp->pos, opp->jump, &rival);
    opponent_done = opp->status != RR_PLAYING;
    i_lead = !before(s->starts[1], s->starts[0]);
    to_final = rr_to_target_get(&home, me->pos, me->jump);
    spare = to_final < 0 || to_final < budget;
    if (!opponent_done && rr_pos_eq(opp->pos, me->pos) && spare && (s->tick % 2 == 0) == i_lead) return rr_wait();
    /* The best uncontested target, and the best at all (when everything is contested). */
    for (x = 0; x < s->grid.rows; x++)
        for (y = 0; y < s->grid.cols; y++) {
            rr_pos p = rr_pos_at(x, y);
            double value = worth(rr_at(&s->grid, p), me->multiplier, me->jump), score;
            int d = -1, back = -1, j, theirs;
            bool jump = false, contested;
            if (value <= 0) continue;
            /* The quickest arrival (with or without a J picked up) that leaves time to finish. */
            for (j = 0; j < 2; j++) {
                int dj = rr_reach_dist(&here, p, j), bj = rr_to_target_get(&home, p, j);
                if (dj <= 0 || bj < 0 || dj + bj > budget) continue;
                if (d < 0 || dj < d || (dj == d && bj < back)) {
                    d = dj;
                    back = bj;
                    jump = j;
                }
            }
            if (d < 0) continue;
            theirs = rr_reach_best(&rival, p);
            contested = !opponent_done && theirs >= 0 && (theirs < d || (theirs == d && !i_lead));
            score = value / d;
            if (!have_any || score > any_score) {
                have_any = true;
                any_score = score;
                any = p;
                any_jump = jump;
            }
            if (!contested && (!have_best || score > best_score)) {
                have_best = true;
                best_score = score;
                best = p;
                best_jump = jump;
            }
        }
    if (have_best)
        len = rr_reach_path(&here, best, best_jump, path, 2 * RR_MAX_CELLS);
    else if (have_any)
        len = rr_reach_path(&here, any, any_jump, path, 2 * RR_MAX_CELLS);
    else
        len = rr_reach_path(&here, s->final_pos, rr_reach_best_jump(&here, s->final_pos), path, 2 * RR_MAX_CELLS);
    return len > 0 ? rr_move(path[0]) : rr_wait();
}

int main(void) { return rr_run(act, NULL); }
