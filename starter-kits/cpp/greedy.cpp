/**
 * @file greedy.cpp
 * @brief The C++ starter kit's sample Resource Rush bot.
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
#include "botkit.hpp"

using botkit::Action;
using botkit::Cell;
using botkit::Game;
using botkit::Pos;

/// What a cell is worth to a player with this multiplier and Jump (0 for nothing).
double worth(const Cell& c, long long multiplier, bool jump) {
    double m = double(multiplier);
    switch (c.kind) {
        case 'R': return c.value * m;
        case 'D': return 20.0 * m;
        case 'T': return 40.0 * m;
        case 'J': return jump ? 0.0 : 15.0;
        default: return 0.0;
    }
}

/// The greedy strategy (see the file's description).
struct Greedy {
    Action act(const Game& s) {
        const auto& me = s.me;
        const auto& opp = s.opponent;
        int budget = s.ticks_left();
        botkit::Reach here = s.reach_from(me.pos, me.jump);
        botkit::ToTarget home = s.distances_to(s.final_pos);
        botkit::Reach rival = s.reach_from(opp.pos, opp.jump);
        bool opponent_done = opp.status != botkit::Status::Playing;
        bool i_lead = !(s.starts[1] < s.starts[0]);
        int to_final = home.get(me.pos, me.jump);
        bool spare = to_final < 0 || to_final < budget;
        if (!opponent_done && opp.pos == me.pos && spare && (s.tick % 2 == 0) == i_lead) return Action::wait();
        // The best uncontested target, and the best at all (when everything is contested).
        bool have_best = false, have_any = false;
        double best_score = 0, any_score = 0;
        Pos best, any;
        bool best_jump = false, any_jump = false;
        for (int x = 0; x < s.grid.rows; ++x)
            for (int y = 0; y < s.grid.cols; ++y) {
                Pos p{x, y};
                double value = worth(s.grid.at(p), me.multiplier, me.jump);
                if (value <= 0) continue;
                // The quickest arrival (with or without a J picked up) that leaves time to finish.
                int d = -1, back = -1;
                bool jump = false;
                for (int j = 0; j < 2; ++j) {
                    int dj = here.dist(p, j), bj = home.get(p, j);
                    if (dj <= 0 || bj < 0 || dj + bj > budget) continue;
                    if (d < 0 || dj < d || (dj == d && bj < back)) d = dj, back = bj, jump = j;
                }
                if (d < 0) continue;
                int theirs = rival.best(p);
                bool contested = !opponent_done && theirs >= 0 && (theirs < d || (theirs == d && !i_lead));
                double score = value / d;
                if (!have_any || score > any_score) have_any = true, any_score = score, any = p, any_jump = jump;
                if (!contested && (!have_best || score > best_score))
                    have_best = true, best_score = score, best = p, best_jump = jump;
            }
        std::vector<Pos> path;
        if (have_best)
            path = here.path(best, best_jump);
        else if (have_any)
            path = here.path(any, any_jump);
        else
            path = here.path(s.final_pos, here.best_jump(s.final_pos));
        return path.empty() ? Action::wait() : Action::move(path[0]);
    }
};

int main() {
    Greedy bot;
    return botkit::run(bot);
}
