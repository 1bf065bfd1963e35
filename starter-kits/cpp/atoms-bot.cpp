/**
 * @file atoms-bot.cpp
 * @brief A small Atoms bot on the C++ starter kit: it places where one more atom explodes its
 * own cell, else on an empty corner, else on its own cells, else anywhere legal (the first such
 * cell, row by row).
 */
#include "botkit.hpp"

struct AtomsBot {
    std::pair<int, int> place(const botkit::atoms::View& v) {
        std::pair<int, int> best{-1, -1};
        int best_rank = -1;
        for (auto [x, y] : v.legal()) {
            const auto& c = v.cell(x, y);
            int rank = c.owner != '.' && c.atoms == v.limit(x, y) - 1 ? 3
                       : c.owner == '.' && v.limit(x, y) == 2        ? 2
                       : c.owner != '.'                               ? 1
                                                                      : 0;
            if (rank > best_rank) best_rank = rank, best = {x, y};
        }
        return best;
    }
};

int main() {
    AtomsBot bot;
    return botkit::atoms::run(bot);
}
