// A nearest-first greedy Resource Rush bot in plain C++17: proof that any executable speaking the line
// protocol can play in the arena.
#ifndef CPP_GREEDY_BOT_H
#define CPP_GREEDY_BOT_H

#include <string>
#include <vector>

struct Pos {
    int x = 0;  // row
    int y = 0;  // column
    bool operator==(const Pos& o) const { return x == o.x && y == o.y; }
};

// The game as the bot sees it: the map with collected cells cleared, and its own state.
class Game {
public:
    // Reads the header (everything up to STREAM). Returns false on a bad header.
    bool readHeader(const std::vector<std::string>& lines);
    // Takes in the opponent's reported move (it cleared whatever lay there).
    void opponentMoved(Pos p);
    // Chooses this tick's answer and applies it to the bot's own state.
    std::string decide(int tick);

private:
    int rows_ = 0, cols_ = 0, rounds_ = 0;
    Pos me_, opp_, final_;
    std::vector<std::vector<std::string>> cells_;
    bool jump_ = false;
    long long multiplier_ = 1;
    // Last tick's move and what we held before it: if the opponent reached the same cell in
    // the same tick, the item was cancelled and we take back what we thought we gained.
    bool movedLastTick_ = false;
    Pos lastMove_;
    bool jumpBefore_ = false;
    long long multiplierBefore_ = 1;

    bool inside(Pos p) const;
    bool canMove(Pos from, Pos to, bool jump) const;
    std::vector<Pos> moves(Pos from, bool jump) const;
    std::vector<int> distances(Pos from, bool jump) const;
    double worth(const std::string& cell) const;
    void enter(Pos p);
};

#endif
