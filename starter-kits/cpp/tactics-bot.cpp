/**
 * @file tactics-bot.cpp
 * @brief A small OOPtimal Tactics bot on the C++ starter kit: in the Placement Phase it puts all
 * its chips on its field with the most neighbours it does not hold; in the Movement Phase it
 * passes.
 */
#include "botkit.hpp"

struct TacticsBot {
    std::string act(const botkit::tactics::View& v) {
        namespace t = botkit::tactics;
        if (v.movement || v.chips == 0) return t::pass();
        std::pair<int, int> best{-1, -1};
        int best_exposure = -1;
        for (auto [col, row] : v.mine()) {
            int exposure = 0;
            for (auto [c, r] : v.neighbours(col, row)) exposure += v.get(c, r).owner != v.me;
            if (exposure > best_exposure) best_exposure = exposure, best = {col, row};
        }
        return best_exposure < 0 ? t::pass() : t::place(v.chips, best.first, best.second);
    }
};

int main() {
    TacticsBot bot;
    return botkit::tactics::run(bot);
}
