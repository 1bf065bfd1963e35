#include "bot.h"

#include <cctype>
#include <climits>
#include <queue>
#include <sstream>

namespace {
std::vector<std::string> tokens(const std::string& line) {
    std::istringstream in(line.substr(0, line.find('#')));
    std::vector<std::string> out;
    std::string t;
    while (in >> t) out.push_back(t);
    return out;
}

bool isResource(const std::string& c) { return !c.empty() && std::isdigit(static_cast<unsigned char>(c[0])) && c != "0"; }
}  // namespace

bool Game::readHeader(const std::vector<std::string>& lines) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& l : lines) {
        auto t = tokens(l);
        if (!t.empty()) rows.push_back(t);
    }
    if (rows.size() < 5 || rows[0].size() != 4 || rows[0][0] != "ARENA") return false;
    rows_ = std::stoi(rows[0][1]);
    cols_ = std::stoi(rows[0][2]);
    rounds_ = std::stoi(rows[0][3]);
    auto pos = [](const std::vector<std::string>& t) { return Pos{std::stoi(t.at(0)), std::stoi(t.at(1))}; };
    me_ = pos(rows[1]);
    opp_ = pos(rows[2]);
    final_ = pos(rows[3]);
    for (int r = 0; r < rows_; ++r) {
        if (rows.size() <= static_cast<size_t>(5 + r)) return false;
        cells_.push_back(rows[5 + r]);
    }
    return true;
}

bool Game::inside(Pos p) const { return p.x >= 0 && p.y >= 0 && p.x < rows_ && p.y < cols_; }

bool Game::canMove(Pos from, Pos to, bool jump) const {
    if (!inside(to)) return false;
    const std::string& c = cells_[to.x][to.y];
    if (c == "E" || c == "W" || c == "F") return false;  // F is legal but fatal: never go there
    int dx = to.x - from.x, dy = to.y - from.y;
    int d = std::abs(dx) + std::abs(dy);
    if (d == 1) return true;
    if (d == 2 && jump && (dx == 0 || dy == 0)) return cells_[from.x + dx / 2][from.y + dy / 2] != "F";
    return false;
}

std::vector<Pos> Game::moves(Pos from, bool jump) const {
    static const int dx[] = {-1, 0, 1, 0}, dy[] = {0, 1, 0, -1};
    std::vector<Pos> out;
    for (int k = 1; k <= (jump ? 2 : 1); ++k)
        for (int i = 0; i < 4; ++i) {
            Pos to{from.x + dx[i] * k, from.y + dy[i] * k};
            if (canMove(from, to, jump)) out.push_back(to);
        }
    return out;
}

std::vector<int> Game::distances(Pos from, bool jump) const {
    std::vector<int> dist(rows_ * cols_, INT_MAX);
    std::queue<Pos> q;
    dist[from.x * cols_ + from.y] = 0;
    q.push(from);
    while (!q.empty()) {
        Pos p = q.front();
        q.pop();
        if (p == final_ && !(p == from)) continue;  // stepping on the final ends the game
        for (Pos n : moves(p, jump)) {
            int& d = dist[n.x * cols_ + n.y];
            if (d == INT_MAX) {
                d = dist[p.x * cols_ + p.y] + 1;
                q.push(n);
            }
        }
    }
    return dist;
}

double Game::worth(const std::string& c) const {
    if (isResource(c)) return std::stoi(c) * static_cast<double>(multiplier_);
    if (c == "D") return 20.0 * multiplier_;
    if (c == "T") return 40.0 * multiplier_;
    if (c == "J" && !jump_) return 15.0;
    return 0.0;
}

void Game::opponentMoved(Pos p) {
    opp_ = p;
    if (movedLastTick_ && p == lastMove_) {  // both arrived at once: nobody got the item
        jump_ = jumpBefore_;
        multiplier_ = multiplierBefore_;
    }
    if (inside(p) && cells_[p.x][p.y] != "F") cells_[p.x][p.y] = "0";
}

void Game::enter(Pos p) {
    movedLastTick_ = true;
    lastMove_ = p;
    jumpBefore_ = jump_;
    multiplierBefore_ = multiplier_;
    std::string& c = cells_[p.x][p.y];
    if (c == "J") jump_ = true;
    if (c == "D") multiplier_ *= 2;
    if (c == "T") multiplier_ *= 3;
    if (isResource(c) || c == "J" || c == "D" || c == "T") c = "0";
    me_ = p;
}

std::string Game::decide(int tick) {
    movedLastTick_ = false;
    int left = rounds_ - tick + 1;
    auto here = distances(me_, jump_);
    auto back = distances(final_, jump_);
    auto backJumping = distances(final_, true);
    // The nearest thing worth taking (ties: the more valuable) that still leaves time to finish.
    Pos target = final_;
    int bestDist = INT_MAX;
    double bestValue = 0.0;
    for (int x = 0; x < rows_; ++x)
        for (int y = 0; y < cols_; ++y) {
            double value = worth(cells_[x][y]);
            int i = x * cols_ + y;
            int b = cells_[x][y] == "J" ? backJumping[i] : back[i];
            if (value <= 0 || here[i] == INT_MAX || here[i] == 0 || b == INT_MAX) continue;
            if (here[i] + b > left) continue;
            if (here[i] < bestDist || (here[i] == bestDist && value > bestValue)) {
                bestDist = here[i];
                bestValue = value;
                target = Pos{x, y};
            }
        }
    auto toTarget = distances(target, jump_);
    int d = toTarget[me_.x * cols_ + me_.y];
    if (d == INT_MAX || d == 0) return "WAIT";
    for (Pos n : moves(me_, jump_))
        if (toTarget[n.x * cols_ + n.y] == d - 1 && (target == final_ || !(n == final_))) {
            enter(n);
            return "MOVE " + std::to_string(n.x) + " " + std::to_string(n.y);
        }
    return "WAIT";
}
